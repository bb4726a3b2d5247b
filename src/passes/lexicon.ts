import type { TreeFrontEnd } from "../hdd/phases.js";
import type { Tree } from "../tree/tree.js";

/**
 * What the rename and literal passes need to know about a language's tokens beyond the tree: which
 * kinds are identifiers, numbers and strings, and which words are its keywords.
 */
export interface Lexicon {
  /** Kinds of identifier tokens: all of them with one text are one name. */
  readonly identifierKinds: ReadonlySet<string>;
  /** Words the grammar spells out (keywords, contextual keywords, built-in type names). */
  readonly keywords: ReadonlySet<string>;
  /** Kinds of number literals: tokens, or nodes whose first token is the number. */
  readonly numberKinds: ReadonlySet<string>;
  /** Kinds of string literals: their content is what lies between their first and last token. */
  readonly stringKinds: ReadonlySet<string>;
  /** Names that differ only in case are the same name. */
  readonly caseInsensitive: boolean;
  /**
   * Tokens of these kinds whose text is `prefix` and then an identifier are names as well; a new
   * name for one keeps the prefix (CSS's custom properties, `--muted` → `--a`).
   */
  readonly prefixed?: { readonly kinds: ReadonlySet<string>; readonly prefix: string };
}

/** A front-end that knows its language's lexicon and can count a candidate's syntax errors. */
export interface LexicalFrontEnd extends TreeFrontEnd {
  readonly lexicon: Lexicon;
  syntaxErrors(input: Uint8Array): number;
  /**
   * Whether token `t` of a tree this front-end parsed is a name the rename pass may change: of an
   * identifier kind, and not where identifiers are not names (a page's styles).
   */
  isName(tree: Tree, t: number): boolean;
  /** Whether `input` holds a name (see isName): a page without scripts has none. */
  hasNames(input: Uint8Array): boolean;
}

export function hasLexicon(frontEnd: TreeFrontEnd): frontEnd is LexicalFrontEnd {
  return "lexicon" in frontEnd && "syntaxErrors" in frontEnd && "isName" in frontEnd;
}
