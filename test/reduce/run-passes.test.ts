/**
 * Passes run ahead (reduce/run-passes.ts): with parallel jobs, later passes start from the best so
 * far while earlier ones finish; the result, the passes' events and their improvements are those of
 * one job, at most `jobs` tests run at once, and none is still running when the reduction ends.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { reduce, type ReductionEvent } from "../../src/index.js";
import { parsePhase, treePass } from "../../src/hdd/phases.js";
import { ddminAtoms } from "../../src/passes/atoms.js";
import type { Pass } from "../../src/passes/pass.js";
import { passesAhead } from "../../src/reduce/run-passes.js";
import { oneAndFour, text, toyJson } from "../helpers/slow-json.js";

/** Tree phases, then lines and characters: passes that mostly change nothing after the first. */
const pipeline = (): Pass[] => [
  ...["coarse", "hoist*", "prune+hoist*"].map((n) => treePass(parsePhase(n), toyJson)),
  ddminAtoms("line"),
  ddminAtoms("char"),
];

const documents = fc
  .jsonValue({ maxDepth: 3 })
  .map((v) => JSON.stringify({ data: v, more: [1, { target: 4242, also: [2, 3] }, "x"] }, null, 1));

/** The passes' own events, in order: their starts, levels, improvements and ends. */
function trace(events: ReductionEvent[]): string[] {
  return events.flatMap((e) =>
    e.type === "pass"
      ? [`${e.pass} from ${e.size}`]
      : e.type === "pass-end"
        ? [`${e.pass} ended at ${e.size}`]
        : e.type === "level"
          ? [`${e.pass} level ${e.iteration}.${e.level}`]
          : e.type === "improved"
            ? [`${e.pass} improved to ${e.size}`]
            : [],
  );
}

test("passes ahead: one job's result and passes' events, at most `jobs` tests at once", async () => {
  let ranAhead = 0;
  await fc.assert(
    fc.asyncProperty(documents, fc.integer({ min: 1, max: 1e9 }), async (doc, seed) => {
      const input = Buffer.from(doc);
      const { one, sequential, many, parallel, slow } = await oneAndFour(input, pipeline, seed);
      assert.equal(sequential.kind, "done");
      assert.equal(parallel.kind, "done");
      assert.equal(text(parallel.output), text(sequential.output));
      assert.deepEqual(trace(many), trace(one));
      assert.ok(slow.most() <= 4, `${slow.most()} tests at once with 4 jobs`);
      assert.equal(slow.running(), 0, "a test still running after the reduction");
      // A test of a later pass that started before an earlier pass ended.
      const ended = new Set<string>();
      const order = pipeline().map((p) => p.name);
      for (const e of many) {
        if (e.type === "pass-end") ended.add(e.pass);
        else if (e.type === "test-start" && order.slice(0, order.indexOf(e.pass)).some((p) => !ended.has(p)))
          ranAhead++;
      }
    }),
    { numRuns: 20 },
  );
  assert.ok(ranAhead > 0, "no pass ever ran ahead");
});

test("passes ahead: a later pass's improvement waits for the earlier pass to end unchanged", async () => {
  // Lines: "keep" and "x" must both stay, so the line pass changes nothing; the character pass
  // then removes the padding. Its tests run ahead of the line pass's, but its improvement and
  // events come after the line pass's end, as with one job.
  const input = Buffer.from("keep  \nx");
  const oracle = async (c: Uint8Array, signal: AbortSignal): Promise<boolean> => {
    const s = text(c);
    const slow = s.includes("\n") && s.split("\n").length === 2 ? 40 : 5;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, slow);
      signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
    });
    return s.includes("keep") && s.includes("x");
  };
  const events: ReductionEvent[] = [];
  const result = await reduce(input, oracle, {
    pipeline: [ddminAtoms("line"), ddminAtoms("char")],
    jobs: 4,
    onEvent: (e) => events.push(e),
  });
  assert.equal(result.kind, "done");
  assert.equal(text(result.output), "keepx");
  const at = (p: (e: ReductionEvent) => boolean): number => events.findIndex(p);
  const lineEnd = at((e) => e.type === "pass-end" && e.pass === "ddmin:line");
  const charTest = at((e) => e.type === "test-start" && e.pass === "ddmin:char");
  const charStart = at((e) => e.type === "pass" && e.pass === "ddmin:char");
  const improved = at((e) => e.type === "improved");
  assert.ok(charTest >= 0 && charTest < lineEnd, "the character pass did not run ahead");
  assert.ok(charStart > lineEnd, "the character pass's start came before the line pass's end");
  assert.ok(improved > lineEnd, "an improvement of the pass ahead came before the line pass's end");
});

test("passes ahead: none with one or two jobs, one beyond", () => {
  assert.equal(passesAhead(1), 0);
  assert.equal(passesAhead(2), 0);
  assert.equal(passesAhead(3), 1);
  assert.equal(passesAhead(8), 1);
});
