/**
 * ProbDD (Wang et al., FSE 2021): the subset rule, the Bayesian update, and the contract every
 * reduction algorithm keeps — interesting, 1-minimal results; stopped runs keep the best.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { Configuration } from "../../src/ddmin/configuration.js";
import { ChanceCalibration } from "../../src/ddmin/ddmin.js";
import { addNeeds, learnedP0, NO_NEEDS, probdd, PROBDD_P0, selectSubset } from "../../src/ddmin/probdd.js";
import { parsePhase, treePass, type TreeFrontEnd } from "../../src/hdd/phases.js";
import { reduce, type ReductionEvent } from "../../src/index.js";
import { resolveOptions } from "../../src/reduce/options.js";
import type { GlueCheck } from "../../src/tree/raw.js";
import { Tree } from "../../src/tree/tree.js";
import { outOfOrderRun } from "../helpers/out-of-order.js";
import { parseToyJson } from "../helpers/toy-json.js";

const words: GlueCheck = (a, b) => /[\w"]$/.test(a) && /^[\w"]/.test(b);
const toyJson: TreeFrontEnd = {
  parse: (input) => ({ tree: Tree.build(input, parseToyJson(Buffer.from(input).toString())), glue: words }),
};

/** Valid JSON that still holds 87. */
const shows87 = (c: Uint8Array): boolean => {
  try {
    return JSON.stringify(JSON.parse(Buffer.from(c).toString())).includes("87");
  } catch {
    return false;
  }
};

test("the subset maximises |S| · ∏(1 − p) over the units sorted by p, ties in document order", () => {
  // p0 = 0.1 for all: k · 0.9^k peaks at k = 9 (= k = 10; the first peak is taken).
  assert.deepEqual(selectSubset(Array(20).fill(0.1)), [0, 1, 2, 3, 4, 5, 6, 7, 8]);
  // Less likely needed first, whatever their place.
  assert.deepEqual(selectSubset([0.9, 0.1, 0.9, 0.1]), [1, 3]);
  // With p ≥ 0.5 a single unit is the best bet; certain units are never chosen.
  assert.deepEqual(selectSubset([1, 0.6, 0.7]), [1]);
  assert.deepEqual(selectSubset([1, 1]), []);
});

test("a failed test raises each p of the subset by Bayes' rule; a single unit becomes certain", async () => {
  // Units 0 and 1 are needed, the rest are not: trace the first steps of a run over 3 units.
  const tested: number[][] = [];
  const result = await probdd([0, 1, 2], {
    test: (config) => {
      tested.push(config.toArray());
      const s = new Set(config);
      return Promise.resolve(s.has(0) && s.has(1));
    },
  });
  assert.deepEqual(result.config.toArray(), [0, 1]);
  // Step 1: p = 0.1 each, all three go at once (3 · 0.729 > 2 · 0.81): fails, each p becomes
  // 0.1 / (1 − 0.729) ≈ 0.369. Step 2: 1 · 0.631 < 2 · 0.398: two units (0 and 1) → fails, p ≈ 0.614
  // for both; step 3: unit 2 alone (p 0.369) → interesting. Then 0 and 1 alone, each fails → certain.
  assert.deepEqual(tested, [[], [2], [0, 1], [1], [0]]);
});

test("results are the needed units exactly when needing is monotone, and always 1-minimal", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc
        .integer({ min: 1, max: 60 })
        .chain((n) =>
          fc.tuple(fc.constant(n), fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { maxLength: 6 })),
        ),
      async ([n, required]) => {
        const interesting = (c: Configuration): boolean => {
          const s = new Set(c);
          return required.every((r) => s.has(r));
        };
        const result = await probdd(Configuration.full(n), {
          test: (c) => Promise.resolve(interesting(c)),
        });
        assert.equal(result.kind, "done");
        assert.deepEqual(
          result.config.toArray(),
          [...required].sort((a, b) => a - b),
        );
      },
    ),
    { numRuns: 200 },
  );
});

test("non-monotone tests, with ddStar: the result is interesting and removing any one unit is not", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 2, max: 40 }),
      fc.integer({ min: 1, max: 10_000 }),
      async (n, salt) => {
        const interesting = (units: readonly number[]): boolean =>
          units.length === n || units.reduce((h, u) => (h * 31 + u + salt) % 7919, salt) % 3 === 0;
        const result = await probdd(
          Configuration.full(n),
          { test: (c) => Promise.resolve(interesting(c.toArray())) },
          { ddStar: true },
        );
        const kept = result.config.toArray();
        assert.ok(interesting(kept));
        for (let i = 0; i < kept.length; i++) {
          assert.ok(!interesting(kept.filter((_, j) => j !== i)), `without ${kept[i]}`);
        }
      },
    ),
    { numRuns: 100 },
  );
});

test("with parallel jobs the tests it may make next run at once, and the commits and result are those of one job", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 50 }),
      fc.integer({ min: 1, max: 10_000 }),
      fc.constantFrom(2, 3, 8),
      async (n, salt, jobs) => {
        const run = (j: number) =>
          outOfOrderRun(n, salt, (initial, hooks) => probdd(initial, hooks, { ddStar: true, jobs: j }));
        const one = await run(1);
        const many = await run(jobs);
        assert.equal(one.most, 1);
        assert.deepEqual(many.commits, one.commits);
        assert.deepEqual(many.result, one.result);
        assert.ok(many.most <= jobs);
      },
    ),
    { numRuns: 60 },
  );
  // A chain of failures is what runs at once: needed units only, 8 jobs keep 8 tests in flight.
  let running = 0;
  let most = 0;
  await probdd(
    Configuration.full(40),
    {
      test: async () => {
        most = Math.max(most, ++running);
        await new Promise((resolve) => setTimeout(resolve, 1));
        running--;
        return false;
      },
    },
    { jobs: 8 },
  );
  assert.equal(most, 8);
});

test("on a machine with no core to spare, the speculation starts only the tests the search is likely to reach (BUSY_MIN_REACH), with the same commits", async () => {
  // Half the units needed, in alternation: after the first answers the next subset's chance of
  // being interesting is far from certain either way, so its speculative tests have a low reach.
  const n = 24;
  const needed = (units: readonly number[]): boolean => {
    for (let u = 0; u < n; u += 2) if (!units.includes(u)) return false;
    return true;
  };
  const run = async (spare?: boolean): Promise<{ tests: number; commits: number[][]; most: number }> => {
    let tests = 0;
    let running = 0;
    let most = 0;
    const commits: number[][] = [];
    await probdd(
      Configuration.full(n),
      {
        test: async (c) => {
          tests++;
          most = Math.max(most, ++running);
          await new Promise((resolve) => setTimeout(resolve, 1));
          running--;
          return needed(c.toArray());
        },
        commit: (c) => commits.push(c.toArray()),
        ...(spare === undefined ? {} : { spare: () => spare }),
      },
      { ddStar: true, jobs: 8 },
    );
    return { tests, commits, most };
  };
  const filled = await run();
  const idle = await run(true);
  const busy = await run(false);
  const one = await (async () => {
    const commits: number[][] = [];
    let tests = 0;
    await probdd(
      Configuration.full(n),
      {
        test: (c) => Promise.resolve((tests++, needed(c.toArray()))),
        commit: (c) => commits.push(c.toArray()),
      },
      { ddStar: true, jobs: 1 },
    );
    return { commits, tests };
  })();
  assert.deepEqual(busy.commits, one.commits);
  assert.deepEqual(idle.commits, one.commits);
  assert.equal(idle.tests, filled.tests, "a core to spare: every slot filled, as without the hook");
  assert.ok(
    busy.tests < filled.tests,
    `busy ${busy.tests} tests against ${filled.tests} with every slot filled`,
  );
  assert.ok(busy.tests >= one.tests);
  assert.ok(busy.most > 1, "likely tests still run beside the one the search needs");
});

test("a calibration shared between searches carries how the model's chances fared: slots follow the likelier answer from the start", async () => {
  const calibration = new ChanceCalibration();
  assert.equal(calibration.scale(0.3), 0.3, "nothing known: the model's own chance");
  calibration.record(0.5, true);
  calibration.record(0.5, true);
  assert.equal(calibration.scale(0.3), 0.3 * 1.5, "more interesting answers than the model gave");
  assert.equal(calibration.scale(0.9), 1, "never above 1");
  // A search whose subsets all fail (every unit needed), at 8 jobs: how many tests it starts.
  const launched = async (shared?: ChanceCalibration): Promise<{ tests: number; result: number[] }> => {
    let tests = 0;
    const result = await probdd(
      Configuration.full(30),
      {
        test: async () => {
          tests++;
          await new Promise((resolve) => setTimeout(resolve, 1));
          return false;
        },
      },
      { jobs: 8, ...(shared ? { calibration: shared } : {}) },
    );
    return { tests, result: result.config.toArray() };
  };
  const alone = await launched();
  const taught = new ChanceCalibration();
  await launched(taught); // a first search teaches it that subsets fail
  const second = await launched(taught);
  let sequential = 0;
  await probdd(Configuration.full(30), { test: () => Promise.resolve(++sequential < 0) }, { jobs: 1 });
  assert.deepEqual(second.result, alone.result);
  // Untaught, slots go to the branches where a subset can go, and those tests are wasted; taught,
  // they stay on the chain of failures (the few left over are those of the chain's last 8 tests,
  // where free slots have nothing likelier to try).
  assert.ok(second.tests < alone.tests, `taught: ${second.tests} tests, alone: ${alone.tests}`);
  assert.ok(second.tests <= sequential + 8, `taught: ${second.tests} tests, ${sequential} with one job`);
});

test("a commit that fails ends the run with its error, after every running test has settled", async () => {
  for (const jobs of [1, 4]) {
    let running = 0;
    await assert.rejects(
      probdd(
        Configuration.full(30),
        {
          test: async (c, signal) => {
            running++;
            await new Promise((resolve) => setTimeout(resolve, signal.aborted ? 0 : 2));
            running--;
            return new Set(c).has(7);
          },
          commit: () => {
            throw new Error("cannot write the result");
          },
        },
        { jobs },
      ),
      /cannot write the result/,
    );
    assert.equal(running, 0, `jobs ${jobs}: no test still running`);
  }
});

test("an abort stops the run with the smallest configuration so far", async () => {
  const controller = new AbortController();
  let tests = 0;
  const result = await probdd(Configuration.full(100), {
    test: (c) => {
      if (++tests === 5) controller.abort(new Error("enough"));
      return Promise.resolve(new Set(c).has(42));
    },
    signal: controller.signal,
  });
  assert.equal(result.kind, "stopped");
  assert.ok(result.config.toArray().includes(42));
  assert.ok(result.config.length < 100);
});

test("reduce() with algorithm probdd: lines, then characters; the result is interesting and 1-minimal", async () => {
  const lines = Array.from({ length: 40 }, (_, i) => `line ${i}${i === 17 ? " BUG" : ""}\n`).join("");
  const interesting = (c: Uint8Array): boolean => Buffer.from(c).toString().includes("BUG");
  const result = await reduce(Buffer.from(lines), interesting, { algorithm: "probdd", jobs: 1 });
  assert.equal(result.kind, "done");
  assert.equal(Buffer.from(result.output).toString(), "BUG");
  assert.throws(
    () => resolveOptions({ algorithm: "probd" as "probdd" }),
    /algorithm: expected one of ddmin, probdd/,
  );
});

test("a tree pass with algorithm probdd reduces each level with it", async () => {
  const events: ReductionEvent[] = [];
  const doc = '{"a": [1, 2, 3, 4, 5, 6, 7, 8, 9, 87], "b": {"c": "d"}}';
  const run = (algorithm: "ddmin" | "probdd") =>
    reduce(Buffer.from(doc), shows87, {
      pipeline: [treePass(parsePhase("prune*"), toyJson)],
      algorithm,
      jobs: 1,
      onEvent: (e) => algorithm === "probdd" && events.push(e),
    });
  const viaProbdd = await run("probdd");
  // Not always ddmin's result: here ddmin's split happens to remove `, "b": {…}` in one step, while
  // ProbDD learns that "b" alone cannot go and never tries it with its comma; both are 1-minimal.
  assert.ok(shows87(viaProbdd.output));
  // ProbDD's first subset of a level of ten units is nine of them (k · 0.9^k peaks at 9).
  assert.ok(events.some((e) => e.type === "round" && e.granularity === 9));
});

test("a learned p0: the paper's 0.1 with nothing decided, then the share of units found needed, weighed against it", async () => {
  assert.equal(learnedP0(NO_NEEDS), PROBDD_P0);
  // Prior worth 4 units at 0.1, then 6 units decided, all needed: (0.4 + 6) / (4 + 6).
  assert.ok(Math.abs(learnedP0(addNeeds(NO_NEEDS, 6, 6)) - 0.64) < 1e-12);
  // A level where 80 units went and 2 stayed keeps p0 low: large subsets first, as the paper's.
  assert.ok(learnedP0(addNeeds(NO_NEEDS, 82, 2)) < 0.05);
  // Where every unit is needed, the paper's p0 tries groups first; from a learned 0.64 each unit is
  // tested alone at once: 6 tests instead of 11, the same result.
  const cost = async (p0: number): Promise<[number, number[]]> => {
    let tests = 0;
    const result = await probdd(
      [0, 1, 2, 3, 4, 5],
      { test: (config) => (tests++, Promise.resolve(config.length === 6)) },
      { p0, ddStar: true },
    );
    return [tests, result.config.toArray()];
  };
  assert.deepEqual(await cost(PROBDD_P0), [11, [0, 1, 2, 3, 4, 5]]);
  assert.deepEqual(await cost(learnedP0(addNeeds(NO_NEEDS, 6, 6))), [6, [0, 1, 2, 3, 4, 5]]);
});

test("a tree pass with a learned p0: each level's ProbDD starts from what the levels before it decided", async () => {
  const doc = '{"a": [[1, 2], [3, 4]], "b": {"c": 87, "d": [5, 6, 7]}, "e": [8, 9]}';
  const run = async (learnP0: boolean) => {
    const events: ReductionEvent[] = [];
    const pass = treePass(parsePhase("prune*"), toyJson);
    const result = await reduce(Buffer.from(doc), shows87, {
      pipeline: [
        {
          name: pass.name,
          run: (ctx) => pass.run({ ...ctx, options: { ...ctx.options, learnP0 } as typeof ctx.options }),
        },
      ],
      algorithm: "probdd",
      jobs: 1,
      onEvent: (e) => events.push(e),
    });
    const p0s = events.flatMap((e) => (e.type === "iteration" && e.p0 !== undefined ? [e.p0] : []));
    return { output: Buffer.from(result.output).toString(), p0s };
  };
  const paper = await run(false);
  const learned = await run(true);
  assert.ok(paper.p0s.length > 1 && paper.p0s.every((p) => p === PROBDD_P0));
  // The first search starts from the paper's p0; later ones from what earlier searches decided.
  assert.equal(learned.p0s[0], PROBDD_P0);
  assert.ok(learned.p0s.some((p) => p !== PROBDD_P0));
  assert.ok(shows87(Buffer.from(learned.output)));
});
