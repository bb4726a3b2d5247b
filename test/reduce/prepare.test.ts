/**
 * Oracle.prepare: the reducer tells the oracle which candidate it will probably test next, while the
 * current test runs. A hint only: results, tests and events are those of a run without it.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { NextIf } from "../../src/outcome.js";
import { type Oracle } from "../../src/reduce/evaluator.js";
import { reduce } from "../../src/reduce/reduce.js";
import type { ReduceOptions } from "../../src/reduce/options.js";

const input = new TextEncoder().encode(
  Array.from({ length: 40 }, (_, i) => (i === 7 || i === 29 ? `keep ${i}` : `line ${i}`)).join("\n") + "\n",
);
const decoder = new TextDecoder();
const needs = (bytes: Uint8Array): boolean => {
  const text = decoder.decode(bytes);
  return text.includes("keep 7") && text.includes("keep 29");
};

for (const options of [
  { atom: "line", jobs: 1 },
  { atom: "both", jobs: 1 },
  { atom: "char", jobs: 1, cache: "config" },
  { atom: "line", jobs: 1, cache: "none" },
  { atom: "line", jobs: 3 },
  { atom: "both", jobs: 2, combine: false },
] satisfies ReduceOptions[]) {
  test(`a preparing oracle gets the same result, tests and cache hits: ${JSON.stringify(options)}`, async () => {
    const plain: Oracle = async (c) => {
      await sleep(1);
      return needs(c);
    };
    const prepared = new Set<Uint8Array>();
    const tested: { candidate: Uint8Array; answer: boolean; next: Map<NextIf, Uint8Array> }[] = [];
    const preparing: Oracle = Object.assign(
      async (c: Uint8Array) => {
        const test = { candidate: c, answer: needs(c), next: new Map<NextIf, Uint8Array>() };
        tested.push(test);
        await sleep(1);
        return test.answer;
      },
      {
        prepare: (c: Uint8Array, nextIf?: NextIf) => {
          prepared.add(c);
          // The hint is only given while one test runs, and at most once per answer.
          const running = tested.at(-1)!;
          if (nextIf !== undefined) {
            assert.equal(options.jobs, 1);
            assert.ok(!running.next.has(nextIf));
            running.next.set(nextIf, c);
          }
        },
      },
    );
    const a = await reduce(input, plain, options);
    const b = await reduce(input, preparing, options);
    assert.deepEqual(b.output, a.output);
    assert.equal(b.stats.tests, a.stats.tests);
    assert.equal(b.stats.cacheHits, a.stats.cacheHits);
    // Sequentially, most tests are of a candidate prepared ahead (the same array), and a candidate
    // prepared for an answer is the very next test after that answer (what follow-ups rely on).
    const hits = tested.filter((t) => prepared.has(t.candidate)).length;
    if (options.jobs === 1) {
      assert.ok(hits >= tested.length * 0.75, `${hits} of ${tested.length} tests were prepared`);
      let followed = 0;
      for (const [i, t] of tested.entries()) {
        const next = t.next.get(t.answer ? "interesting" : "not-interesting");
        if (next === undefined || i + 1 === tested.length) continue;
        assert.equal(
          tested[i + 1]!.candidate,
          next,
          `test ${i + 1} is the one prepared for test ${i}'s answer`,
        );
        followed++;
      }
      assert.ok(followed >= tested.length / 2, `${followed} of ${tested.length} tests followed a hint`);
    }
  });
}
