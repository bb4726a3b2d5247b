import { keepForNextPass, parseForPass, type TreeFrontEnd } from "../hdd/phases.js";
import { reduceList } from "./list.js";
import type { Pass, PassContext, PassOutcome } from "./pass.js";
import { fullConfiguration } from "../ddmin/configuration.js";

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
  const name = "ddmin:hidden";
  return {
    name,
    async run(context) {
      const { current, emit } = context;
      const parsed = parseForPass(frontEnd, current);
      const { tree } = parsed;
      // Every run of hidden text: before each token, and after the last one.
      const runs: [number, number][] = Array.from(tree.tokens, (t): [number, number] => [
        tree.gapStart(t),
        tree.start(t),
      ]);
      const lastToken = tree.tokens.at(-1);
      runs.push([lastToken === undefined ? 0 : tree.end(lastToken), current.length]);
      const units: { from: number; to: number; whole: boolean }[] = [];
      for (const [from, to] of runs) {
        // Latin-1: one character per byte, so match offsets are byte offsets. Blanks are ASCII only,
        // so no byte of a multi-byte UTF-8 character is taken for one.
        const text = Buffer.from(current.buffer, current.byteOffset + from, to - from).toString("latin1");
        // A block comment over several lines is one unit: a line of it alone cannot go when it
        // opens or closes the comment.
        let open: { start: number; end: number; closer: string } | undefined;
        const add = (start: number, end: number): void => {
          units.push({ from: start, to: end, whole: end - start === to - from });
        };
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
              add(open.start, open.end);
              open = undefined;
            }
            continue;
          }
          const closer = unclosedComment(piece);
          if (closer === undefined) add(start, end);
          else open = { start, end, closer };
        }
        if (open !== undefined) add(open.start, open.end);
      }
      emit({ type: "pass", pass: name, units: units.length, size: current.length });
      const render = (kept: ReadonlySet<number>): Uint8Array => {
        const parts: Uint8Array[] = [];
        let at = 0;
        units.forEach(({ from, to, whole }, i) => {
          if (kept.has(i)) return;
          parts.push(current.subarray(at, from));
          if (whole) parts.push(SPACE);
          at = to;
        });
        parts.push(current.subarray(at));
        return Buffer.concat(parts);
      };
      // Without hidden text (most inputs after a fuzzer) the pass changes nothing, and the tree
      // pass that follows need not parse the same input again.
      if (units.length === 0) keepForNextPass(frontEnd, current, parsed);
      else {
        // The trivial answer first: no hidden text at all (ddmin never tries to remove every unit).
        let none;
        try {
          none = await firstTry(context, render(new Set()));
        } catch (error) {
          context.evaluator.close();
          throw error;
        }
        if (none !== "not interesting") {
          context.evaluator.close();
          return none;
        }
      }
      return reduceList(context, units.length, (config) => render(new Set(config)));
    },
  };
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

/**
 * Tests `bytes` and commits it when it is interesting: the pass's outcome then, or "not interesting"
 * to go on.
 */
async function firstTry(context: PassContext, bytes: Uint8Array): Promise<PassOutcome | "not interesting"> {
  const { evaluator, signal } = context;
  const scoped = evaluator.scope("other");
  try {
    const key = { config: fullConfiguration(0), content: () => bytes };
    const label = { kind: "complement" as const, index: 0, round: 0, granularity: 1 };
    if (!(await scoped.test(key, signal, label))) return "not interesting";
    scoped.commit(key);
    return { kind: "done" };
  } catch (error) {
    if (signal.aborted) return { kind: "stopped", reason: signal.reason };
    throw error;
  } finally {
    scoped.close();
  }
}
