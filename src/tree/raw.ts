/**
 * What a front-end (an ANTLR grammar loaded at run time, a built-in tree-sitter grammar) hands to the
 * tree model: a parse tree as plain data, before any transform. `buildTree()` (tree.ts) turns it into
 * the immutable tree the reducers work on.
 *
 * Offsets are byte offsets into the input (UTF-8 bytes, not UTF-16 code units). Tokens on hidden
 * channels (whitespace, comments) are not nodes: the bytes between two tokens are kept as they are.
 */
export interface RawNode {
  /** Rule name for a rule node, token (symbolic) name for a token, e.g. "compoundStatement", "Identifier". */
  readonly kind: string;
  /** A token (leaf) rather than a rule node. */
  readonly token: boolean;
  /** Byte span [start, end) in the input. A rule node spans from its first to its last token. */
  readonly start: number;
  readonly end: number;
  /**
   * The node may be removed: it stems from a `?`, `*` or `+` of the grammar (for `+`, any item but
   * the first), or its rule's shortest derivation is empty. Its replacement is then usually "".
   */
  readonly removable: boolean;
  /**
   * The minimal replacement: the shortest text the node's rule (or token) can derive, "" for an
   * optional or repeated node. HDD replaces a node it removes by this text.
   */
  readonly replacement: string;
  readonly children: readonly RawNode[];
}

/** The root of an input without tokens: a node of the start rule that spans nothing. */
export function emptyRoot(kind: string): RawNode {
  return { kind, token: false, start: 0, end: 0, removable: false, replacement: "", children: [] };
}

/**
 * Tells whether two tokens written with nothing between them would lex as something else
 * (`int` `x` → `intx`). The tree's renderer then puts a single space between them. A front-end with a
 * lexer answers exactly; without one, `alwaysSeparate` is the safe answer. The renderer also passes
 * the kinds of the two nodes, for front-ends whose trees mix grammars (islands).
 */
export type GlueCheck = (left: string, right: string, leftKind?: string, rightKind?: string) => boolean;

export const alwaysSeparate: GlueCheck = () => true;
