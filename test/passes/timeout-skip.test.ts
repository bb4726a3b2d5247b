/**
 * The rule of configurationHooks for timed-out candidates: a candidate that removes everything a
 * timed-out candidate of the same search removed is taken for a timeout without a test, until an
 * interesting candidate that removes as much is committed.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { CacheKey } from "../../src/cache/index.js";
import { Configuration } from "../../src/ddmin/configuration.js";
import type { TestLabel } from "../../src/ddmin/ddmin.js";
import type { Outcome } from "../../src/outcome.js";
import { configurationHooks } from "../../src/passes/pass.js";
import type { PassEvaluator } from "../../src/reduce/evaluator.js";

const label: TestLabel = { kind: "subset", index: 0, round: 0, granularity: 2 };
const signal = new AbortController().signal;

/** An evaluator whose outcomes come from `answer` (by the kept atoms), recording what it was asked. */
function fakeEvaluator(answer: (kept: number[]) => Outcome | Promise<Outcome>) {
  const asked: number[][] = [];
  const skipped: TestLabel[] = [];
  const committed: number[][] = [];
  const evaluator: PassEvaluator = {
    ask: async (key) => {
      const kept = key.config.toArray();
      asked.push(kept);
      return answer(kept);
    },
    test: () => Promise.reject(new Error("the hooks ask")),
    takeForTimeout: (l) => skipped.push(l) > 0,
    spare: () => true,
    prepare: () => false,
    commit: (key) => committed.push(key.config.toArray()),
    close: () => undefined,
    scope: () => evaluator,
    withPriority: () => evaluator,
  };
  return { evaluator, asked, skipped, committed };
}

const keyOf = (config: Configuration): CacheKey => ({ config, content: () => new Uint8Array(config.length) });

test("a candidate removing all that a timed-out one removed is not tested; others are", async () => {
  // Atom 3 is a loop's exit: without it (and with the loop, atom 1) the test hangs.
  const fake = fakeEvaluator((kept) =>
    kept.includes(1) && !kept.includes(3) ? "timeout" : kept.includes(6) ? "interesting" : "not-interesting",
  );
  const hooks = configurationHooks(fake.evaluator, keyOf, { emit: () => undefined, signal });
  assert.equal(await hooks.test(Configuration.of([0, 1, 2, 4, 5, 6, 7]), signal, label), false);
  // Keeps only part of the timed-out candidate: taken for a timeout, reported, not asked.
  assert.equal(await hooks.test(Configuration.of([1, 6]), signal, label), false);
  assert.equal(await hooks.test(Configuration.of([0, 1, 2, 4, 5, 6, 7]), signal, label), false);
  assert.equal(fake.skipped.length, 2);
  assert.deepEqual(fake.skipped[0], label);
  // Keeps atom 3, which the timed-out one removed: asked.
  assert.equal(await hooks.test(Configuration.of([3, 6]), signal, label), true);
  assert.deepEqual(fake.asked, [
    [0, 1, 2, 4, 5, 6, 7],
    [3, 6],
  ]);
});

test("not-interesting and interesting outcomes make no such rule; a commit inside a timed-out candidate lifts it", async () => {
  let release: (o: Outcome) => void = () => undefined;
  const fake = fakeEvaluator((kept) => {
    if (kept.length === 2 && kept[0] === 0 && kept[1] === 6) return new Promise((done) => (release = done));
    if (kept.includes(1) && !kept.includes(3)) return "timeout";
    return kept.includes(6) ? "interesting" : "not-interesting";
  });
  const hooks = configurationHooks(fake.evaluator, keyOf, { emit: () => undefined, signal });
  assert.equal(await hooks.test(Configuration.of([0, 2, 3]), signal, label), false); // not interesting
  assert.equal(await hooks.test(Configuration.of([2, 3]), signal, label), false); // asked all the same
  // Started before the timeout below, it ends interesting after it: it removes all the timed-out
  // candidate removed, and its commit shows that the rule does not hold for that candidate.
  const pending = hooks.test(Configuration.of([0, 6]), signal, label);
  await new Promise((done) => setImmediate(done));
  assert.equal(await hooks.test(Configuration.of([0, 1, 6]), signal, label), false); // timeout
  assert.equal(await hooks.test(Configuration.of([1, 6]), signal, label), false); // skipped
  release("interesting");
  assert.equal(await pending, true);
  hooks.commit!(Configuration.of([0, 6]));
  assert.deepEqual(fake.committed, [[0, 6]]);
  assert.equal(await hooks.test(Configuration.of([6]), signal, label), true); // asked again
  assert.equal(fake.skipped.length, 1);
  assert.deepEqual(fake.asked, [[0, 2, 3], [2, 3], [0, 6], [0, 1, 6], [6]]);
});
