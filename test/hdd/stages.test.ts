/**
 * The level-wise tree walks with stages ahead (hdd/stages.ts): with parallel jobs and an oracle whose
 * answers take random times, the result, the improvements and the levels are those of one job, at
 * most `jobs` tests run at once, and none is still running when the reduction ends.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { reduce, type ReductionEvent } from "../../src/index.js";
import { parsePhase, stagesAhead, treePass } from "../../src/hdd/phases.js";
import type { Pass } from "../../src/passes/pass.js";
import { oneAndFour, slowOracle, text, toyJson } from "../helpers/slow-json.js";

const phases = (...names: string[]): Pass[] => names.map((n) => treePass(parsePhase(n), toyJson));

const documents = fc
  .jsonValue({ maxDepth: 4 })
  .map((v) => JSON.stringify({ data: v, more: [1, { target: 4242, also: [2, 3] }, "x"] }, null, 1));

/** What the walk did, in order: levels entered, improvements committed, ProbDD's starting p0. */
function trace(events: ReductionEvent[]): string[] {
  return events.flatMap((e) =>
    e.type === "level"
      ? [`${e.pass} level ${e.iteration}.${e.level} (${e.nodes} nodes)`]
      : e.type === "improved"
        ? [`${e.pass} improved to ${e.size}`]
        : e.type === "iteration" && e.p0 !== undefined
          ? [`probdd from p0 ${e.p0}`]
          : [],
  );
}

test("stages ahead: one job's result, improvements and levels, at most `jobs` tests at once", async () => {
  await fc.assert(
    fc.asyncProperty(documents, fc.integer({ min: 1, max: 1e9 }), async (doc, seed) => {
      const input = Buffer.from(doc);
      const pipeline = (): Pass[] => phases("coarse", "prune+hoist*", "hoist");
      const { one, sequential, many, parallel, slow } = await oneAndFour(input, pipeline, seed);
      assert.equal(text(parallel.output), text(sequential.output));
      assert.deepEqual(trace(many), trace(one));
      assert.ok(slow.most() <= 4, `${slow.most()} tests at once with 4 jobs`);
      assert.equal(slow.running(), 0, "a test still running after the reduction");
    }),
    { numRuns: 30 },
  );
});

test("stages ahead with ProbDD's learned p0: each level starts from the p0 of one job", async () => {
  // A stage ahead assumes the stages before it keep every unit, and so the record its p0 is learned
  // from (TreeSearch.assumedNeeds); when one does not, the stages after it start again.
  await fc.assert(
    fc.asyncProperty(documents, fc.integer({ min: 1, max: 1e9 }), async (doc, seed) => {
      const input = Buffer.from(doc);
      const pipeline = (): Pass[] =>
        phases("coarse", "prune+hoist*").map((pass) => ({
          name: pass.name,
          run: (ctx) =>
            pass.run({ ...ctx, options: { ...ctx.options, learnP0: true } as typeof ctx.options }),
        }));
      const one: ReductionEvent[] = [];
      const sequential = await reduce(input, slowOracle(seed).oracle, {
        pipeline: pipeline(),
        algorithm: "probdd",
        jobs: 1,
        onEvent: (e) => one.push(e),
      });
      const many: ReductionEvent[] = [];
      const parallel = await reduce(input, slowOracle(seed + 1).oracle, {
        pipeline: pipeline(),
        algorithm: "probdd",
        jobs: 6,
        onEvent: (e) => many.push(e),
      });
      assert.equal(text(parallel.output), text(sequential.output));
      assert.ok(trace(one).some((t) => t.startsWith("probdd from p0 0.") && t !== "probdd from p0 0.1"));
      assert.deepEqual(trace(many), trace(one));
    }),
    { numRuns: 30 },
  );
});

test("stages ahead: none with one or two jobs, one per job beyond", () => {
  assert.equal(stagesAhead(1), 0);
  assert.equal(stagesAhead(2), 0);
  assert.equal(stagesAhead(3), 3);
  assert.equal(stagesAhead(8), 8);
});
