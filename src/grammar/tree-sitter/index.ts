/**
 * The tree-sitter front-end: the built-in languages (languages.ts: JavaScript, TypeScript, C, C++,
 * JSON, HTML, CSS, Python, Java, Rust, Go, YAML, PHP, Bash) parsed with tree-sitter's WASM runtime into
 * the same tree model as the ANTLR front-end, so every HDD algorithm, transform, phase and option
 * applies unchanged.
 *
 * The runtime is `web-tree-sitter` 0.25.10 (pinned exactly in package.json; `tree-sitter.wasm` in
 * the package). It loads languages of ABI 13 to 15. 0.24.x stops at ABI 14 and refuses the
 * JavaScript and C languages ("Incompatible language version 15"); 0.26.3 and 0.27.1 load them too,
 * but 0.25 is the line these grammars were generated with (tree-sitter-javascript 0.25.0 asks for
 * tree-sitter ^0.25.0). All of them count `startIndex` in UTF-16 code units of the string parsed.
 * The native `tree-sitter` binding is not used: its prebuilt binary does not load on Debian 12. The
 * languages' packages are described in languages.ts; whittle reads only their WASM and
 * `grammar.json`, copied into `dist/languages` when whittle is built (bundle.ts), so the packages
 * are needed to build only. Nothing is fetched at install or at run time.
 *
 * Tokens are tree-sitter's leaves, named and anonymous. Extras (comments, whitespace) are treated
 * like ANTLR's hidden channel: they are not nodes, and their bytes stay between the tokens as the
 * renderer's hidden text. Hidden tokens (an inline pattern, the newline that ends a C `#define`)
 * are not nodes either: their bytes are hidden text too. Offsets are UTF-8 bytes of the input (see
 * utf8.ts).
 *
 * Removability comes from `grammar.json` alone (match.ts): a node's children are matched against its
 * rule, and those from a REPEAT item, a REPEAT1 item after the first, or an optional part, are
 * removable groups, as in the ANTLR front-end (several children of one item become a `kind:*`
 * node). `node-types.json` is not read: on the samples of the built-in languages its required and
 * multiple flags let 14 % of the named children go that grammar.json keeps, and never the other way
 * round (test/grammar/node-types.test.ts). Minimal replacements are shortest derivations (shortest.ts).
 */
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { Language, Parser, type Node, type Tree as TsTree } from "web-tree-sitter";
import { OutOfMemoryError, WhittleError } from "../../errors.js";
import { checkTreeMemory, measureBudget, type MemoryShortfall } from "../../reduce/memory.js";
import type { TreeFrontEnd } from "../../hdd/phases.js";
import { withKinds } from "../../hdd/compatibility.js";
import type { Compatibility } from "../../hdd/search.js";
import type { Lexicon } from "../../passes/lexicon.js";
import type { SyntaxCheck } from "../../reduce/syntax-filter.js";
import { emptyRoot, type GlueCheck, type RawNode } from "../../tree/raw.js";
import { NO_REPLACEMENTS, type Replacements } from "../../tree/replacements.js";
import { ALL_TRANSFORMS, Tree, type TreeTransforms } from "../../tree/tree.js";
import { groupChildren, type Group } from "../groups.js";
import { BUNDLE_GRAMMAR, BUNDLE_WASM, bundledFile, readBundled } from "./bundle.js";
import { TsGrammar, type GrammarJson } from "./grammar-json.js";
import { IncrementalParser } from "./incremental.js";
import { nodeGroups } from "./match.js";
import { grammarLexicon, withIslands } from "./lexicon.js";
import { needsSpace, shortestRuleTexts } from "./shortest.js";
import { decodeUtf8, type DecodedInput } from "./utf8.js";
import { isBuiltInLanguage, languageSpec, type BuiltInLanguage, type LanguageSpec } from "./languages.js";

export { BUILT_IN_LANGUAGES, type BuiltInLanguage } from "./languages.js";
export { detectLanguage, languageTable } from "./detect.js";

const require = createRequire(import.meta.url);

/** A loaded language: its parser and its grammar with the shortest text of each rule. */
export interface TreeSitterLanguage {
  readonly name: BuiltInLanguage;
  readonly spec: LanguageSpec;
  readonly parser: Parser;
  readonly grammar: TsGrammar;
  readonly shortest: ReadonlyMap<string, string>;
  /** Its identifier, keyword and literal kinds, for the rename and literal passes. */
  readonly lexicon: Lexicon;
  /** The languages of its islands (LanguageSpec.injections), loaded with it. */
  readonly islands: readonly {
    parent: string;
    child: string;
    language: TreeSitterLanguage;
    /** Injection.names: its identifiers are names. */
    names: boolean;
    /** Injection.attribute: only as the value of an attribute so named. */
    attribute: RegExp | undefined;
  }[];
}

let runtime: Promise<void> | undefined;
const loaded = new Map<BuiltInLanguage, Promise<TreeSitterLanguage>>();

/** Loads a built-in language once per process (the WASM runtime too). */
export function loadLanguage(name: BuiltInLanguage): Promise<TreeSitterLanguage> {
  let language = loaded.get(name);
  if (language === undefined) {
    language = load(name);
    loaded.set(name, language);
  }
  return language;
}

async function load(name: BuiltInLanguage): Promise<TreeSitterLanguage> {
  runtime ??= Parser.init();
  await runtime;
  const spec = languageSpec(name);
  const wasm = bundledFile(name, BUNDLE_WASM);
  readBundled(bundledFile(name, BUNDLE_GRAMMAR)); // a missing bundle is said plainly, before the runtime's own error
  const language = await Language.load(wasm);
  const parser = new Parser();
  parser.setLanguage(language);
  const json = JSON.parse(readBundled(bundledFile(name, BUNDLE_GRAMMAR))) as GrammarJson;
  const grammar = new TsGrammar(json);
  const shortest = shortestRuleTexts(
    grammar,
    new Map(Object.entries(spec.externalTexts)),
    spec.wordCharacters,
    new Map(Object.entries(spec.ruleTexts ?? {})),
  );
  const islands = [];
  for (const { parent, child, language: other, names, attribute } of spec.injections ?? []) {
    if (!isBuiltInLanguage(other)) throw new Error(`${name}: injection of an unknown language ${other}`);
    islands.push({ parent, child, language: await loadLanguage(other), names, attribute });
  }
  const lexicon = withIslands(
    grammarLexicon(grammar, spec),
    islands.map((island) => ({ lexicon: island.language.lexicon, names: island.names })),
  );
  return { name, spec, parser, grammar, shortest, lexicon, islands };
}

/**
 * The folder of the language's npm package (a devDependency): what the build copies from, and what
 * tests compare with. Not used at run time.
 */
export function packageRoot(spec: LanguageSpec): string {
  return dirname(require.resolve(`${spec.package}/package.json`));
}

export interface TreeSitterFrontEndOptions {
  readonly language: BuiltInLanguage;
  /** The user's replacements (a replacements file). */
  readonly replacements?: Replacements;
  readonly transforms?: TreeTransforms;
  /** Named in syntax errors. */
  readonly fileName?: string;
}

/** What one parse found besides the tree. */
export interface TreeSitterParse {
  readonly root: RawNode;
  /** ERROR and MISSING nodes in tree-sitter's tree (it recovers from every syntax error). */
  readonly errors: number;
  /** Where the first of them starts, in bytes. */
  readonly firstError: number | undefined;
  /**
   * Bytes inside ERROR nodes (each kept whole, as one unit), not those of an island's: a script
   * that is no JavaScript leaves the page's own tree whole.
   */
  readonly errorBytes: number;
  /**
   * Where identifiers are not names (the islands whose Injection.names is false), as [start, end)
   * pairs of bytes, in order.
   */
  readonly notNames: readonly number[];
}

/**
 * Two pieces glue unless a space would change nothing, by a conservative rule rather than a re-lex:
 * word characters meeting word characters (`int` `x`), operator characters meeting operator
 * characters (`+` `+`, `/` `/`), or a digit meeting a dot. In the built-in languages a space between
 * two tokens of a line never changes their meaning, so one space too many is harmless — except inside
 * a string literal, whose text pieces (the language's `stringTextKinds`) never get one. (A space is
 * only ever put where the two pieces meet with nothing between them, never at the start of a line,
 * so indentation is never touched.)
 */
export function treeSitterGlue(spec: LanguageSpec, islands: readonly LanguageSpec[] = []): GlueCheck {
  const stringText: ReadonlySet<string> = new Set([
    ...spec.stringTextKinds,
    ...islands.flatMap((island) => island.stringTextKinds),
  ]);
  return (left, right, leftKind, rightKind) =>
    left !== "" &&
    right !== "" &&
    !stringText.has(leftKind ?? "") &&
    !stringText.has(rightKind ?? "") &&
    needsSpace(left, right, spec.wordCharacters);
}

/**
 * The tree passes' view of a built-in language: parse bytes into the tree model; and the syntax
 * filter's, counting errors (a parse costs about 1 ms per 2–5 KB, so it is cheap next to a test).
 */
export class TreeSitterFrontEnd implements TreeFrontEnd, SyntaxCheck {
  readonly glue: GlueCheck;
  readonly cheapSyntaxCheck = true;
  /** The syntax checks' parses, as edits of the best input so far (see rebase). */
  readonly #checks: IncrementalParser;

  private constructor(
    readonly language: TreeSitterLanguage,
    private readonly options: TreeSitterFrontEndOptions,
  ) {
    this.glue = treeSitterGlue(
      language.spec,
      language.islands.map((island) => island.language.spec),
    );
    this.#checks = new IncrementalParser(language.parser);
    this.#islandScans = language.islands.length === 0 ? undefined : new IslandScans(language);
  }

  get lexicon(): Lexicon {
    return this.language.lexicon;
  }

  /**
   * Which nodes may replace which in the hoisting of HDDH (SUPERTYPE_HOISTING in hdd/phases.ts):
   * those `within` allows (the same kind, and the user's --hoist-compatible table), and besides two
   * nodes of kinds that one supertype of the grammar derives (`ternary_expression` and `identifier`
   * are both an `expression`). That is what one rule with alternatives is in an ANTLR grammar, whose
   * every node is of the rule: tree-sitter names each alternative's node by its own kind and keeps the
   * rule as a supertype.
   */
  supertypeCompatibility(within: Compatibility): Compatibility {
    const kinds = this.language.grammar.supertypeKinds();
    return kinds.size === 0 ? within : withKinds(kinds, within);
  }

  static async load(options: TreeSitterFrontEndOptions): Promise<TreeSitterFrontEnd> {
    return new TreeSitterFrontEnd(await loadLanguage(options.language), options);
  }

  /**
   * Parses the original input: throws WhittleError("syntax") naming where tree-sitter found the
   * first ERROR or MISSING node, unless `allowSyntaxErrors`; returns how many it found.
   */
  checkOriginal(input: Uint8Array, allowSyntaxErrors: boolean): number {
    // Counted without building the tree (for 586 KB of C that takes seconds and hundreds of MB).
    const errors = this.syntaxErrors(input);
    if (errors > 0 && !allowSyntaxErrors) {
      throw new WhittleError(
        "syntax",
        `${this.describeErrors(input)?.text}; --allow-syntax-errors reduces it all the same`,
      );
    }
    return errors;
  }

  /**
   * Where the first syntax error of `input` is and how many there are ("a.c:3:5: syntax error: not c
   * as tree-sitter's grammar reads it (2 errors in all)"), or undefined when it has none. Found
   * without building the tree (20.9 MB of JSON would not fit in V8's heap).
   */
  describeErrors(input: Uint8Array): { text: string; errorBytes: number } | undefined {
    const { errors, firstError, errorBytes } = this.scan(input);
    if (errors === 0) return undefined;
    // A byte order mark is no column (the default decoder drops it).
    const before = new TextDecoder().decode(input.subarray(0, firstError ?? 0)).split("\n");
    const where = `${this.options.fileName ?? "input"}:${before.length}:${[...before[before.length - 1]!].length + 1}`;
    const text = `${where}: syntax error: not ${this.language.name} as tree-sitter's grammar reads it (${errors} error${errors > 1 ? "s" : ""} in all)`;
    return { text, errorBytes };
  }

  isLiteral(text: string): boolean {
    return this.language.grammar.literals.has(text);
  }

  /**
   * Why the tree of `input` could not be built in the memory this process has left (see
   * checkTreeMemory), or undefined when it can. The count of nodes is tree-sitter's, before the model
   * is built.
   */
  treeShortfall(input: Uint8Array): MemoryShortfall | undefined {
    return checkTreeMemory(this.scan(input).nodes, measureBudget());
  }

  parse(input: Uint8Array): ReturnType<TreeFrontEnd["parse"]> {
    const decoded = decodeUtf8(input);
    const parsed = this.language.parser.parse(decoded.text);
    if (parsed === null) throw new Error("tree-sitter returned no tree");
    let root: RawNode;
    let notNames: readonly number[];
    try {
      // A tree too large for V8's heap would end whittle in an abort nothing can catch: this is an
      // error the run ends with, keeping its best result.
      const shortfall = checkTreeMemory(parsed.rootNode.descendantCount, measureBudget());
      if (shortfall !== undefined) {
        throw new OutOfMemoryError(
          `${shortfall.message}; --language none reduces it as text, or raise V8's limit with ` +
            `NODE_OPTIONS=--max-old-space-size=<MiB>`,
          { best: input, needed: shortfall.needed, available: shortfall.available },
        );
      }
      ({ root, notNames } = this.rawOf(input, decoded.byteAt, parsed));
    } finally {
      parsed.delete();
    }
    const tree = Tree.build(
      input,
      root,
      this.options.transforms ?? ALL_TRANSFORMS,
      this.options.replacements ?? NO_REPLACEMENTS,
      true, // a fresh parse: copied once
    );
    if (notNames.length > 0) this.#notNames.set(tree, notNames);
    return { tree, glue: this.glue };
  }

  /** TreeSitterParse.notNames of the trees parse built, where there are any. */
  readonly #notNames = new WeakMap<Tree, readonly number[]>();

  /**
   * Whether token `t` of a tree parse built is a name: an identifier by the lexicon, outside the
   * islands whose identifiers are not names (a page's styles, whose class names are its markup's).
   */
  isName(tree: Tree, t: number): boolean {
    const kind = tree.kind(t);
    if (!this.lexicon.identifierKinds.has(kind) && !this.isPrefixedName(tree, t, kind)) return false;
    const spans = this.#notNames.get(tree);
    if (spans === undefined) return true;
    const at = tree.start(t);
    for (let i = 0; i < spans.length; i += 2) if (at >= spans[i]! && at < spans[i + 1]!) return false;
    return true;
  }

  /** A token of a prefixed-name kind spelled as the prefix and an identifier (LanguageSpec.prefixedNames). */
  private isPrefixedName(tree: Tree, t: number, kind: string): boolean {
    const prefixed = this.lexicon.prefixed;
    if (prefixed === undefined || !prefixed.kinds.has(kind)) return false;
    const text = Buffer.from(tree.text(t)).toString("latin1");
    return (
      text.startsWith(prefixed.prefix) && /^[A-Za-z_][A-Za-z0-9_-]*$/.test(text.slice(prefixed.prefix.length))
    );
  }

  /**
   * Whether `input` has names to rename. A language with identifiers of its own has them in any
   * input worth reducing; one whose only names are its islands' (HTML's scripts) has them when its
   * tree holds one.
   */
  hasNames(input: Uint8Array): boolean {
    if (this.lexicon.identifierKinds.size === 0 && this.lexicon.prefixed === undefined) return false;
    if (this.language.islands.length === 0) return true;
    const { tree } = this.parse(input);
    return tree.tokens.some((t) => this.isName(tree, t));
  }

  /**
   * The ERROR and MISSING nodes of `input`'s parse, counted as parseRaw counts them (the filter
   * compares candidates with the original), without building the tree. With `anyWillDo`, an input
   * with errors may get any count above 0 (the filter with an allowance of 0 only asks whether
   * there are any): then a parse as an edit of the best input decides alone, without a fresh parse.
   */
  syntaxErrors(input: Uint8Array, anyWillDo = false): number {
    return this.scan(input, anyWillDo).errors;
  }

  /** `best` is the best input so far: later checks parse their input as an edit of it. */
  rebase(best: Uint8Array): void {
    this.#checks.rebase(this.decoded(best).text);
  }

  /** The last input the syntax checks decoded: a new best is usually the candidate checked last. */
  #lastDecoded: { input: Uint8Array; decoded: DecodedInput } | undefined;

  private decoded(input: Uint8Array): DecodedInput {
    if (this.#lastDecoded?.input !== input) this.#lastDecoded = { input, decoded: decodeUtf8(input) };
    return this.#lastDecoded.decoded;
  }

  /** The islands' scans, by their text: most candidates change one island or none. */
  readonly #islandScans: IslandScans | undefined;

  /** The last input scanned and what its scan found (the original is asked about several times). */
  #lastScan: (Scan & { input: Uint8Array; exact: boolean }) | undefined;

  /**
   * One parse of `input`, not turned into a tree: its ERROR and MISSING nodes (only subtrees that
   * hold an error are walked), where the first starts, and how many nodes tree-sitter's tree has.
   *
   * The parse is incremental, an edit of the best input so far (incremental.ts). Where it finds no
   * error it is the fresh parse's tree, node for node; where it finds errors, tree-sitter's error
   * recovery may have gone another way than on a fresh parse (other ERROR nodes, rarely), so the
   * counts come from a fresh parse unless `anyWillDo`. Whether there is an error at all has been the
   * same on every edit tried (test/grammar/incremental.test.ts: 15,000 random edits of the samples, 60,000 once,
   * of every built-in language).
   */
  private scan(input: Uint8Array, anyWillDo = false): Scan {
    const last = this.#lastScan;
    if (last !== undefined && last.input === input && (last.exact || anyWillDo)) return last;
    const decoded = this.decoded(input);
    let scanned = scanTree(this.#checks.parse(decoded.text), decoded, this.#islandScans);
    // The islands are parsed afresh in any case: only the page's own errors call for a fresh parse.
    const exact = scanned.errors === scanned.islandErrors || !anyWillDo;
    if (scanned.errors > scanned.islandErrors && exact) {
      const fresh = this.language.parser.parse(decoded.text);
      if (fresh === null) throw new Error("tree-sitter returned no tree");
      scanned = scanTree(fresh, decoded, this.#islandScans);
    }
    this.#lastScan = { ...scanned, input, exact };
    return scanned;
  }

  /** The parse tree of `input` as plain data, before any transform. */
  parseRaw(input: Uint8Array): TreeSitterParse {
    const decoded = decodeUtf8(input);
    const tree = this.language.parser.parse(decoded.text);
    if (tree === null) throw new Error("tree-sitter returned no tree");
    try {
      return this.rawOf(input, decoded.byteAt, tree);
    } finally {
      tree.delete();
    }
  }

  private rawOf(input: Uint8Array, byteAt: Uint32Array, tree: TsTree): TreeSitterParse {
    const builder = new RawBuilder(this.language, input, byteAt);
    const root = builder.build(tree.rootNode) ?? emptyRoot(this.language.grammar.start);
    if (builder.errors === 0 && tree.rootNode.hasError) builder.noteError(tree.rootNode);
    return {
      root,
      errors: builder.errors,
      firstError: builder.firstError,
      errorBytes: builder.errorBytes,
      notNames: builder.notNames,
    };
  }
}

/**
 * nodeGroups, remembered per language for child lists seen before: a large input repeats a few
 * shapes (the objects of a JSON array, the statements of a block) thousands of times, and each pass
 * builds its tree anew. The groups are never modified (groupChildren copies them).
 */
const groupMemo = new WeakMap<TreeSitterLanguage, Map<string, readonly Group[]>>();
/** Longer child lists are matched each time (their key would cost about as much as the match). */
const MEMO_MAX_CHILDREN = 64;
/** The memo starts over when it holds this many shapes. */
const MEMO_MAX_ENTRIES = 20_000;

function groupsOf(
  language: TreeSitterLanguage,
  grammarType: string,
  type: string,
  children: readonly { type: string; named: boolean }[],
): readonly Group[] {
  if (children.length > MEMO_MAX_CHILDREN)
    return nodeGroups(language.grammar, grammarType, type, children) ?? [];
  let memo = groupMemo.get(language);
  if (memo === undefined) groupMemo.set(language, (memo = new Map<string, readonly Group[]>()));
  let key = `${grammarType}\0${type}`;
  for (const c of children) key += `\0${c.named ? "n" : "a"}${c.type}`;
  let groups = memo.get(key);
  if (groups === undefined) {
    groups = nodeGroups(language.grammar, grammarType, type, children) ?? [];
    if (memo.size >= MEMO_MAX_ENTRIES) memo.clear();
    memo.set(key, groups);
  }
  return groups;
}

/** What a scan of one parse found: see TreeSitterFrontEnd.scan. */
interface Scan {
  /** The page's and its islands'. */
  errors: number;
  /** Of those, in islands. */
  islandErrors: number;
  firstError: number | undefined;
  errorBytes: number;
  nodes: number;
}

/**
 * The ERROR and MISSING nodes of `tree` (deleted after), walking only subtrees that hold one, and
 * those of its islands (`islands`, for a language that has them). The byte offsets of `decoded` are
 * asked for only where there is an error (for ASCII input they are made when first asked for).
 */
function scanTree(tree: TsTree, decoded: DecodedInput, islands?: IslandScans): Scan {
  try {
    const own = scanErrors(tree, decoded, 0);
    const ownFirst = own.first === undefined ? undefined : decoded.byteAt[own.first]!;
    if (islands === undefined) return { ...own, firstError: ownFirst, islandErrors: 0 };
    const inner = islands.scan(tree.rootNode, decoded);
    const firsts = [ownFirst, inner.firstError].filter((at) => at !== undefined);
    return {
      errors: own.errors + inner.errors,
      islandErrors: inner.errors,
      firstError: firsts.length === 0 ? undefined : Math.min(...firsts),
      // An island's error regions are not the page's: they leave its tree whole (errorBytes).
      errorBytes: own.errorBytes,
      nodes: own.nodes + inner.nodes,
    };
  } finally {
    tree.delete();
  }
}

/**
 * The errors of `tree`, whose text starts at UTF-16 index `at` of `decoded` (see scanTree); `first`
 * is where the first starts, as a UTF-16 index into the tree's text.
 */
function scanErrors(tree: TsTree, decoded: DecodedInput, at: number): TreeScan {
  let errors = 0;
  let errorBytes = 0;
  let first: number | undefined;
  const stack: Node[] = [tree.rootNode];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.isError || node.isMissing) {
      errors++;
      if (first === undefined || node.startIndex < first) first = node.startIndex;
    }
    // An error region counts once, as parseRaw keeps it whole (the root is no leaf even then).
    const root = node.id === tree.rootNode.id;
    if (node.isError && !root)
      errorBytes += decoded.byteAt[at + node.endIndex]! - decoded.byteAt[at + node.startIndex]!;
    if (node.hasError && (!node.isError || root))
      for (const child of node.children) if (child !== null) stack.push(child);
  }
  // As in parseRaw: a tree that has an error somewhere has at least one.
  if (errors === 0 && tree.rootNode.hasError) [errors, first] = [1, tree.rootNode.startIndex];
  return { errors, first, errorBytes, nodes: tree.rootNode.descendantCount };
}

/** The errors of one tree (scanErrors). */
interface TreeScan {
  readonly errors: number;
  readonly first: number | undefined;
  readonly errorBytes: number;
  readonly nodes: number;
}

/** How many islands' scans IslandScans keeps (it starts over when full). */
const ISLAND_SCANS = 256;

/**
 * The syntax errors of a page's islands, which count as the page's own: a candidate that breaks a
 * script is skipped as one that breaks the markup is. Each island is parsed afresh, by its own
 * language; its scan is remembered by its text, since a candidate mostly changes one island or none.
 */
class IslandScans {
  readonly #memo = new Map<string, TreeScan>();
  readonly #childKinds: string[];

  constructor(private readonly language: TreeSitterLanguage) {
    this.#childKinds = [...new Set(language.islands.map((island) => island.child))];
  }

  /** The errors of the islands under `root`, the first's byte offset, and the islands' nodes. */
  scan(root: Node, decoded: DecodedInput): { errors: number; firstError: number | undefined; nodes: number } {
    let errors = 0;
    let nodes = 0;
    let firstError: number | undefined;
    for (const child of root.descendantsOfType(this.#childKinds)) {
      if (child === null || child.parent === null || child.endIndex <= child.startIndex) continue;
      const island = islandOf(this.language, child.parent, child);
      if (island === undefined) continue;
      const text = decoded.text.slice(child.startIndex, child.endIndex);
      const key = `${island.language.name}\0${text}`;
      let found = this.#memo.get(key);
      if (found === undefined) {
        const tree = island.language.parser.parse(text);
        if (tree === null) throw new Error("tree-sitter returned no tree");
        try {
          found = scanErrors(tree, decoded, child.startIndex);
        } finally {
          tree.delete();
        }
        if (this.#memo.size >= ISLAND_SCANS) this.#memo.clear();
        this.#memo.set(key, found);
      }
      errors += found.errors;
      nodes += found.nodes;
      if (found.first !== undefined) {
        const at = decoded.byteAt[child.startIndex + found.first]!;
        if (firstError === undefined || at < firstError) firstError = at;
      }
    }
    return { errors, firstError, nodes };
  }
}

// Replacement texts are the input's own bytes: a leading byte order mark stays in them.
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** Space, tab, newline, carriage return, form feed, vertical tab. */
function isSpace(byte: number): boolean {
  return byte === 0x20 || (byte >= 0x09 && byte <= 0x0d);
}

/** Turns one tree-sitter tree into RawNodes, iteratively (trees of real inputs can be deep). */
class RawBuilder {
  errors = 0;
  /** Bytes inside ERROR nodes. */
  errorBytes = 0;
  firstError: number | undefined;
  /** TreeSitterParse.notNames. */
  readonly notNames: number[] = [];

  constructor(
    private readonly language: TreeSitterLanguage,
    private readonly input: Uint8Array,
    private readonly byteAt: Uint32Array,
    /**
     * Characters no replacement may hold: those that would end an island in an attribute's value
     * (its quote; for an unquoted value, blanks, quotes, `=`, `<` and `>`).
     */
    private readonly ending?: string,
  ) {}

  build(rootNode: Node): RawNode | null {
    interface Frame {
      readonly node: Node;
      readonly children: Node[];
      readonly kids: (RawNode | null)[];
    }
    const open = (node: Node): Frame => ({
      node,
      // An extra holding an error stays a child, so that the error is seen.
      children: node.children.filter((c): c is Node => c !== null && (!c.isExtra || c.hasError)),
      kids: [],
    });
    const stack: Frame[] = [open(rootNode)];
    let result: RawNode | null = null;
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      if (frame.kids.length < frame.children.length) {
        const child = frame.children[frame.kids.length]!;
        const island = this.island(frame.node, child);
        // An error region is one opaque unit: a leaf, never split (see leaf()).
        if (island !== undefined) frame.kids.push(island);
        else if (child.childCount === 0 || child.isError) frame.kids.push(this.leaf(child));
        else stack.push(open(child));
        continue;
      }
      stack.pop();
      const raw = this.inner(frame.node, frame.children, frame.kids, stack.length === 0);
      if (stack.length === 0) result = raw;
      else stack[stack.length - 1]!.kids.push(raw);
    }
    return result;
  }

  /**
   * The tree of an island (LanguageSpec.injections): the text of `child`, a token of `parent`,
   * parsed by the island's language, its offsets the input's, removable and replaced as the token
   * is. Undefined where `child` is no island, or holds no token of it. Its syntax errors count as
   * the input's (the syntax filter's scan counts them too: IslandScans).
   */
  private island(parent: Node, child: Node): RawNode | null | undefined {
    // Every node of every parse passes here: a language without islands asks the node nothing more.
    if (this.language.islands.length === 0) return undefined;
    const island = islandOf(this.language, parent, child);
    if (island === undefined) return undefined;
    const leaf = this.leaf(child);
    if (leaf === null) return null;
    const decoded = decodeUtf8(this.input.subarray(leaf.start, leaf.end));
    const tree = island.language.parser.parse(decoded.text);
    if (tree === null) throw new Error("tree-sitter returned no tree");
    try {
      const byteAt = decoded.byteAt.map((offset) => offset + leaf.start);
      // In an attribute, a replacement with a character that ends the value (a script's `""` in
      // `"…"`) would end it.
      const inner = new RawBuilder(island.language, this.input, byteAt, valueEnding(parent));
      const root = inner.build(tree.rootNode);
      // Its errors are the page's, as the scan counts them (IslandScans).
      if (inner.errors === 0 && tree.rootNode.hasError) inner.noteError(tree.rootNode);
      this.errors += inner.errors;
      if (
        inner.firstError !== undefined &&
        (this.firstError === undefined || inner.firstError < this.firstError)
      )
        this.firstError = inner.firstError;
      if (root === null || root.token) return leaf;
      if (!island.names) this.notNames.push(leaf.start, leaf.end);
      return { ...root, removable: leaf.removable, replacement: leaf.replacement };
    } finally {
      tree.delete();
    }
  }

  noteError(node: Node): void {
    this.errors++;
    const at = this.byteAt[node.startIndex]!;
    if (this.firstError === undefined || at < this.firstError) this.firstError = at;
  }

  /**
   * A token; or an ERROR node, whose text is kept as one opaque unit: removable whole (its
   * replacement is empty), never split or replaced piece by piece, since what is inside it follows
   * no rule of the grammar.
   */
  private leaf(node: Node): RawNode | null {
    if (node.isMissing || node.isError) this.noteError(node);
    const start = this.byteAt[node.startIndex]!;
    const end = this.byteAt[node.endIndex]!;
    if (end <= start) return null;
    if (node.isError) {
      this.errorBytes += end - start;
      return { kind: node.type, token: true, start, end, removable: true, replacement: "", children: [] };
    }
    const replacement = this.replacementOf(node, start, end);
    return {
      kind: node.type,
      token: true,
      start,
      end,
      removable: replacement === "",
      replacement,
      children: [],
    };
  }

  private inner(
    node: Node,
    children: readonly Node[],
    kids: (RawNode | null)[],
    isRoot: boolean,
  ): RawNode | null {
    if (node.isError) this.noteError(node);
    // Only the root can be an ERROR here (others are leaves): its children follow no rule, and
    // nothing among them is removable by the grammar (HDD still replaces nodes by their minimal
    // text). Elsewhere the children other than error regions are matched against the node's rule
    // (a MISSING token stands where the rule wants it); an error region is removable on its own.
    const groups = node.isError ? [] : this.groupsAround(node, children);
    // A hidden token that starts the node (the digits of CSS's `100%`, Rust's `r#"`) becomes a fixed
    // leaf of the node too: as hidden text it would go with the first child (`%`) when that is removed.
    const head = isRoot ? null : this.headToken(node, children);
    const items =
      head === null
        ? groupChildren(kids, groups, node.type)
        : groupChildren(
            [head, ...kids],
            groups.map((g) => ({ ...g, start: g.start + 1, end: g.end + 1 })),
            node.type,
          );
    if (items.length === 0) return null;
    // A hidden token that ends the node (the newline that ends a C preprocessor line) becomes a
    // fixed leaf of the node, so that removing what follows never takes it away as hidden text.
    // (The root's tail is the input's trailing whitespace and extras: hidden text as ever.)
    const nodeEnd = this.byteAt[node.endIndex]!;
    const lastEnd = items[items.length - 1]!.end;
    const lastChild = node.lastChild;
    const lastAny = lastChild === null ? lastEnd : this.byteAt[lastChild.endIndex]!;
    if (!isRoot && nodeEnd > lastEnd && lastAny <= lastEnd) {
      const tail = decoder.decode(this.input.subarray(lastEnd, nodeEnd));
      items.push({
        kind: `${node.type}:end`,
        token: true,
        start: lastEnd,
        end: nodeEnd,
        removable: false,
        replacement: tail,
        children: [],
      });
    }
    const start = items[0]!.start;
    const end = items[items.length - 1]!.end;
    const replacement = this.replacementOf(node, this.byteAt[node.startIndex]!, this.byteAt[node.endIndex]!);
    return {
      kind: node.type,
      token: false,
      start,
      end,
      removable: replacement === "",
      replacement,
      children: items,
    };
  }

  /**
   * The removable groups of `children` (indices into it) by the rule of `node`, matched on the
   * children that are not error regions; a group that spans an error region takes it along.
   */
  private groupsAround(node: Node, children: readonly Node[]): readonly Group[] {
    const index: number[] = [];
    const types: { type: string; named: boolean }[] = [];
    children.forEach((c, i) => {
      if (c.isError) return;
      index.push(i);
      types.push({ type: c.type, named: c.isNamed });
    });
    const groups = groupsOf(this.language, node.grammarType, node.type, types);
    if (index.length === children.length) return groups;
    // Group bounds in the full list: a group's end is the position after its last child.
    const at = (i: number): number => (i < index.length ? index[i]! : children.length);
    return groups.map((g) => ({
      ...g,
      start: at(g.start),
      end: g.end > g.start ? index[g.end - 1]! + 1 : at(g.start),
    }));
  }

  /**
   * The hidden token between the start of `node` and its first child, as a fixed leaf: the bytes
   * there that are neither whitespace nor an extra (a comment). Null when there are none.
   */
  private headToken(node: Node, children: readonly Node[]): RawNode | null {
    const first = children[0];
    if (first === undefined) return null;
    let start = this.byteAt[node.startIndex]!;
    const end = this.byteAt[first.startIndex]!;
    for (const child of node.children) {
      if (child === null || !child.isExtra) continue;
      const [a, b] = [this.byteAt[child.startIndex]!, this.byteAt[child.endIndex]!];
      if (a <= start && b > start) start = b;
    }
    let last = end;
    while (start < last && isSpace(this.input[start]!)) start++;
    while (last > start && isSpace(this.input[last - 1]!)) last--;
    if (last <= start) return null;
    const text = decoder.decode(this.input.subarray(start, last));
    return {
      kind: `${node.type}:start`,
      token: true,
      start,
      end: last,
      removable: false,
      replacement: text,
      children: [],
    };
  }

  /**
   * The shortest text of the node's rule (its name before any alias); an anonymous token is its own
   * text; anything without a known shortest text (an external token, an ERROR) keeps its text.
   */
  private replacementOf(node: Node, start: number, end: number): string {
    const own = (): string => decoder.decode(this.input.subarray(start, end));
    const replacement = this.shortestOf(node, own);
    const ending = this.ending;
    return ending !== undefined && [...replacement].some((c) => ending.includes(c)) ? own() : replacement;
  }

  private shortestOf(node: Node, own: () => string): string {
    if (!node.isNamed || node.isError) return own();
    const shortest = this.language.shortest;
    if (this.language.grammar.rules.has(node.grammarType)) return shortest.get(node.grammarType) ?? own();
    // A leaf from the external scanner keeps its text (its rules may be aliased elsewhere, in other
    // contexts: Bash's `1` in `$1` is a variable_name, and so is an alias of a word).
    if (node.childCount === 0) return own();
    // An alias of hidden rules: their shortest text if they all have the same one.
    const texts = new Set(this.language.grammar.aliasedAs(node.type).map((name) => shortest.get(name)));
    const [only] = texts;
    return texts.size === 1 && only !== undefined ? only : own();
  }
}

/** The JavaScript types of a script element (HTML's "JavaScript MIME type essence matches"). */
const JS_TYPES = new Set([
  "",
  "module",
  "text/javascript",
  "application/javascript",
  "application/ecmascript",
  "text/ecmascript",
  "text/jscript",
  "text/livescript",
  "application/x-javascript",
  "application/x-ecmascript",
  "text/x-javascript",
  "text/x-ecmascript",
  "text/javascript1.0",
  "text/javascript1.1",
  "text/javascript1.2",
  "text/javascript1.3",
  "text/javascript1.4",
  "text/javascript1.5",
]);

/** The island `child`, a token of `parent`, is (LanguageSpec.injections), if it is one. */
function islandOf(
  language: TreeSitterLanguage,
  parent: Node,
  child: Node,
): TreeSitterLanguage["islands"][number] | undefined {
  if (child.childCount !== 0 || child.isError || child.isMissing) return undefined;
  const island = language.islands.find(
    (i) =>
      i.parent === parent.type &&
      i.child === child.type &&
      (i.attribute === undefined || i.attribute.test(attributeName(parent) ?? "")),
  );
  if (island === undefined || (parent.type === "script_element" && !scriptIsJs(parent))) return undefined;
  return island;
}

/**
 * The name of the attribute that `parent`, an island's parent, is (an unquoted value's) or whose
 * quoted value it is (HTML's `attribute`, `quoted_attribute_value`), if either.
 */
function attributeName(parent: Node): string | undefined {
  const attribute = parent.type === "attribute" ? parent : parent.parent;
  if (attribute === null || attribute.type !== "attribute") return undefined;
  return attribute.namedChildren.find((c) => c?.type === "attribute_name")?.text;
}

/** What ends an attribute's value that is an island's `parent` (HTML): see RawBuilder.ending. */
function valueEnding(parent: Node): string | undefined {
  if (parent.type === "quoted_attribute_value") return parent.text.charAt(0);
  // tree-sitter-html's unquoted value, /[^<>"'=\s]+/
  if (parent.type === "attribute") return " \t\n\f\r\"'=<>";
  return undefined;
}

/** Whether an HTML script element holds JavaScript: no `type`, or one of JS_TYPES (any case). */
function scriptIsJs(script: Node): boolean {
  const start = script.firstNamedChild;
  if (start === null || start.type !== "start_tag") return true;
  for (const attribute of start.namedChildren) {
    if (attribute === null || attribute.type !== "attribute") continue;
    const name = attribute.namedChildren.find((c) => c?.type === "attribute_name");
    if (name?.text.toLowerCase() !== "type") continue;
    const value = attribute.namedChildren.find((c) => c !== null && c.type !== "attribute_name");
    const text = value === undefined || value === null ? "" : value.text.replace(/^["']|["']$/g, "");
    return JS_TYPES.has(text.trim().toLowerCase());
  }
  return true;
}
