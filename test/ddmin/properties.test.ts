/**
 * Contract of every ddmin variant: the result is interesting and 1-minimal, for every strategy,
 * order, split factor, number of jobs, combined or not, and cache kind; deterministic parallel runs
 * give the sequential result.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import fc from "fast-check";
import { reduce, type ReduceOptions } from "../../src/index.js";
import { CACHE_KINDS } from "../../src/cache/index.js";
import { ORDERS, STRATEGIES } from "../../src/ddmin/order.js";

/** A random problem: n elements, one per line, and a predicate over the set of present elements. */
interface Problem {
  readonly n: number;
  readonly required: readonly number[];
  /** 0 = monotone (a superset of an interesting set is interesting); otherwise a non-monotone salt. */
  readonly salt: number;
}

const problems = fc.integer({ min: 1, max: 24 }).chain((n) =>
  fc.record({
    n: fc.constant(n),
    required: fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { minLength: 1, maxLength: Math.min(n, 5) }),
    salt: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 1000 })),
  }),
);

function hash(values: readonly number[], salt: number): number {
  let h = salt;
  for (const v of values) h = (Math.imul(h ^ v, 0x9e3779b1) + 7) >>> 0;
  return h;
}

function predicate(p: Problem): (present: readonly number[]) => boolean {
  return (present) => {
    if (present.length === 0) return false;
    if (present.length === p.n) return true;
    const set = new Set(present);
    if (!p.required.every((r) => set.has(r))) return false;
    // Non-monotone: about a third of the supersets of the required set are not interesting.
    return p.salt === 0 || hash(present, p.salt) % 3 !== 0;
  };
}

const input = (p: Problem): Uint8Array =>
  Buffer.from(Array.from({ length: p.n }, (_, i) => `${i}\n`).join(""));
const parse = (bytes: Uint8Array): number[] =>
  Buffer.from(bytes)
    .toString()
    .split("\n")
    .filter((l) => l !== "")
    .map(Number);

/** The oracle answers after a delay that depends on the candidate, so parallel finishes interleave. */
function oracle(p: Problem, delayed: boolean) {
  const interesting = predicate(p);
  return async (candidate: Uint8Array, signal: AbortSignal): Promise<boolean> => {
    const present = parse(candidate);
    if (delayed) await sleep(hash(present, 1) % 3, undefined, { signal });
    return interesting(present);
  };
}

function assertOneMinimal(p: Problem, result: readonly number[]): void {
  const interesting = predicate(p);
  assert.ok(interesting(result), `result ${JSON.stringify(result)} is interesting`);
  for (let i = 0; i < result.length; i++) {
    const smaller = result.filter((_, j) => j !== i);
    assert.ok(
      !interesting(smaller),
      `removing ${result[i]} from ${JSON.stringify(result)} is not interesting`,
    );
  }
}

const variants = fc.record({
  strategy: fc.constantFrom(...STRATEGIES),
  subsetOrder: fc.constantFrom(...ORDERS),
  complementOrder: fc.constantFrom(...ORDERS),
  splitFactor: fc.constantFrom(2, 3, 4, 8, Infinity),
  cache: fc.constantFrom(...CACHE_KINDS),
  cacheFail: fc.boolean(),
  cacheEvict: fc.boolean(),
  ddStar: fc.boolean(),
});

test("every variant's result is interesting and 1-minimal (sequential)", async () => {
  await fc.assert(
    fc.asyncProperty(problems, variants, async (p, v) => {
      const result = await reduce(input(p), oracle(p, false), { ...v, atom: "line", jobs: 1 });
      assert.equal(result.kind, "done");
      assertOneMinimal(p, parse(result.output));
    }),
    { numRuns: 300 },
  );
});

test("deterministic parallel runs (jobs 2 and 8, parallel or combined) give exactly the sequential result", async () => {
  await fc.assert(
    fc.asyncProperty(problems, variants, fc.constantFrom(2, 8), fc.boolean(), async (p, v, jobs, combine) => {
      const options: ReduceOptions = { ...v, atom: "line" };
      const sequential = await reduce(input(p), oracle(p, false), { ...options, jobs: 1 });
      const parallel = await reduce(input(p), oracle(p, true), { ...options, jobs, combine });
      assert.deepEqual(parse(parallel.output), parse(sequential.output));
      assert.equal(parallel.stats.iterations, sequential.stats.iterations);
    }),
    { numRuns: 120 },
  );
});

test("first-wins parallel runs still give interesting, 1-minimal results", async () => {
  await fc.assert(
    fc.asyncProperty(problems, variants, fc.constantFrom(2, 8), fc.boolean(), async (p, v, jobs, combine) => {
      const result = await reduce(input(p), oracle(p, true), {
        ...v,
        atom: "line",
        jobs,
        combine,
        firstWins: true,
      });
      assertOneMinimal(p, parse(result.output));
    }),
    { numRuns: 80 },
  );
});

test("character and both-pass reductions are 1-minimal over characters and exact byte subsets", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.string({ minLength: 1, maxLength: 40 }),
      fc.constantFrom("line" as const, "char" as const, "both" as const),
      fc.constantFrom(...STRATEGIES),
      async (s, atom, strategy) => {
        // Interesting: at least two 'a's and one 'b' remain (or the full input).
        const count = (t: string, ch: string): number => [...t].filter((c) => c === ch).length;
        const text = `x${s}aab\n${s}`;
        const interesting = (t: string): boolean => t === text || (count(t, "a") >= 2 && count(t, "b") >= 1);
        const result = await reduce(Buffer.from(text), (c) => interesting(Buffer.from(c).toString()), {
          atom,
          strategy,
          jobs: 1,
        });
        const out = Buffer.from(result.output).toString();
        assert.ok(interesting(out));
        if (atom !== "line") assert.equal(out.length, 3, `${JSON.stringify(out)} is the 3-character minimum`);
        assert.ok(isSubsequence(out, text), `${JSON.stringify(out)} is a subsequence of the input`);
      },
    ),
    { numRuns: 100 },
  );
});

/** Whether every character of `sub` occurs in `text`, in order. */
function isSubsequence(sub: string, text: string): boolean {
  let at = 0;
  for (const ch of sub) {
    const found = text.indexOf(ch, at);
    if (found < 0) return false;
    at = found + ch.length;
  }
  return true;
}

test("isSubsequence rejects reordered and invented characters", () => {
  assert.ok(isSubsequence("ab", "xaxb"));
  assert.ok(isSubsequence("", "ab"));
  assert.ok(!isSubsequence("bab", "ab"));
  assert.ok(!isSubsequence("ba", "ab"));
  assert.ok(!isSubsequence("c", "ab"));
});
