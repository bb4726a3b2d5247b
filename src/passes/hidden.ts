import { keepForNextPass, parseForPass, type TreeFrontEnd } from "../hdd/phases.js";
import { isBlank, isContinuation } from "./lexemes.js";
import type { Pass } from "./pass.js";
import { NO_BYTES, rangePass } from "./range-pass.js";

const SPACE = new Uint8Array([0x20]);
/** A piece of hidden text: from a non-blank byte to the last non-blank byte on its line. */
const PIECE = /[^ \t\r\n\f\v](?:[^\n]*[^ \t\r\n\f\v])?/g;

/**
 * ddmin over the hidden text of the current input — comments, or lines the grammar sends to a hidden
 * channel, such as C's `# line` directives — which the tree phases keep as it is (it belongs to no
 * node). The units are the pieces of hidden text between tokens (and after the last one) that are
 * not whitespace, one per line: from a piece's first non-blank byte to its last on that line. A
 * removed piece is deleted, with the blanks around it kept; when it was all there was between two
 * tokens, a space takes its place so that they stay apart. A block comment (C's, HTML's) over
 * several lines is one unit, since a line that opens or closes it cannot go alone; a backslash that
 * continues a macro's line is not part of a piece. The first test removes every unit at once (most
 * comments are there for people; one test where the test needs none of them), then ddmin decides,
 * so the result is 1-minimal over the units, the empty set included.
 */
export function ddminHidden(frontEnd: TreeFrontEnd): Pass {
  return rangePass(
    "ddmin:hidden",
    (current) => hiddenPieces(frontEnd, current),
    // The trivial answer first: no hidden text at all (ddmin never tries to remove every unit).
    (_current, ranges) => [Array.from({ length: ranges.length / 2 }, (_, unit) => unit)],
    (current, ranges) => (unit) => (alone(current, ranges, unit) ? SPACE : NO_BYTES),
  );
}

/** The units of ddminHidden in `current`, as start, end pairs. */
function hiddenPieces(frontEnd: TreeFrontEnd, current: Uint8Array): number[] {
  const parsed = parseForPass(frontEnd, current);
  // The tree pass after this one parses the same input when this pass changes nothing (most inputs
  // after a fuzzer have no comments), or the one its first try left: either way, once is enough.
  keepForNextPass(frontEnd, current, parsed);
  const { tree } = parsed;
  // Every run of hidden text: before each token, and after the last one.
  const runs: [number, number][] = Array.from(tree.tokens, (t): [number, number] => [
    tree.gapStart(t),
    tree.start(t),
  ]);
  const lastToken = tree.tokens.at(-1);
  runs.push([lastToken === undefined ? 0 : tree.end(lastToken), current.length]);
  const ranges: number[] = [];
  for (const [from, to] of runs) {
    // Latin-1: one character per byte, so match offsets are byte offsets. Blanks are ASCII only,
    // so no byte of a multi-byte UTF-8 character is taken for one.
    const text = Buffer.from(current.buffer, current.byteOffset + from, to - from).toString("latin1");
    // A block comment over several lines is one unit: a line of it alone cannot go when it
    // opens or closes the comment.
    let open: { start: number; end: number; closer: string } | undefined;
    for (const m of text.matchAll(PIECE)) {
      // A line continuation (a backslash that ends the line, in a macro) belongs to the line
      // break, not to the piece: it is not hidden text to delete.
      const piece = continued(text, m.index, m[0]);
      if (piece === "") continue;
      const start = from + m.index;
      const end = start + piece.length;
      if (open !== undefined) {
        open.end = end;
        if (piece.includes(open.closer)) {
          ranges.push(open.start, open.end);
          open = undefined;
        }
        continue;
      }
      const closer = unclosedComment(piece);
      if (closer === undefined) ranges.push(start, end);
      else open = { start, end, closer };
    }
    if (open !== undefined) ranges.push(open.start, open.end);
  }
  return ranges;
}

/**
 * Whether `unit` is all there is between two tokens (or the input's ends): no blank on either side.
 * Pieces are separated by blanks, so such a unit fills its whole run of hidden text, and deleting it
 * would join the tokens around it.
 */
function alone(current: Uint8Array, ranges: readonly number[], unit: number): boolean {
  const from = ranges[2 * unit]!;
  const to = ranges[2 * unit + 1]!;
  const before = from === 0 || !isBlank(current[from - 1]!);
  const after = to === current.length || !(isBlank(current[to]!) || isContinuation(current, to));
  return before && after;
}

/** The block comments of the built-in languages: C's and its kin's, and HTML's. */
const BLOCK_COMMENTS: readonly (readonly [string, string])[] = [
  ["/*", "*/"],
  ["<!--", "-->"],
];

/** The closer of a block comment that `piece` opens and does not close, if any. */
function unclosedComment(piece: string): string | undefined {
  for (const [opener, closer] of BLOCK_COMMENTS) {
    const at = piece.lastIndexOf(opener);
    if (at >= 0 && !piece.includes(closer, at + opener.length)) return closer;
  }
  return undefined;
}

/** `piece` (at `at` in `text`) without a line continuation at its end and the blanks before it. */
function continued(text: string, at: number, piece: string): string {
  const next = at + piece.length;
  const breaks = text[next] === "\n" || (text[next] === "\r" && text[next + 1] === "\n");
  return breaks && piece.endsWith("\\") ? piece.slice(0, -1).trimEnd() : piece;
}
