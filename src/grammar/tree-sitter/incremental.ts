/**
 * Parses of texts that differ from one kept text in one region: tree-sitter's incremental parsing
 * (the kept tree is edited, then `parse(text, oldTree)` reuses every subtree outside the edit). The
 * syntax filter parses each candidate, and a candidate is the best input so far with a few of its
 * parts removed or replaced: a fresh parse of a 1.8 MB JSON document took about 0.5 s, most of a
 * candidate's cost; an incremental one re-lexes and re-parses only around the edit.
 *
 * The kept text is the first one parsed, then each one `rebase` is given (the syntax filter gives it
 * every new best). The edit is the one region between the longest common prefix and the longest
 * common suffix of the two texts: a candidate that removes one chunk is an edit of that chunk;
 * removals far apart make one edit that spans them (everything between is parsed again).
 */
import type { Parser, Point, Tree as TsTree } from "web-tree-sitter";

export class IncrementalParser {
  #base: { text: string; tree: TsTree } | undefined;
  /**
   * The last text parsed as an edit and its tree: the next best is usually the candidate checked
   * last (the syntax filter checks a candidate the test found interesting, then rebases on it).
   */
  #last: { text: string; tree: TsTree } | undefined;

  constructor(private readonly parser: Parser) {}

  /**
   * The tree of `text`, parsed as an edit of the kept text; the caller deletes it. The first text
   * parsed becomes the kept text (then `rebase` moves it).
   */
  parse(text: string): TsTree {
    const base = this.#base;
    if (base === undefined) {
      const tree = this.fresh(text);
      this.#base = { text, tree: tree.copy() };
      return tree;
    }
    if (base.text === text) return base.tree.copy();
    if (this.#last?.text === text) return this.#last.tree.copy();
    const old = base.tree.copy();
    try {
      old.edit(editBetween(base.text, text));
      const tree = this.parser.parse(text, old);
      if (tree === null) throw new Error("tree-sitter returned no tree");
      this.#last?.tree.delete();
      this.#last = { text, tree: tree.copy() };
      return tree;
    } finally {
      old.delete();
    }
  }

  /** `text` becomes the kept text: later texts are parsed as edits of it. */
  rebase(text: string): void {
    if (this.#base?.text === text) return;
    const tree = this.parse(text);
    this.#base?.tree.delete();
    this.#base = { text, tree };
    // Parsed as an edit of the old base, which it replaces: the next edits are of this text.
    this.#last?.tree.delete();
    this.#last = undefined;
  }

  private fresh(text: string): TsTree {
    const tree = this.parser.parse(text);
    if (tree === null) throw new Error("tree-sitter returned no tree");
    return tree;
  }
}

/** Code units compared at once by editBetween. */
const CHUNK = 1024;

/** The edit that turns `before` into `after`: the region between their common prefix and suffix. */
export function editBetween(
  before: string,
  after: string,
): {
  startIndex: number;
  oldEndIndex: number;
  newEndIndex: number;
  startPosition: Point;
  oldEndPosition: Point;
  newEndPosition: Point;
} {
  const shorter = Math.min(before.length, after.length);
  // Whole chunks first (compared natively), then unit by unit within the first chunk that differs:
  // a candidate of a large input shares most of its text with the best input.
  let prefix = 0;
  while (
    prefix + CHUNK <= shorter &&
    before.slice(prefix, prefix + CHUNK) === after.slice(prefix, prefix + CHUNK)
  )
    prefix += CHUNK;
  while (prefix < shorter && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  const most = shorter - prefix;
  const [b, a] = [before.length, after.length];
  while (
    suffix + CHUNK <= most &&
    before.slice(b - suffix - CHUNK, b - suffix) === after.slice(a - suffix - CHUNK, a - suffix)
  )
    suffix += CHUNK;
  while (suffix < most && before.charCodeAt(b - 1 - suffix) === after.charCodeAt(a - 1 - suffix)) suffix++;
  const start = pointAt(before, 0, { row: 0, column: 0 }, prefix);
  return {
    startIndex: prefix,
    oldEndIndex: before.length - suffix,
    newEndIndex: after.length - suffix,
    startPosition: start,
    oldEndPosition: pointAt(before, prefix, start, before.length - suffix),
    newEndPosition: pointAt(after, prefix, start, after.length - suffix),
  };
}

/** The row and column (in UTF-16 code units, as web-tree-sitter counts) of `index`, from `from` at `at`. */
function pointAt(text: string, from: number, at: Point, index: number): Point {
  let row = at.row;
  let lineStart = from - at.column;
  for (let nl = text.indexOf("\n", from); nl !== -1 && nl < index; nl = text.indexOf("\n", nl + 1)) {
    row++;
    lineStart = nl + 1;
  }
  return { row, column: index - lineStart };
}
