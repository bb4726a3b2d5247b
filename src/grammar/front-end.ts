import type { TreeFrontEnd } from "../hdd/phases.js";
import type { SyntaxCheck } from "../reduce/syntax-filter.js";
import { emptyRoot, type GlueCheck, type RawNode } from "../tree/raw.js";
import { NO_REPLACEMENTS, Replacements } from "../tree/replacements.js";
import { ALL_TRANSFORMS, Tree, type TreeTransforms } from "../tree/tree.js";
import { sameBytes } from "../bytes.js";
import { WhittleError } from "../errors.js";
import type { AntlrGrammar, AntlrGrammarOptions, SyntaxErrorInfo } from "./antlr/index.js";
import { islandSpan, type FormatFile, type IslandRule } from "./format-file.js";
import { parseWithTightHeap, reclaimAfterParse } from "../tree/reclaim.js";

export interface AntlrFrontEndOptions {
  /** A combined grammar, or a lexer and a parser grammar (imported grammars are found beside them). */
  readonly grammarFiles: readonly string[];
  /** The start rule (default: the parser's first rule). */
  readonly start?: string | undefined;
  /** A module with the helpers the grammar's predicates call (default: whittle's, when it knows them). */
  readonly grammarHelpers?: string | undefined;
  /** Where processed grammars are cached (default: the user's cache directory); false: no cache. */
  readonly cacheDir?: string | false;
  /** The user's replacements (a replacements file). */
  readonly replacements?: Replacements;
  readonly transforms?: TreeTransforms;
  /** Named in syntax errors. */
  readonly fileName?: string;
}

/** What a format file adds to the options: the grammars, by name, and the islands between them. */
export interface FormatFrontEndOptions extends Omit<AntlrFrontEndOptions, "grammarFiles" | "grammarHelpers"> {
  readonly format: FormatFile;
}

/** One loaded grammar of the front-end. */
interface Part {
  readonly name: string;
  readonly grammar: AntlrGrammar;
  readonly start: string | undefined;
  /** Token type → the grammar its text is parsed with. */
  readonly islands: ReadonlyMap<string, IslandRule>;
  /** Put before the kinds of an island grammar's nodes ("js:"), so kinds of two grammars never meet. */
  readonly prefix: string;
}

/**
 * ANTLR's runtime is imported when a grammar is first loaded: a run with a built-in language or
 * plain text never pays for loading it (about 50 ms of every start).
 */
async function loadGrammar(options: AntlrGrammarOptions): Promise<AntlrGrammar> {
  const { loadAntlrGrammar } = await import("./antlr/index.js");
  return loadAntlrGrammar(options);
}

/** The kinds of the text before and after an island inside its token: the token's kind and these. */
const AROUND_BEFORE = "<";
const AROUND_AFTER = ">";

/** Islands inside islands inside …: more than this is taken for a loop in the format file. */
const MAX_ISLAND_DEPTH = 32;

/**
 * The tree passes' view of an ANTLR grammar: parse bytes into the tree model. The original input is
 * checked with `checkOriginal` (a syntax error stops the run, unless allowed); the inputs later passes
 * start from were produced by whittle and passed the user's test, so they are parsed with ANTLR's
 * error recovery: a pass works on the best tree it can get rather than stopping the run.
 *
 * With a format file, token types of a grammar may be islands: the token's text (or the part of it
 * the island's pattern selects) is parsed with another grammar, and the token becomes a node whose
 * children are the island's tree (and the text around the island, as fixed leaves). The island's
 * node kinds carry its grammar's name ("js:statement"), in trees, replacements and hoisting alike.
 */
export class AntlrFrontEnd implements TreeFrontEnd, SyntaxCheck {
  readonly glue: GlueCheck;
  /**
   * Not cheap: ANTLR's interpreter takes 10–110 ms to parse a 19 KB C file (once warm; tree-sitter:
   * about 8 ms), 8.5–15 s for 131 KB of JavaScript (tree-sitter: about 0.1 s) — as long as a test
   * or much longer, so parsing every candidate may cost more than the tests it saves. The syntax
   * filter is used only when asked for (--syntax-filter, syntaxFilter: true).
   */
  readonly cheapSyntaxCheck = false;
  private readonly replacements: Replacements;
  /**
   * The last input checked (checkOriginal), its tree (islands expanded; undefined once `parse` has
   * taken it) and its error count.
   */
  private last: { input: Uint8Array; root: RawNode | null | undefined; errors: number } | undefined;
  private parseMs = 0;
  private parsedBytes = 0;

  private constructor(
    private readonly host: Part,
    private readonly parts: ReadonlyMap<string, Part>,
    replacements: Replacements,
    private readonly options: Omit<AntlrFrontEndOptions, "grammarFiles">,
  ) {
    this.replacements = replacements;
    this.glue = parts.size === 1 ? host.grammar.glue : this.islandGlue.bind(this);
  }

  /**
   * Whether two pieces glue, in a tree with islands, by the grammars they belong to (their kinds say
   * which): inside one grammar, its lexer decides; the text around an island and the island's own
   * tokens never glue (the island is parsed on its own); anywhere else, any grammar that would read
   * the two as one token gets a space (one too many is harmless, one missing is not).
   */
  private islandGlue(left: string, right: string, leftKind?: string, rightKind?: string): boolean {
    const [a, b] = [this.ownerOf(leftKind), this.ownerOf(rightKind)];
    if (a !== undefined && b !== undefined) {
      if (a.part !== undefined && a.part === b.part) return a.part.grammar.glue(left, right);
      if ((a.around && b.part !== this.host) || (b.around && a.part !== this.host)) return false;
    }
    for (const part of this.parts.values()) if (part.grammar.glue(left, right)) return true;
    return false;
  }

  /** The grammar a node kind belongs to, or that it is the text around an island. */
  private ownerOf(kind: string | undefined): { part: Part | undefined; around: boolean } | undefined {
    if (kind === undefined) return undefined;
    if (kind.endsWith(AROUND_BEFORE) || kind.endsWith(AROUND_AFTER)) return { part: undefined, around: true };
    const colon = kind.indexOf(":");
    const part = colon > 0 ? this.parts.get(kind.slice(0, colon)) : undefined;
    return { part: part ?? this.host, around: false };
  }

  /** The input's grammar. */
  get grammar(): AntlrGrammar {
    return this.host.grammar;
  }

  static async load(options: AntlrFrontEndOptions): Promise<AntlrFrontEnd> {
    const grammar = await loadGrammar({
      grammarFiles: options.grammarFiles,
      ...(options.start !== undefined ? { start: options.start } : {}),
      ...(options.grammarHelpers !== undefined ? { grammarHelpers: options.grammarHelpers } : {}),
      ...(options.cacheDir !== undefined ? { cacheDir: options.cacheDir } : {}),
    });
    const host: Part = { name: "", grammar, start: undefined, islands: new Map(), prefix: "" };
    return new AntlrFrontEnd(host, new Map([["", host]]), options.replacements ?? NO_REPLACEMENTS, options);
  }

  /**
   * Loads every grammar of a format file. The replacements of the options (--replacements) override
   * the host grammar's from the file; `start` overrides the host's start rule.
   */
  static async loadFormat(options: FormatFrontEndOptions): Promise<AntlrFrontEnd> {
    const { format } = options;
    const parts = new Map<string, Part>();
    const table = new Map<string, string>();
    for (const [name, entry] of format.grammars) {
      const isHost = name === format.host;
      const start = isHost ? (options.start ?? entry.start) : entry.start;
      let grammar: AntlrGrammar;
      try {
        grammar = await loadGrammar({
          grammarFiles: entry.files,
          ...(start !== undefined ? { start } : {}),
          ...(entry.helpers !== undefined ? { grammarHelpers: entry.helpers } : {}),
          ...(options.cacheDir !== undefined ? { cacheDir: options.cacheDir } : {}),
        });
      } catch (error) {
        if (error instanceof WhittleError) {
          throw new WhittleError(error.code, `grammar "${name}" of the format file: ${error.message}`, {
            cause: error,
          });
        }
        throw error;
      }
      const prefix = isHost ? "" : `${name}:`;
      parts.set(name, { name, grammar, start, islands: entry.islands, prefix });
      for (const [kind, text] of entry.replacements?.entries() ?? []) table.set(prefix + kind, text);
    }
    for (const [kind, text] of options.replacements?.entries() ?? []) table.set(kind, text);
    return new AntlrFrontEnd(parts.get(format.host)!, parts, new Replacements(table), options);
  }

  /**
   * Parses the original input: throws WhittleError("syntax") naming the first syntax error, unless
   * `allowSyntaxErrors`; returns how many errors ANTLR's recovery went past.
   */
  checkOriginal(input: Uint8Array, allowSyntaxErrors: boolean): number {
    const { syntaxErrors, root } = this.timedParse(input, allowSyntaxErrors);
    let count = syntaxErrors;
    if (root !== null) {
      const errors: IslandError[] = [];
      this.expandIslands(root, input, this.host, errors, 0);
      if (errors.length > 0 && !allowSyntaxErrors) throw this.islandSyntaxError(input, errors);
      count += errors.reduce((n, e) => n + e.count, 0);
    }
    // The original is parsed again for its tree, and its errors are counted again by the syntax
    // filter: one parse serves all three (for 586 KB of C a parse takes 10 s).
    this.last = { input, root, errors: count };
    return count;
  }

  /**
   * Checks the original as checkOriginal does, but an original with syntax errors is parsed again
   * with ANTLR's error recovery instead of failing: `firstError` then names the first error (the
   * reduction goes on along the recovered tree). Measured on the shared JSON cases with errors,
   * stopping left nothing while recovery reached 6 and 3 non-whitespace characters.
   */
  checkOriginalRecovering(
    input: Uint8Array,
    allowSyntaxErrors: boolean,
  ): { syntaxErrors: number; firstError?: string } {
    try {
      return { syntaxErrors: this.checkOriginal(input, allowSyntaxErrors) };
    } catch (error) {
      if (!(error instanceof WhittleError) || error.code !== "syntax") throw error;
      return { syntaxErrors: this.checkOriginal(input, true), firstError: error.message.split("\n")[0]! };
    }
  }

  /** The syntax errors ANTLR's recovery goes past in `input`, those inside islands included. */
  syntaxErrors(input: Uint8Array): number {
    const last = this.last;
    if (last !== undefined && sameBytes(last.input, input)) return last.errors;
    this.last = undefined;
    return this.checkOriginal(input, true);
  }

  /** ANTLR's time per byte of input, in ms, over the parses made so far; undefined before the first. */
  msPerByte(): number | undefined {
    return this.parsedBytes === 0 ? undefined : this.parseMs / this.parsedBytes;
  }

  private timedParse(input: Uint8Array, allowSyntaxErrors: boolean): ReturnType<AntlrGrammar["parse"]> {
    const start = performance.now();
    const result = parseWithTightHeap(input.length, () =>
      this.host.grammar.parse(input, { allowSyntaxErrors, ...this.fileName() }),
    );
    this.parseMs += performance.now() - start;
    this.parsedBytes += input.length;
    reclaimAfterParse(input.length);
    return result;
  }

  parse(input: Uint8Array): ReturnType<TreeFrontEnd["parse"]> {
    const last = this.last;
    let root: RawNode | null;
    if (last !== undefined && last.root !== undefined && sameBytes(last.input, input)) {
      root = last.root;
      // Its tree is used once (the model copies it); its error count stays for the syntax filter,
      // which asks for it after the tree is built (a second parse of 579 KiB of C takes a minute).
      this.last = { input: last.input, root: undefined, errors: last.errors };
    } else {
      this.last = undefined;
      root = this.timedParse(input, true).root;
      if (root !== null) this.expandIslands(root, input, this.host, [], 0);
    }
    const raw = root ?? emptyRoot(this.host.grammar.startRule);
    // The raw tree is a fresh parse, or the check's, which is used once (above): copied once. The
    // copy allocates as much as a parse (drafts, then the model's arrays): the same tight heap.
    const tree = parseWithTightHeap(input.length, () =>
      Tree.build(input, raw, this.options.transforms ?? ALL_TRANSFORMS, this.replacements, true),
    );
    return { tree, glue: this.glue };
  }

  /**
   * Replaces, in place, every token of `root` (a fresh tree of `part`'s grammar, spans in `input`)
   * that is an island by a node holding the island's tree; islands inside islands too. Syntax errors
   * inside islands are collected in `errors` (the island is parsed with error recovery).
   */
  private expandIslands(
    root: RawNode,
    input: Uint8Array,
    part: Part,
    errors: IslandError[],
    depth: number,
  ): void {
    if (part.islands.size === 0) return;
    if (depth >= MAX_ISLAND_DEPTH) {
      throw new WhittleError(
        "grammar",
        `islands nest more than ${MAX_ISLAND_DEPTH} deep: does an island pattern select the whole token of its own grammar?`,
      );
    }
    const stack: RawNode[] = [root];
    while (stack.length > 0) {
      const node = stack.pop()!;
      const children = node.children as RawNode[];
      for (let i = 0; i < children.length; i++) {
        const child = children[i]!;
        if (!child.token) {
          stack.push(child);
          continue;
        }
        const rule = part.islands.get(child.kind.slice(part.prefix.length));
        if (rule === undefined) continue;
        const island = this.island(child, rule, input, errors, depth);
        if (island !== undefined) children[i] = island;
      }
    }
  }

  /** The node an island token becomes, or undefined when the pattern does not match its text. */
  private island(
    token: RawNode,
    rule: IslandRule,
    input: Uint8Array,
    errors: IslandError[],
    depth: number,
  ): RawNode | undefined {
    const text = input.subarray(token.start, token.end);
    const span = islandSpan(rule, text);
    if (span === undefined) return undefined;
    const part = this.parts.get(rule.grammar)!;
    const start = token.start + span.start;
    const bytes = input.subarray(start, token.start + span.end);
    const parsed = part.grammar.parse(bytes, {
      allowSyntaxErrors: true,
      ...(part.start !== undefined ? { start: part.start } : {}),
    });
    if (parsed.syntaxErrors > 0) {
      errors.push({
        grammar: part.name,
        offset: start,
        count: parsed.syntaxErrors,
        first: parsed.errors[0]!,
      });
    }
    const children: RawNode[] = [];
    const fixed = (kind: string, from: number, to: number): RawNode => ({
      kind: `${token.kind}${kind}`,
      token: true,
      start: from,
      end: to,
      removable: false,
      replacement: new TextDecoder("utf-8", { ignoreBOM: true }).decode(input.subarray(from, to)),
      children: [],
    });
    if (span.start > 0) children.push(fixed(AROUND_BEFORE, token.start, start));
    if (parsed.root !== null) {
      shift(parsed.root, start, part.prefix);
      this.expandIslands(parsed.root, input, part, errors, depth + 1);
      children.push(parsed.root);
    }
    if (token.start + span.end < token.end)
      children.push(fixed(AROUND_AFTER, token.start + span.end, token.end));
    return { ...token, token: false, children };
  }

  /** The first syntax error inside an island, located in the whole input. */
  private islandSyntaxError(input: Uint8Array, errors: readonly IslandError[]): WhittleError {
    const error = errors.reduce((a, b) => (b.offset < a.offset ? b : a));
    const before = new TextDecoder().decode(input.subarray(0, error.offset));
    const lines = before.split("\n");
    const line = lines.length + error.first.line - 1;
    const column =
      error.first.line === 1 ? [...lines[lines.length - 1]!].length + error.first.column : error.first.column;
    const token =
      error.first.offendingText === null ? "" : ` at ${JSON.stringify(error.first.offendingText)}`;
    const total = errors.reduce((n, e) => n + e.count, 0);
    return new WhittleError(
      "syntax",
      `${this.options.fileName ?? "input"}:${line}:${column}: syntax error in a "${error.grammar}" island${token}: ${error.first.message}${total > 1 ? ` (${total} syntax errors in islands in all)` : ""}`,
    );
  }

  private fileName(): { fileName?: string } {
    return this.options.fileName !== undefined ? { fileName: this.options.fileName } : {};
  }
}

interface IslandError {
  readonly grammar: string;
  /** Where the island starts in the input, in bytes. */
  readonly offset: number;
  readonly count: number;
  readonly first: SyntaxErrorInfo;
}

/** Moves a fresh island tree's spans by `offset` and prefixes its kinds, in place (no recursion). */
function shift(root: RawNode, offset: number, prefix: string): void {
  const stack: RawNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as { -readonly [K in keyof RawNode]: RawNode[K] };
    node.start += offset;
    node.end += offset;
    node.kind = prefix + node.kind;
    for (const child of node.children) stack.push(child);
  }
}
