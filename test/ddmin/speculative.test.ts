/**
 * ddmin with parallel jobs as a speculative run of its one-job scan (speculative-ddmin.ts): the same
 * tests decide in the same order, so commits, events and the result are those of one job; the jobs
 * run the tests the scan is likeliest to make next, past the end of a round on either answer.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { Configuration } from "../../src/ddmin/configuration.js";
import { ddmin, type DdminOptions, type TestLabel } from "../../src/ddmin/ddmin.js";
import { STRATEGIES } from "../../src/ddmin/order.js";
import { AnswerRate } from "../../src/ddmin/speculative-ddmin.js";
import { outOfOrderRun } from "../helpers/out-of-order.js";

const base: DdminOptions = {
  splitFactor: 2,
  strategy: "complements-first",
  subsetOrder: "forward",
  complementOrder: "forward",
  ddStar: true,
  jobs: 1,
  combine: true,
  firstWins: false,
};

test("with parallel jobs, the commits, the events and the result are those of one job", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 40 }),
      fc.integer({ min: 1, max: 10_000 }),
      fc.constantFrom(2, 3, 8),
      fc.constantFrom(...STRATEGIES),
      fc.constantFrom(2, 3, Infinity),
      async (n, salt, jobs, strategy, splitFactor) => {
        const run = (j: number) =>
          outOfOrderRun(n, salt, (initial, hooks) =>
            ddmin(initial, hooks, { ...base, strategy, splitFactor, jobs: j }),
          );
        const one = await run(1);
        const many = await run(jobs);
        assert.deepEqual(many.commits, one.commits);
        assert.deepEqual(many.events, one.events);
        assert.deepEqual(many.result, one.result);
        assert.equal(many.rounds, one.rounds);
        assert.ok(many.most <= jobs);
      },
    ),
    { numRuns: 150 },
  );
});

/** A ddmin run over `n` units whose tests answer only when the test releases them. */
function held(n: number, interesting: (units: readonly number[]) => boolean, options: Partial<DdminOptions>) {
  const started: { label: TestLabel; answer: () => void }[] = [];
  let wake = (): void => undefined;
  const result = ddmin(
    Configuration.full(n),
    {
      test: (c, signal, label) =>
        new Promise<boolean>((resolve, reject) => {
          started.push({ label, answer: () => resolve(interesting(c.toArray())) });
          signal.addEventListener("abort", () => reject(signal.reason as Error), { once: true });
          wake();
        }),
    },
    { ...base, ...options },
  );
  const until = async (count: number): Promise<void> => {
    while (started.length < count) await new Promise<void>((resolve) => (wake = resolve));
  };
  /** Answers every test, as they start, until the run ends. */
  const finish = async () => {
    let ended = false;
    void result.finally(() => (ended = true));
    while (!ended) {
      for (const s of started.splice(0)) s.answer();
      await new Promise((resolve) => setImmediate(resolve));
    }
    return result;
  };
  return { started, until, finish };
}

test("where most tests succeed, the slots follow the answer 'interesting' into the rounds after it", async () => {
  // Every candidate is interesting: the one-job scan takes the first complement of every round.
  const rate = new AnswerRate(0.9);
  const { started, until, finish } = held(64, () => true, { jobs: 4, answerRate: rate });
  await until(4);
  // Before any answer, the four tests are the first one and the rounds it leads to if interesting.
  assert.deepEqual(
    started.map((s) => s.label.round),
    [1, 2, 3, 4],
  );
  assert.deepEqual((await finish()).config.toArray(), [63]);
});

test("where most tests fail, the slots run the round's next candidates, then the next round's", async () => {
  // Only the full set is interesting: every candidate fails, and the scan goes round by round.
  const { started, until, finish } = held(6, (u) => u.length === 6, {
    jobs: 8,
    answerRate: new AnswerRate(0.05),
  });
  await until(8);
  // Granularity 2: ∇1, ∇2 (the subsets are their twins); then 4 parts: ∇1…∇4, Δ1…Δ2 of the first 8.
  assert.deepEqual(
    started.map((s) => [s.label.round, s.label.kind, s.label.index]),
    [
      [1, "complement", 0],
      [1, "complement", 1],
      [2, "complement", 0],
      [2, "complement", 1],
      [2, "complement", 2],
      [2, "complement", 3],
      [2, "subset", 0],
      [2, "subset", 1],
    ],
  );
  assert.deepEqual((await finish()).config.toArray(), [0, 1, 2, 3, 4, 5]);
});
