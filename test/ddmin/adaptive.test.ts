/**
 * Adaptive deletion (ddmin/adaptive.ts): one test per needed unit, runs of removable units in a
 * logarithmic number of tests, 1-minimal results, the same answers with parallel jobs, and stopped
 * runs keep the best.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { adaptive } from "../../src/ddmin/adaptive.js";
import type { Configuration } from "../../src/ddmin/configuration.js";
import type { TestLabel } from "../../src/ddmin/ddmin.js";
import { minimize } from "../../src/ddmin/minimize.js";
import { resolveOptions } from "../../src/reduce/options.js";
import { outOfOrderRun } from "../helpers/out-of-order.js";

const needs =
  (required: readonly number[]) =>
  (c: Configuration): boolean => {
    const s = new Set(c);
    return required.every((r) => s.has(r));
  };

function counting(interesting: (c: Configuration) => boolean) {
  const tested: number[][] = [];
  const kinds: string[] = [];
  return {
    tested,
    kinds,
    test: (c: Configuration, _signal?: AbortSignal, label?: TestLabel): Promise<boolean> => {
      tested.push(c.toArray());
      kinds.push(label?.kind ?? "");
      return Promise.resolve(interesting(c));
    },
  };
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

test("when every unit is needed, each is tried alone once, then each neighbouring pair, left to right", async () => {
  const hooks = counting(needs(range(30)));
  const result = await adaptive(range(30), hooks, { ddStar: true, jobs: 1, firstWins: false });
  assert.deepEqual(result.config.toArray(), range(30));
  assert.equal(hooks.tested.length, 30 + 29);
  assert.deepEqual(
    hooks.tested.slice(0, 30).map((c) => range(30).find((u) => !c.includes(u))),
    range(30),
  );
  assert.deepEqual(
    hooks.tested.slice(30).map((c) => range(30).filter((u) => !c.includes(u))),
    range(29).map((i) => [i, i + 1]),
  );
  // The pairs are labelled as such (a syntax filter of guesses checks them).
  assert.deepEqual(hooks.kinds, [...Array<string>(30).fill("complement"), ...Array<string>(29).fill("pair")]);
});

test("each round of a scan says where the scan is: the first unit it tries, single units then pairs", async () => {
  // Units 3 and 4 can go (as a run); the rest are needed.
  const hooks = counting(needs(range(10).filter((u) => u !== 3 && u !== 4)));
  const rounds: { at?: number; granularity: number; size: number }[] = [];
  await adaptive(
    range(10),
    {
      ...hooks,
      onEvent: (e) => {
        if (e.type === "round") rounds.push({ at: e.at, granularity: e.granularity, size: e.size });
      },
    },
    { ddStar: true, jobs: 1, firstWins: false },
  );
  const scans = rounds.filter((r) => r.at !== undefined);
  // The first scan from 0 finds unit 3 and grows the run there (rounds without a position): 3 and 4
  // go, and the growth's last try, unit 5 alone (now at position 3), fails, so the scan goes on at
  // position 4. The second scan finds nothing from 0; then the pairs, from 0.
  assert.deepEqual(scans[0], { at: 0, granularity: 1, size: 10 });
  assert.ok(
    rounds.some((r) => r.at === undefined),
    "the run's growth",
  );
  assert.deepEqual(
    scans.map((r) => [r.at, r.granularity, r.size]),
    [
      [0, 1, 10],
      [4, 1, 8],
      [0, 1, 8],
      [0, 2, 8],
    ],
  );
});

test("without pairs (the glyph pass), a scan that removes nothing ends it: one test per unit", async () => {
  const hooks = counting(needs(range(30)));
  const result = await adaptive(range(30), hooks, { ddStar: true, jobs: 1, firstWins: false, pairs: false });
  assert.deepEqual(result.config.toArray(), range(30));
  assert.equal(hooks.tested.length, 30);
  assert.ok(hooks.kinds.every((k) => k === "complement"));
  // Still 1-minimal where some can go: 3…9 go as a run, and every unit left was tried alone after.
  const some = counting(needs(range(30).filter((u) => u < 3 || u > 9)));
  const reduced = await adaptive(range(30), some, { ddStar: true, jobs: 1, firstWins: false, pairs: false });
  assert.deepEqual(reduced.config.toArray(), [0, 1, 2, ...range(20).map((i) => i + 10)]);
  assert.ok(some.kinds.every((k) => k === "complement"));
});

test("two neighbouring units that can only go together go as a pair", async () => {
  // 0…19 needed but for 7 and 8, which must be both there or both gone (a key and its value).
  const interesting = (c: Configuration): boolean => {
    const s = new Set(c);
    return range(20).every((u) => u === 7 || u === 8 || s.has(u)) && s.has(7) === s.has(8);
  };
  const hooks = counting(interesting);
  const result = await adaptive(range(20), hooks, { ddStar: true, jobs: 1, firstWins: false });
  assert.deepEqual(
    result.config.toArray(),
    range(20).filter((u) => u !== 7 && u !== 8),
  );
  // The scan of singles (20), pairs up to 7–8 (8), the pairs from 6–9 on (11), then singles and
  // pairs again over the 18 units left.
  assert.equal(hooks.tested.length, 20 + 8 + 11 + 18 + 17);
});

test("a run of removable units goes in a logarithmic number of tests, then the scan goes on", async () => {
  // Units 0…9 and 1,010…1,019 needed; the 1,000 between them go.
  const required = [...range(10), ...range(10).map((i) => 1010 + i)];
  const hooks = counting(needs(required));
  const result = await adaptive(range(1020), hooks, { ddStar: true, jobs: 1, firstWins: false });
  assert.deepEqual(result.config.toArray(), required);
  // Two scans over the 20 needed units (the second removes nothing), the pairs of the last one,
  // plus the growth of the run.
  assert.ok(hooks.tested.length <= 40 + 19 + 40, `${hooks.tested.length} tests`);
  assert.ok(hooks.tested.length >= 40, `${hooks.tested.length} tests`);
});

test("results are interesting and 1-minimal, also for tests that are not monotone", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 50 }),
      fc.uniqueArray(fc.integer({ min: 0, max: 49 }), { maxLength: 6 }),
      fc.integer({ min: 0, max: 1000 }),
      async (n, required, salt) => {
        // Interesting: every required unit (below n) is there, and (not monotone) the size is not
        // one the salt forbids, except for the full input.
        const req = required.filter((r) => r < n);
        const interesting = (c: Configuration): boolean =>
          needs(req)(c) && (c.length === n || (c.length * 7 + salt) % 5 !== 0);
        const result = await adaptive(
          range(n),
          { test: (c) => Promise.resolve(interesting(c)) },
          {
            ddStar: true,
            jobs: 1,
            firstWins: false,
          },
        );
        const kept = result.config.toArray();
        assert.ok(interesting(result.config));
        for (const u of kept) {
          const without = kept.filter((v) => v !== u);
          const c = { length: without.length, [Symbol.iterator]: () => without[Symbol.iterator]() };
          assert.ok(!interesting(c as unknown as Configuration), `removing ${u} alone is interesting`);
        }
      },
    ),
    { numRuns: 200 },
  );
});

test("with parallel jobs the result and the commits are the sequential scan's", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 40 }),
      fc.uniqueArray(fc.integer({ min: 0, max: 39 }), { maxLength: 8 }),
      async (n, required) => {
        const run = async (jobs: number): Promise<number[][]> => {
          const commits: number[][] = [];
          const interesting = needs(required.filter((r) => r < n));
          await adaptive(
            range(n),
            {
              test: (c, signal) =>
                new Promise((resolve, reject) => {
                  // Answers arrive out of order.
                  const t = setTimeout(() => resolve(interesting(c)), (c.length * 7) % 3);
                  signal.addEventListener("abort", () => {
                    clearTimeout(t);
                    reject(signal.reason);
                  });
                }),
              commit: (c) => commits.push(c.toArray()),
            },
            { ddStar: true, jobs, firstWins: false },
          );
          return commits;
        };
        assert.deepEqual(await run(3), await run(1));
      },
    ),
    { numRuns: 60 },
  );
});

test("with parallel jobs, non-monotone tests too: the growth's speculative steps change no commit", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 48 }),
      fc.integer({ min: 1, max: 10_000 }),
      fc.constantFrom(2, 8),
      async (n, salt, jobs) => {
        // Most removals go (long runs grow), some combinations do not.
        const run = (j: number) =>
          outOfOrderRun(
            n,
            salt,
            (initial, hooks) => adaptive(initial, hooks, { ddStar: true, jobs: j, firstWins: false }),
            (h) => h % 4 !== 0,
          );
        const one = await run(1);
        const many = await run(jobs);
        assert.equal(one.most, 1);
        assert.ok(many.most <= jobs);
        assert.deepEqual(many.commits, one.commits);
      },
    ),
    { numRuns: 60 },
  );
});

test("a stopped run returns the smallest configuration so far", async () => {
  const controller = new AbortController();
  let tests = 0;
  const result = await adaptive(
    range(100),
    {
      signal: controller.signal,
      test: (c) => {
        if (++tests === 5) controller.abort(new Error("stop"));
        return Promise.resolve(c.length >= 90);
      },
    },
    { ddStar: true, jobs: 1, firstWins: false },
  );
  assert.equal(result.kind, "stopped");
  assert.ok(result.config.length < 100 && result.config.length >= 90);
});

test("minimize: algorithm adaptive hands lists of at most adaptiveAbove units to ddmin", async () => {
  const options = { ...resolveOptions({ jobs: 1 }), algorithm: "adaptive" as const, adaptiveAbove: 16 };
  const short = counting(needs([3, 9]));
  await minimize(range(16), short, options);
  const long = counting(needs([3, 9]));
  await minimize(range(17), long, options);
  // ddmin's first test over 16 units removes half of them; the scan's first removes unit 0 alone.
  assert.equal(short.tested[0]!.length, 8);
  assert.equal(long.tested[0]!.length, 16);
});
