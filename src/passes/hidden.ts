import { parseForPass, type TreeFrontEnd } from "../hdd/phases.js";
import { reduceList } from "./list.js";
import type { Pass } from "./pass.js";

const SPACE = new Uint8Array([0x20]);
/** A piece of hidden text: from a non-blank byte to the last non-blank byte on its line. */
const PIECE = /[^ \t\r\n\f\v](?:[^\n]*[^ \t\r\n\f\v])?/g;

/**
 * ddmin over the hidden text of the current input — comments, or lines the grammar sends to a hidden
 * channel, such as C's `# line` directives — which the tree phases keep as it is (it belongs to no
 * node). The units are the pieces of hidden text between tokens (and after the last one) that are
 * not whitespace, one per line: from a piece's first non-blank byte to its last on that line. A
 * removed piece is deleted, with the blanks around it kept; when it was all there was between two
 * tokens, a space takes its place so that they stay apart.
 */
export function ddminHidden(frontEnd: TreeFrontEnd): Pass {
  const name = "ddmin:hidden";
  return {
    name,
    async run(context) {
      const { current, emit } = context;
      const { tree } = parseForPass(frontEnd, current);
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
        for (const m of text.matchAll(PIECE)) {
          const start = from + m.index;
          units.push({ from: start, to: start + m[0].length, whole: m[0].length === to - from });
        }
      }
      emit({ type: "pass", pass: name, units: units.length, size: current.length });
      return reduceList(context, units.length, (config) => {
        const kept = new Set(config);
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
      });
    },
  };
}
