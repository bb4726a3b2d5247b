/**
 * whittle's own renderer (src/tree/render.ts) with a real grammar's glue check: removing any set of
 * removable nodes never glues two tokens — every rendering lexes to exactly the kept tokens, in order.
 * Runs on the shared C and JSON inputs and a JavaScript sample; skipped without ../shared.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import fc from "fast-check";
import { AntlrFrontEnd } from "../../src/grammar/front-end.js";
import { EditSet } from "../../src/tree/edits.js";
import { render } from "../../src/tree/render.js";
import { sharedGrammar, sharedInput, sharedPresent } from "./helpers.js";

const scratch = mkdtempSync(join(tmpdir(), "whittle-render-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

const JS_SAMPLE = `var a = 1, b = -(-a), c = a + +b;
function f(x, y) { return x - -y + /re+/g.source.length; }
if (a in {a: 1}) { b++; } else { b--; }
for (let i = 0; i < 3; i++) { s += i / 2; }
`;

for (const c of [
  { grammar: "c", start: "compilationUnit", input: "cvise-blocksort-c/input.c" },
  { grammar: "json", start: undefined, input: "json-obj-arr-87/input.json" },
  { grammar: "javascript", start: undefined, input: null },
] as const) {
  test(`render() of ${c.input ?? "a JavaScript sample"} with random removals lexes to exactly the kept tokens`, async (t) => {
    if (!sharedPresent) return t.skip("../shared not found");
    const frontEnd = await AntlrFrontEnd.load({
      grammarFiles: sharedGrammar[c.grammar],
      start: c.start,
      cacheDir: join(scratch, "cache"),
    });
    const input = c.input ? sharedInput(c.input) : Buffer.from(JS_SAMPLE);
    const { tree, glue } = frontEnd.parse(input);
    const removable: number[] = [];
    for (let id = 1; id < tree.size; id++) if (tree.isRemovable(id) && !tree.isFixed(id)) removable.push(id);
    assert.ok(removable.length > 5, "enough removable nodes to try");
    const lexed = (bytes: Uint8Array): string[] =>
      frontEnd.grammar
        .tokenize(Buffer.from(bytes).toString())
        .tokens.filter((tok) => tok.channel === 0)
        .map((tok) => tok.text ?? "");
    assert.deepEqual(
      lexed(render(tree, EditSet.EMPTY, glue)),
      [...tree.tokens].map((id) => Buffer.from(tree.text(id)).toString()),
      "untouched",
    );
    fc.assert(
      fc.property(
        fc.array(fc.boolean(), { minLength: removable.length, maxLength: removable.length }),
        (picks) => {
          const removed = removable.filter((_, i) => picks[i]);
          const edits = EditSet.EMPTY.remove(removed);
          // The kept tokens: those under no removed node (removable nodes are replaced by nothing).
          const kept = [...tree.tokens]
            .filter((id) => !removed.some((r) => tree.isAncestorOrSelf(r, id)))
            .map((id) => Buffer.from(tree.text(id)).toString());
          assert.deepEqual(lexed(render(tree, edits, glue)), kept);
        },
      ),
      { numRuns: 60 },
    );
  });
}
