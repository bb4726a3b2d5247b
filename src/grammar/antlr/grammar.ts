/**
 * An ANTLR v4 grammar loaded at run time: `loadAntlrGrammar()` processes the user's `.g4` files (or
 * takes them from the grammar cache) and builds the interpreters once; `parse()` turns an input into
 * a RawNode tree with byte spans, removable marks and minimal replacements; `glue` tells the renderer
 * where two tokens need a space.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";
import {
  ATNDeserializer,
  CharStream,
  CommonTokenStream,
  DefaultErrorStrategy,
  ParserRuleContext,
  TerminalNode,
  Token,
  Vocabulary,
  type ATN,
  type LexerInterpreter,
  type ParserInterpreter,
  type ParseTree,
} from "antlr4ng";
import { WhittleError } from "../../errors.js";
import type { GlueCheck, RawNode } from "../../tree/raw.js";
import {
  cacheFilePath,
  defaultCacheDir,
  grammarCacheKey,
  grammarFileClosure,
  readGrammarCache,
  writeGrammarCache,
} from "./cache.js";
import { GRAMMAR_DATA_FORMAT, type GrammarData, type LexerData, type RecognizerData } from "./data.js";
import { javascriptHelpers, JAVASCRIPT_SUPERCLASSES } from "./helpers/javascript.js";
import type { GrammarHelpers } from "./helpers/types.js";
import {
  CollectingErrorListener,
  MAX_DFA_CONFIGURATIONS,
  lexerBaseClass,
  parserBaseClass,
  TrackedRuleContext,
  type DfaBound,
  type RuleDoneHook,
  type SyntaxErrorInfo,
} from "./interpreters.js";
import { ExactDFA, resetDfas } from "./dfa.js";
import { LARGE_PARSE_BYTES } from "../../tree/reclaim.js";
import { parseHelperCall } from "./predicates.js";
import { groupChildren } from "../groups.js";
import { joinTokenTexts, shortestRuleTexts, shortestTokenTexts } from "./replacements.js";

export interface AntlrGrammarOptions {
  /** A combined grammar, or a lexer and a parser grammar; imported grammars are found beside them. */
  readonly grammarFiles: readonly string[];
  /** Default start rule for `parse()`; default: the parser's first rule. */
  readonly start?: string;
  /**
   * The helpers the grammar's predicates and actions call: a module path (its `lexer` / `parser`
   * exports, or its default export's) or the helpers themselves. Default: whittle's own helpers when
   * the grammar's `superClass` is one whittle knows (JavaScriptLexerBase, JavaScriptParserBase).
   */
  readonly grammarHelpers?: string | GrammarHelpers;
  /** Where processed grammars are cached; false: no cache. Default: defaultCacheDir(). */
  readonly cacheDir?: string | false;
  /**
   * How many ATN configurations the states of one decision's lookahead DFA may hold before it
   * starts afresh (dfa.ts). The parse is the same whatever the bound; only its speed and memory
   * differ. Default: MAX_DFA_CONFIGURATIONS.
   */
  readonly maxDfaConfigurations?: number;
}

export interface ParseOptions {
  /** Start rule for this parse (default: the grammar's). */
  readonly start?: string;
  /** Keep ANTLR's error recovery instead of throwing on the first syntax error. */
  readonly allowSyntaxErrors?: boolean;
  /** Named in error messages. */
  readonly fileName?: string;
  /** Replacement overrides by kind (rule or token name), e.g. from a replacements file. */
  readonly replacements?: ReadonlyMap<string, string>;
}

export interface ParseResult {
  /** The start rule's node; null when the input has no tokens at all. */
  readonly root: RawNode | null;
  /** How many syntax errors ANTLR reported (always 0 unless `allowSyntaxErrors`). */
  readonly syntaxErrors: number;
  readonly errors: readonly SyntaxErrorInfo[];
}

/** Where the processed grammar came from. */
export type GrammarSource = "cache" | "tool";

export async function loadAntlrGrammar(options: AntlrGrammarOptions): Promise<AntlrGrammar> {
  if (options.grammarFiles.length === 0) {
    throw new WhittleError("grammar", "no grammar file given");
  }
  let files: string[];
  try {
    files = grammarFileClosure(options.grammarFiles);
  } catch (e) {
    throw new WhittleError("grammar", `cannot read grammar: ${(e as Error).message}`, { cause: e });
  }
  const cacheDir = options.cacheDir === undefined ? defaultCacheDir() : options.cacheDir;
  const cacheFile =
    cacheDir === false
      ? null
      : cacheFilePath(cacheDir, grammarCacheKey(files, helpersKey(options.grammarHelpers)));
  let data = cacheFile ? readGrammarCache(cacheFile) : null;
  const source: GrammarSource = data ? "cache" : "tool";
  if (!data) {
    const { processGrammarFiles } = await import("./tool.js");
    const { lexer, parser } = await processGrammarFiles(options.grammarFiles);
    data = { format: GRAMMAR_DATA_FORMAT, lexer, parser, replacements: { tokens: [], rules: [] } };
  }
  const helpers = await resolveHelpers(options.grammarHelpers, data);
  const grammar = new AntlrGrammar(
    data,
    helpers,
    source,
    cacheFile,
    options.start,
    options.maxDfaConfigurations,
  );
  if (source === "tool" && cacheFile) writeGrammarCache(cacheFile, grammar.data);
  return grammar;
}

/**
 * The helpers take part in the cache key, because the glue check behind the replacement tables runs
 * the lexer with them: a helpers module by its content, helpers given as an object by that fact
 * only (callers passing different objects should use different cache directories).
 */
function helpersKey(option: string | GrammarHelpers | undefined): string {
  if (option === undefined) return "default";
  if (typeof option !== "string") return "object";
  try {
    return `module ${createHash("sha256")
      .update(readFileSync(resolve(option)))
      .digest("hex")}`;
  } catch {
    return `module ${resolve(option)}`;
  }
}

async function resolveHelpers(
  option: string | GrammarHelpers | undefined,
  data: GrammarData,
): Promise<GrammarHelpers> {
  if (option === undefined) {
    const known: readonly string[] = JAVASCRIPT_SUPERCLASSES;
    const names = [data.lexer.superClass, data.parser.superClass];
    return names.some((n) => n !== null && known.includes(n)) ? javascriptHelpers : {};
  }
  if (typeof option !== "string") return option;
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(resolve(option)).href)) as Record<string, unknown>;
  } catch (e) {
    throw new WhittleError("grammar", `cannot load grammar helpers ${option}: ${(e as Error).message}`, {
      cause: e,
    });
  }
  const source = (module["lexer"] || module["parser"] ? module : module["default"]) as
    GrammarHelpers | undefined;
  if (!source || (typeof source.lexer !== "function" && typeof source.parser !== "function")) {
    throw new WhittleError("grammar", `grammar helpers ${option} export neither a lexer nor a parser mixin`);
  }
  return source;
}

/** Kind for a token type: its symbolic name, or its literal (`'{'`) for an implicit token. */
function tokenKinds(r: RecognizerData): string[] {
  const n = Math.max(r.literalNames.length, r.symbolicNames.length);
  const out: string[] = [];
  for (let t = 0; t < n; t++) {
    const symbolic = r.symbolicNames[t];
    out.push(symbolic && !/^T__\d+$/.test(symbolic) ? symbolic : (r.literalNames[t] ?? symbolic ?? `T${t}`));
  }
  return out;
}

function helperCalls(
  what: string,
  texts: readonly (readonly [number, string])[],
  instance: object,
  warnings: string[],
): (ReturnType<typeof parseHelperCall> | null)[] {
  const out: (ReturnType<typeof parseHelperCall> | null)[] = [];
  for (const [index, text] of texts) {
    // Precedence predicates of left-recursive rules are evaluated by the interpreter itself.
    if (/^\{\s*precpred\(/.test(text)) continue;
    const call = parseHelperCall(text);
    if (!call) {
      warnings.push(`${what} ${text} is not a helper call; ignored`);
    } else if (typeof (instance as Record<string, unknown>)[call.method] !== "function") {
      warnings.push(
        `${what} ${text} calls ${call.method}(), which the grammar helpers do not define; ignored`,
      );
      continue;
    }
    out[index] = call;
  }
  return out;
}

export class AntlrGrammar {
  /** The processed grammar, with its replacement tables (what the cache stores). */
  readonly data: GrammarData;
  readonly source: GrammarSource;
  /** The cache file read or written, if caching is on. */
  readonly cacheFile: string | null;
  readonly ruleNames: readonly string[];
  /** Kind of each token type (index = type). */
  readonly tokenKinds: readonly string[];
  readonly startRule: string;
  /** Predicates and actions that could not be run (not helper calls, or missing helper methods). */
  readonly warnings: readonly string[];
  /** Minimal replacement per kind (rule name or token kind). */
  readonly replacements: ReadonlyMap<string, string>;
  readonly glue: GlueCheck;

  private readonly lexer: LexerInterpreter;
  private readonly lexerErrors = new CollectingErrorListener();
  private readonly parserAtn: ATN;
  private readonly parserVocabulary: Vocabulary;
  private readonly parserClass: new (
    ...args: ConstructorParameters<typeof ParserInterpreter>
  ) => ParserInterpreter;
  private parser: (ParserInterpreter & DfaBound) | null = null;
  private readonly glueMemo = new Map<string, boolean>();

  constructor(
    data: GrammarData,
    helpers: GrammarHelpers,
    source: GrammarSource,
    cacheFile: string | null,
    start: string | undefined,
    private readonly maxDfaConfigurations = MAX_DFA_CONFIGURATIONS,
  ) {
    this.source = source;
    this.cacheFile = cacheFile;
    const deserializer = new ATNDeserializer();
    const lexerAtn = deserializer.deserialize(data.lexer.atn.slice());
    this.parserAtn = new ATNDeserializer().deserialize(data.parser.atn.slice());
    const warnings: string[] = [];

    this.lexer = this.buildLexer(data.lexer, lexerAtn, helpers, warnings);
    this.parserVocabulary = new Vocabulary(
      data.parser.literalNames.slice(),
      data.parser.symbolicNames.slice(),
      [],
    );
    const calls: { predicates: (ReturnType<typeof parseHelperCall> | null)[]; actions: never[] } = {
      predicates: [],
      actions: [],
    };
    const ParserBase = parserBaseClass(calls);
    this.parserClass = helpers.parser ? helpers.parser(ParserBase) : ParserBase;
    // Resolve the predicate calls against the helpers' prototype (methods live there).
    calls.predicates = helperCalls(
      "predicate",
      data.parser.predicates,
      this.parserClass.prototype as object,
      warnings,
    );
    this.warnings = warnings;

    this.ruleNames = data.parser.ruleNames;
    this.tokenKinds = tokenKinds(data.parser);
    this.startRule = start ?? this.ruleNames[0] ?? "";
    this.ruleIndex(this.startRule, "start");

    const glue: GlueCheck = (left, right) => this.glues(left, right);
    this.glue = glue;
    const tables =
      data.replacements.rules.length > 0
        ? data.replacements
        : (() => {
            const tokens = shortestTokenTexts(lexerAtn, data.parser.literalNames, this.tokenKinds.length - 1);
            return { tokens, rules: shortestRuleTexts(this.parserAtn, tokens, glue) };
          })();
    this.data = { ...data, replacements: tables };
    const table = new Map<string, string>();
    tables.rules.forEach((text, i) => {
      if (text !== null) table.set(this.ruleNames[i]!, text);
    });
    tables.tokens.forEach((text, type) => {
      if (text !== null && type > 0) table.set(this.tokenKinds[type]!, text);
    });
    this.replacements = table;
  }

  private buildLexer(
    data: LexerData,
    atn: ATN,
    helpers: GrammarHelpers,
    warnings: string[],
  ): LexerInterpreter {
    const calls: {
      predicates: (ReturnType<typeof parseHelperCall> | null)[];
      actions: (ReturnType<typeof parseHelperCall> | null)[];
    } = {
      predicates: [],
      actions: [],
    };
    const Base = lexerBaseClass(calls);
    const Lexer = helpers.lexer ? helpers.lexer(Base) : Base;
    calls.predicates = helperCalls("lexer predicate", data.predicates, Lexer.prototype as object, warnings);
    calls.actions = helperCalls("lexer action", data.actions, Lexer.prototype as object, warnings);
    const vocabulary = new Vocabulary(data.literalNames.slice(), data.symbolicNames.slice(), []);
    const lexer = new Lexer(
      data.grammarFileName,
      vocabulary,
      data.ruleNames.slice(),
      data.channelNames.slice(),
      data.modeNames.slice(),
      atn,
      CharStream.fromString(""),
    );
    lexer.removeErrorListeners();
    lexer.addErrorListener(this.lexerErrors);
    return lexer;
  }

  private ruleIndex(name: string, option: string): number {
    const i = this.ruleNames.indexOf(name);
    if (i < 0) {
      throw new WhittleError(
        "grammar",
        `${option} rule "${name}" is not a parser rule of the grammar (rules: ${this.ruleNames.slice(0, 12).join(", ")}${this.ruleNames.length > 12 ? ", …" : ""})`,
      );
    }
    return i;
  }

  /** Lexes `text` from the start (all channels, skipped tokens excluded). */
  tokenize(text: string): { tokens: Token[]; errors: number } {
    this.lexerErrors.errors.length = 0;
    this.lexer.inputStream = CharStream.fromString(text);
    const tokens: Token[] = [];
    for (let t = this.lexer.nextToken(); t.type !== Token.EOF; t = this.lexer.nextToken()) tokens.push(t);
    return { tokens, errors: this.lexerErrors.errors.length };
  }

  /**
   * Whether `left` and `right` written with nothing between them would lex as something else: the
   * lexer reports an error, no token boundary falls where `right` begins, or `left` no longer lexes
   * to the same token texts. How `right` lexes after the boundary is not compared: it may depend on
   * what precedes it (a lexer mode, as after a backtick in JavaScript), which a space would not
   * change.
   */
  private glues(left: string, right: string): boolean {
    if (left === "" || right === "") return false;
    const key = `${left}\u0000${right}`;
    const memo = this.glueMemo.get(key);
    if (memo !== undefined) return memo;
    const alone = this.tokenize(left);
    const leftTexts = alone.tokens.map((t) => t.text);
    const together = this.tokenize(left + right);
    const junction = [...left].length;
    const before = together.tokens.filter((t) => t.start < junction);
    const glued =
      alone.errors > 0 ||
      together.errors > 0 ||
      before.some((t) => t.stop >= junction) ||
      before.length !== leftTexts.length ||
      before.some((t, i) => t.text !== leftTexts[i]);
    if (this.glueMemo.size > 100_000) this.glueMemo.clear();
    this.glueMemo.set(key, glued);
    return glued;
  }

  /** The shortest text of a token sequence given by kinds, spaced where tokens would glue. */
  joinTokens(texts: readonly string[]): string {
    return joinTokenTexts(texts, this.glue);
  }

  /**
   * Parses `input` (UTF-8 bytes, or text) from the start rule. Throws a WhittleError with code
   * "syntax" naming the first syntax error, unless `allowSyntaxErrors`.
   */
  parse(input: Uint8Array | string, options: ParseOptions = {}): ParseResult {
    const decoded = decodeInput(input);
    const startIndex = this.ruleIndex(options.start ?? this.startRule, "start");
    this.lexerErrors.errors.length = 0;
    this.lexer.inputStream = CharStream.fromString(decoded.text);
    const tokens = new CommonTokenStream(this.lexer);
    tokens.fill();
    const lexErrors = [...this.lexerErrors.errors];

    // Full LL prediction from the start: for the JavaScript grammar, SLL first (ANTLR's usual
    // two-stage advice) measured slower, as its DFA fills with conflicts before it bails out.
    const parser = this.parserFor(tokens);
    const listener = new CollectingErrorListener();
    parser.removeErrorListeners();
    parser.addErrorListener(listener);
    // Each rule's subtree is converted the moment ANTLR completes it, and ANTLR's is let go of: the
    // whole ANTLR tree never exists (for 586 KB of C it would take about 400 MB).
    const converter = new TreeConverter(this, decoded.offsets, options.replacements);
    const hook = parser as unknown as RuleDoneHook;
    hook.onRuleDone = (ctx) => converter.done(ctx);
    let tree: ParserRuleContext;
    try {
      tree = parser.parse(startIndex);
    } finally {
      hook.onRuleDone = undefined;
    }
    const errors = [...lexErrors, ...listener.errors].sort((a, b) => a.line - b.line || a.column - b.column);
    const rest = tokens.LT(1);
    if (rest && rest.type !== Token.EOF && listener.errors.length === 0) {
      errors.push({
        line: rest.line,
        column: rest.column + 1,
        offendingText: rest.text ?? null,
        message: `extraneous input '${rest.text ?? ""}' after the end of rule ${this.ruleNames[startIndex]}`,
      });
    }
    if (errors.length > 0 && !options.allowSyntaxErrors) {
      const first = errors[0]!;
      const where = `${options.fileName ?? "input"}:${first.line}:${first.column}`;
      const token = first.offendingText === null ? "" : ` at ${JSON.stringify(first.offendingText)}`;
      throw new WhittleError(
        "syntax",
        `${where}: syntax error${token}: ${first.message}${errors.length > 1 ? ` (${errors.length} syntax errors in all)` : ""}`,
      );
    }
    const root = converter.rule(tree);
    this.release(decoded.offsets[decoded.offsets.length - 1]! >= LARGE_PARSE_BYTES);
    return { root, syntaxErrors: errors.length, errors };
  }

  /**
   * Lets go of the last parse: the warm parser otherwise keeps its tokens and contexts until the
   * next parse. Its DFA, which makes later parses fast, stays, unless the input was `large`: the
   * DFA a large input leaves (up to maxDfaConfigurations per decision) is then more than later
   * parses of smaller inputs gain from it, and would be held for the rest of the run.
   */
  private release(large: boolean): void {
    this.lexer.inputStream = CharStream.fromString("");
    if (this.parser) {
      this.parser.tokenStream = new CommonTokenStream(this.lexer);
      (this.parser as { rootContext: unknown }).rootContext = null;
      // antlr4ng's simulator keeps its last prediction's state, whose rule context leads (through
      // its parents and their children) to the whole tree; it is set afresh at every prediction.
      (this.parser.interpreter as unknown as { predictionState: unknown }).predictionState = undefined;
      // Its error strategy keeps the context of its last look at the next tokens (reset() leaves it).
      this.parser.errorHandler = new DefaultErrorStrategy();
      if (large) resetDfas(this.parser.interpreter);
    }
  }

  /**
   * How many ATN configurations the states of the parser's lookahead DFA of each decision hold now
   * (none before a parse).
   */
  dfaSizes(): number[] {
    return (
      this.parser?.interpreter.decisionToDFA.map((dfa) =>
        dfa instanceof ExactDFA ? dfa.configurations : 0,
      ) ?? []
    );
  }

  private parserFor(tokens: CommonTokenStream): ParserInterpreter {
    if (this.parser) {
      this.parser.tokenStream = tokens;
    } else {
      this.parser = new this.parserClass(
        this.data.parser.grammarFileName,
        this.parserVocabulary,
        this.ruleNames.slice(),
        this.parserAtn,
        tokens,
      ) as ParserInterpreter & DfaBound;
      this.parser.maxDfaConfigurations = this.maxDfaConfigurations;
    }
    return this.parser;
  }
}

interface DecodedInput {
  readonly text: string;
  /** Byte offset of each code point index (length: code points + 1). */
  readonly offsets: Uint32Array;
}

/**
 * Decodes UTF-8 (keeping a byte order mark as a character, so offsets stay exact). Input that is not
 * valid UTF-8 is read as Latin-1, one character per byte, so spans are still exact byte spans.
 */
export function decodeInput(input: Uint8Array | string): DecodedInput {
  let text: string;
  let utf8 = true;
  if (typeof input === "string") {
    text = input;
  } else {
    try {
      text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(input);
    } catch {
      text = Buffer.from(input.buffer, input.byteOffset, input.byteLength).toString("latin1");
      utf8 = false;
    }
  }
  const offsets: number[] = [0];
  let byte = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    byte += !utf8 || cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    offsets.push(byte);
  }
  return { text, offsets: Uint32Array.from(offsets) };
}

/** The children of every token node: one frozen empty array rather than one each (580 KiB of C: 180 k). */
const NO_CHILDREN: readonly RawNode[] = Object.freeze([]);

/**
 * Parse tree → RawNode, grouping quantified children and filling in replacements. Subtrees are
 * converted as ANTLR completes them (`done`), bottom-up; `rule` then converts what is left.
 */
class TreeConverter {
  /** Contexts converted by `done` whose parent has not been converted yet, and their nodes. */
  private readonly converted = new Map<ParserRuleContext, RawNode | null>();

  constructor(
    private readonly grammar: AntlrGrammar,
    private readonly offsets: Uint32Array,
    private readonly overrides: ReadonlyMap<string, string> | undefined,
  ) {}

  private replacementOf(kind: string): string | undefined {
    return this.overrides?.get(kind) ?? this.grammar.replacements.get(kind);
  }

  private token(node: TerminalNode): RawNode | null {
    const t = node.symbol;
    if (t.type === Token.EOF || t.tokenIndex < 0 || t.start < 0 || t.stop < t.start) return null;
    const kind = this.grammar.tokenKinds[t.type] ?? `T${t.type}`;
    return {
      kind,
      token: true,
      start: this.offsets[t.start]!,
      end: this.offsets[t.stop + 1]!,
      removable: false,
      replacement: this.replacementOf(kind) ?? t.text ?? "",
      children: NO_CHILDREN,
    };
  }

  /**
   * ANTLR has completed `ctx`: its subtree is converted now, and its children are let go of. Its
   * parent takes the node when it is converted in turn.
   */
  done(ctx: ParserRuleContext): void {
    const node = this.rule(ctx);
    ctx.children.length = 0;
    if (ctx instanceof TrackedRuleContext) ctx.groups = ctx.open = undefined;
    this.converted.set(ctx, node);
  }

  /**
   * The node of the tree under `root`, converted iteratively (inputs may nest deeper than the call
   * stack allows); subtrees already converted (`done`) are taken as they are.
   */
  rule(root: ParserRuleContext): RawNode | null {
    const ready = this.take(root);
    if (ready !== undefined) return ready;
    interface Frame {
      readonly ctx: ParserRuleContext;
      readonly kids: (RawNode | null)[];
      next: number;
    }
    const stack: Frame[] = [{ ctx: root, kids: [], next: 0 }];
    let result: RawNode | null = null;
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      if (frame.next < frame.ctx.children.length) {
        const child = frame.ctx.children[frame.next];
        // Let go of ANTLR's subtree as it is converted, so that the two trees are not whole in
        // memory at once.
        (frame.ctx.children as (ParseTree | null)[])[frame.next++] = null;
        if (child instanceof TerminalNode) frame.kids.push(this.token(child));
        else if (child instanceof ParserRuleContext) {
          const ready = this.take(child);
          if (ready !== undefined) frame.kids.push(ready);
          else stack.push({ ctx: child, kids: [], next: 0 });
        } else frame.kids.push(null);
        continue;
      }
      stack.pop();
      const node = this.finish(frame.ctx, frame.kids);
      if (stack.length > 0) stack[stack.length - 1]!.kids.push(node);
      else result = node;
    }
    return result;
  }

  /** The node `done` made for `ctx`, handed over once; undefined if `ctx` was not converted yet. */
  private take(ctx: ParserRuleContext): RawNode | null | undefined {
    if (!this.converted.has(ctx)) return undefined;
    const node = this.converted.get(ctx)!;
    this.converted.delete(ctx);
    return node;
  }

  private finish(ctx: ParserRuleContext, kids: readonly (RawNode | null)[]): RawNode | null {
    const kind = this.grammar.ruleNames[ctx.ruleIndex] ?? `rule${ctx.ruleIndex}`;
    const replacement = this.replacementOf(kind);
    let groups = (ctx instanceof TrackedRuleContext ? ctx.groups : undefined) ?? [];
    // An optional block holding the whole of a rule that may derive nothing (`r : a? ;`) adds
    // nothing: the rule's node is removable itself.
    if (replacement === "") groups = groups.filter((g) => g.start > 0 || g.end < kids.length);
    // A copy of the exact length: arrays grown by push have room for 16 more (for 586 KB of C,
    // 1.4 M nodes, most with one child: 130 MB of empty slots).
    const children = groupChildren(kids, groups, kind).slice();
    if (children.length === 0) return null;
    const start = children[0]!.start;
    const end = children[children.length - 1]!.end;
    return {
      kind,
      token: false,
      start,
      end,
      removable: replacement === "",
      // Every rule of a grammar the tool accepts derives some text; "" only if not.
      replacement: replacement ?? "",
      children,
    };
  }
}
