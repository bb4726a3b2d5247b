/**
 * The syntax filter on the evaluator's path: a candidate with more syntax errors than the best so
 * far is not interesting and never reaches the oracle; skips are counted apart from tests and cache
 * hits, and the option turns the filter off.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { reduce, type ReductionEvent, type SyntaxCheck } from "../../src/index.js";
import { LEARN_AFTER, SyntaxFilter, WATCH_MAX_BYTES } from "../../src/reduce/syntax-filter.js";

/** A toy grammar of brackets: each unmatched "(" or ")" is one syntax error. */
function brackets(cheap = true): SyntaxCheck & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    cheapSyntaxCheck: cheap,
    syntaxErrors(input) {
      const text = Buffer.from(input).toString();
      asked.push(text);
      return bracketErrors(text);
    },
  };
}

/** The bracket grammar, whose counts take no time or 2 ms, at random (a machine under load). */
function unevenBrackets(): SyntaxCheck {
  return {
    cheapSyntaxCheck: true,
    syntaxErrors(input) {
      const until = performance.now() + (Math.random() < 0.5 ? 0 : 2);
      while (performance.now() < until);
      return bracketErrors(Buffer.from(input).toString());
    },
  };
}

function bracketErrors(text: string): number {
  let open = 0;
  let errors = 0;
  for (const c of text) {
    if (c === "(") open++;
    else if (c === ")") {
      if (open > 0) open--;
      else errors++;
    }
  }
  return errors + open;
}

const INPUT = Buffer.from("f(a)\ng(b, (c))\nh(d)\n");
const interesting = (text: string): boolean => text.includes("b");

/** `input` reduced at -j 1 under `syntaxFilter`: the result, its events, every candidate tested. */
async function run(
  syntaxFilter: boolean | "auto",
  syntax: SyntaxCheck,
  input: Uint8Array = INPUT,
  keep: (text: string) => boolean = interesting,
) {
  const events: ReductionEvent[] = [];
  const asked: string[] = [];
  const result = await reduce(
    input,
    (c) => {
      const text = Buffer.from(c).toString();
      asked.push(text);
      return keep(text);
    },
    { jobs: 1, syntaxFilter, syntax, assumeInteresting: true, onEvent: (e) => events.push(e) },
  );
  assert.equal(result.kind, "done");
  return { result, events, asked };
}

test("a candidate with new syntax errors never reaches the oracle; skips are events and counters of their own", async () => {
  const { result, events, asked } = await run(true, brackets());
  assert.ok(asked.length > 0);
  for (const text of asked) assert.equal(bracketErrors(text), 0, `the oracle saw ${JSON.stringify(text)}`);
  const skips = events.filter((e) => e.type === "syntax-skip");
  assert.ok(skips.length > 0, "the character pass breaks brackets");
  for (const skip of skips) {
    assert.ok(skip.errors > 0, "a skip has errors");
    assert.equal(skip.allowed, 0, "the original has none");
  }
  const s = result.stats;
  assert.equal(s.syntaxSkips, skips.length);
  assert.equal(s.tests + s.checks, asked.length, "tests count oracle runs only (the empty check apart)");
  assert.equal(s.tests, events.filter((e) => e.type === "test-start").length);
  const perPass = Object.values(s.passes);
  assert.equal(
    perPass.reduce((n, p) => n + p.syntaxSkips, 0),
    s.syntaxSkips,
  );
  assert.equal(bracketErrors(Buffer.from(result.output).toString()), 0);
  assert.ok(interesting(Buffer.from(result.output).toString()));
});

test("syntaxFilter false, or no grammar to check with, reaches the oracle with broken candidates", async () => {
  const off = await run(false, brackets());
  assert.ok(off.asked.some((text) => bracketErrors(text) > 0));
  assert.equal(off.result.stats.syntaxSkips, 0);
  assert.equal(off.events.filter((e) => e.type === "syntax-skip").length, 0);

  const filtered = await run(true, brackets());
  assert.ok(
    filtered.result.stats.tests < off.result.stats.tests,
    `fewer tests with the filter: ${filtered.result.stats.tests} vs ${off.result.stats.tests}`,
  );

  const events: ReductionEvent[] = [];
  const none = await reduce(INPUT, (c) => interesting(Buffer.from(c).toString()), {
    jobs: 1,
    syntaxFilter: true,
    assumeInteresting: true,
    onEvent: (e) => events.push(e),
  });
  assert.equal(none.stats.syntaxSkips, 0);
  assert.equal(events.filter((e) => e.type === "syntax-skip").length, 0);
});

test('"auto" always filters with a cheap check, true with any', async () => {
  assert.ok((await run("auto", brackets(true))).result.stats.syntaxSkips > 0);
  assert.ok((await run(true, brackets(false))).result.stats.syntaxSkips > 0);
});

test('"auto" leaves an original with syntax errors to the oracle (but for pairs: below); true filters it by error count', async () => {
  const broken = Buffer.from("f(a\ng(b, (c))\nh(d)\n"); // one unclosed bracket
  const reduceBroken = (syntaxFilter: boolean | "auto") =>
    reduce(broken, (c) => interesting(Buffer.from(c).toString()), {
      jobs: 1,
      syntaxFilter,
      syntax: brackets(true),
      assumeInteresting: true,
    });
  assert.equal((await reduceBroken("auto")).stats.syntaxSkips, 0);
  assert.ok((await reduceBroken(true)).stats.syntaxSkips > 0);
});

test('"auto" with an original with syntax errors: only the pair scan\'s guesses are checked, and their skips are not cached', () => {
  const broken = Buffer.from("f(a\ng(b, (c))\nh(d)\n"); // one unclosed bracket
  const check = brackets(true);
  const filter = SyntaxFilter.of("auto", check, broken)!;
  assert.equal(filter.scope, "pairs");
  assert.equal(filter.skipsMayBeCached, false);
  const twoErrors = Buffer.from("f(a\ng(b, (c)\nh(d)\n");
  const asked = check.asked.length;
  // Single edits, hoisting, rewrites: tested unchecked, whatever their errors (counted, to learn:
  // below), and not counted as checks.
  for (const kind of [undefined, "complement", "subset", "hoist", "rewrite"])
    assert.equal(filter.reject(twoErrors, "ddmin:token", kind), undefined);
  assert.equal(check.asked.length, asked + 5);
  // A pair with more errors than the best so far is skipped; one with no more is tested.
  assert.deepEqual(filter.reject(twoErrors, "ddmin:token", "pair"), { errors: 2, allowed: 1 });
  assert.equal(filter.reject(Buffer.from("g(b, (c))\n"), "ddmin:token", "pair"), undefined);
  assert.deepEqual(filter.counters().passes["ddmin:token"], { checks: 2, skips: 1 });
  // Without errors in the original, or with a costly check, "auto" is what it was.
  assert.equal(SyntaxFilter.of("auto", brackets(true), INPUT)!.scope, "every");
  assert.equal(SyntaxFilter.of("auto", brackets(false), broken), undefined);
  assert.equal(SyntaxFilter.of(true, brackets(true), broken)!.scope, "every");
});

/** `filter` lets LEARN_AFTER candidates `make(0)`, `make(1)`, … through, and the test rejects each. */
function rejectAll(filter: SyntaxFilter, make: (i: number) => Uint8Array): void {
  for (let i = 0; i < LEARN_AFTER; i++) {
    const candidate = make(i);
    filter.reject(candidate, "ddmin:token", "complement");
    filter.tested(candidate, "not-interesting");
  }
}

/** Candidates with two syntax errors where the original below has one, each its own bytes. */
const twoErrors = (i: number): Uint8Array => Buffer.from(`f(a\ng(b, (c)\nh(d${i})\n`);
const BROKEN = Buffer.from("f(a\ng(b, (c))\nh(d)\n"); // one unclosed bracket

test('"auto" with an original with syntax errors checks every candidate once LEARN_AFTER with new errors were tested and none was interesting', () => {
  const filter = SyntaxFilter.of("auto", brackets(true), BROKEN)!;
  // What does not count: a candidate with no more errors than the best; an answer for bytes the
  // filter did not count; a timeout.
  const oneError = Buffer.from("g(b, (c)\n");
  assert.equal(filter.reject(oneError, "ddmin:token", "complement"), undefined);
  assert.equal(filter.tested(oneError, "not-interesting"), undefined);
  assert.equal(filter.tested(twoErrors(-1), "not-interesting"), undefined);
  const slow = twoErrors(-2);
  assert.equal(filter.reject(slow, "ddmin:token", "complement"), undefined);
  assert.equal(filter.tested(slow, "timeout"), undefined);
  for (let i = 0; i < LEARN_AFTER; i++) {
    const candidate = twoErrors(i);
    // Tested unchecked while learning, though counted.
    assert.equal(filter.reject(candidate, "hdd:coarse", "complement"), undefined);
    assert.equal(filter.scope, "pairs");
    assert.deepEqual(
      filter.tested(candidate, "not-interesting"),
      i === LEARN_AFTER - 1 ? { scope: "every", why: "rejected" } : undefined,
    );
  }
  assert.equal(filter.scope, "every");
  assert.equal(filter.skipsMayBeCached, true);
  assert.deepEqual(filter.reject(twoErrors(99), "ddmin:token", "complement"), { errors: 2, allowed: 1 });
  assert.equal(filter.reject(oneError, "ddmin:token", "complement"), undefined);
});

test("what the filter learned holds from the fewest errors the test rejected: fewer new errors are tested, and may undo it", () => {
  const threeErrors = (i: number): Uint8Array => Buffer.from(`f(a\ng(b, (c\nh(d${i})\n`);
  const filter = SyntaxFilter.of("auto", brackets(true), BROKEN)!;
  rejectAll(filter, threeErrors);
  assert.equal(filter.scope, "every");
  assert.deepEqual(filter.reject(threeErrors(99), "ddmin:token", "complement"), { errors: 3, allowed: 1 });
  // Two errors, fewer than any rejected: tested; not interesting, and two is the floor from then on.
  const two = twoErrors(0);
  assert.equal(filter.reject(two, "ddmin:token", "complement"), undefined);
  assert.equal(filter.tested(two, "not-interesting"), undefined);
  assert.deepEqual(filter.reject(twoErrors(1), "ddmin:token", "complement"), { errors: 2, allowed: 1 });

  // One below the floor that is interesting, and taken as the new best, takes the filter back to
  // the pairs.
  const other = SyntaxFilter.of("auto", brackets(true), BROKEN)!;
  rejectAll(other, threeErrors);
  other.reject(two, "ddmin:token", "complement");
  assert.equal(other.tested(two, "interesting"), undefined);
  assert.deepEqual(other.improved(two), { scope: "pairs", why: "interesting" });
  assert.equal(other.reject(threeErrors(99), "ddmin:token", "complement"), undefined);
});

test("once learned with none allowed and one error the fewest rejected, a check only asks whether there is any error", () => {
  const anyWillDo: boolean[] = [];
  const check: SyntaxCheck = {
    cheapSyntaxCheck: true,
    syntaxErrors(input, any) {
      anyWillDo.push(any ?? false);
      return bracketErrors(Buffer.from(input).toString());
    },
  };
  const filter = SyntaxFilter.of("auto", check, BROKEN)!;
  filter.improved(Buffer.from("g(b, (c))\n")); // a best without errors: none allowed
  const oneError = (i: number): Uint8Array => Buffer.from(`g(b, (c)\nh(d${i})\n`);
  rejectAll(filter, oneError);
  assert.equal(filter.scope, "every");
  // While learning every count was exact (the floor needs it); now any error is enough.
  assert.ok(anyWillDo.every((any) => !any));
  assert.deepEqual(filter.reject(twoErrors(0), "ddmin:token", "complement"), { errors: 2, allowed: 0 });
  assert.equal(anyWillDo.at(-1), true);
});

test("a best with new syntax errors keeps the filter to the pairs, before the switch or after it; an interesting answer not taken teaches nothing", () => {
  const early = SyntaxFilter.of("auto", brackets(true), BROKEN)!;
  const first = twoErrors(0);
  early.reject(first, "ddmin:token", "complement");
  assert.equal(early.tested(first, "interesting"), undefined);
  assert.equal(early.improved(first), undefined); // still the pairs: no change to report
  for (let i = 1; i <= 2 * LEARN_AFTER; i++) {
    const candidate = twoErrors(i);
    assert.equal(early.reject(candidate, "ddmin:token", "complement"), undefined);
    assert.equal(early.tested(candidate, "not-interesting"), undefined);
  }
  assert.equal(early.scope, "pairs");

  // A test run ahead (parallel jobs) found a candidate with new errors interesting, but the
  // reduction took another candidate: as at -j 1, where that test never ran, the filter learns.
  const ahead = SyntaxFilter.of("auto", brackets(true), BROKEN)!;
  const notTaken = twoErrors(100);
  ahead.reject(notTaken, "ddmin:token", "complement");
  assert.equal(ahead.tested(notTaken, "interesting"), undefined);
  assert.equal(ahead.improved(Buffer.from("f(a\ng(b, (c))\n")), undefined); // no more errors than allowed
  rejectAll(ahead, twoErrors);
  assert.equal(ahead.scope, "every");

  // After the switch: a best with new errors (one tested while the last ones counted answered).
  const late = SyntaxFilter.of("auto", brackets(true), BROKEN)!;
  const underWay = twoErrors(100);
  late.reject(underWay, "ddmin:token", "complement");
  rejectAll(late, twoErrors);
  assert.equal(late.scope, "every");
  assert.equal(late.tested(underWay, "interesting"), undefined);
  assert.deepEqual(late.improved(underWay), { scope: "pairs", why: "interesting" });
  assert.equal(late.scope, "pairs");
  assert.equal(late.skipsMayBeCached, false);
  assert.equal(late.reject(twoErrors(200), "ddmin:token", "complement"), undefined);
  rejectAll(late, (i) => twoErrors(300 + i));
  assert.equal(late.scope, "pairs");
});

test("learning counts the candidates it lets through up to WATCH_MAX_BYTES, however long a count or a test takes", () => {
  // Every count looks like a second against tests of a millisecond: a bound in time would count
  // none; the bound in bytes counts the same candidates on any machine.
  let clock = 0;
  const now = (): number => (clock += 500);
  const small = new SyntaxFilter(brackets(true), BROKEN, false, now, "pairs", true);
  small.observeTest(1);
  rejectAll(small, twoErrors);
  assert.equal(small.scope, "every");

  const padding = " ".repeat(WATCH_MAX_BYTES);
  const big = (i: number): Uint8Array => Buffer.from(`f(a\ng(b, (c)\nh(d${i})\n${padding}`);
  const check = brackets(true);
  const large = new SyntaxFilter(check, BROKEN, false, now, "pairs", true);
  large.observeTest(1);
  const asked = check.asked.length;
  rejectAll(large, big);
  assert.equal(large.scope, "pairs");
  assert.ok(check.asked.slice(asked).every((text) => text.length <= WATCH_MAX_BYTES));
});

test("with an original with syntax errors, -j 3 ends with the result of -j 1, whatever order the answers come in and however long the counts take", async () => {
  /** `input` reduced with `jobs`, each test answering after a random delay. */
  const reduced = async (
    input: Uint8Array,
    keep: (text: string) => boolean,
    jobs: number,
  ): Promise<string> => {
    const result = await reduce(
      input,
      (c) => {
        const text = Buffer.from(c).toString();
        return new Promise<boolean>((done) => setTimeout(() => done(keep(text)), Math.random() * 3));
      },
      { jobs, syntaxFilter: "auto", syntax: unevenBrackets(), assumeInteresting: true },
    );
    assert.equal(result.kind, "done");
    return Buffer.from(result.output).toString();
  };
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.constantFrom("(", ")", "b", "(b)", "x\n", "f("), { minLength: 4, maxLength: 14 }),
      fc.nat(2),
      async (pieces, accepts) => {
        const text = `f(${pieces.join("")}b`;
        const errors = bracketErrors(text);
        fc.pre(errors > 0);
        // Some new errors pass (by the length's remainder), others do not: the filter has to learn.
        const keep = (t: string): boolean =>
          t.includes("b") && (bracketErrors(t) <= errors || t.length % 3 === accepts);
        const input = Buffer.from(text);
        assert.equal(await reduced(input, keep, 3), await reduced(input, keep, 1));
      },
    ),
    { numRuns: 40 },
  );
});

test("a reduction whose test rejects new syntax errors: the filter learns it, with the same result in fewer tests", async () => {
  // The test accepts the original's unclosed "f(", as an engine accepts what a grammar rejects,
  // but no other error.
  const original = Buffer.from("f(a\n(((((b)))))\nh(d)\n");
  const keep = (text: string): boolean =>
    text.includes("(b)") && bracketErrors(text.replace("f(", "f")) === 0;
  const learned = await run("auto", brackets(true), original, keep);
  const unfiltered = await run(false, brackets(true), original, keep);
  assert.deepEqual(
    learned.events.filter((e) => e.type === "syntax-filter").map((e) => e.type === "syntax-filter" && e.why),
    ["rejected"],
  );
  assert.ok(learned.result.stats.syntaxSkips > 0);
  assert.equal(
    Buffer.from(learned.result.output).toString(),
    Buffer.from(unfiltered.result.output).toString(),
  );
  assert.ok(
    learned.asked.length < unfiltered.asked.length,
    `${learned.asked.length} < ${unfiltered.asked.length}`,
  );
  // Before the switch every candidate was tested; the ones with new errors number LEARN_AFTER.
  const switched = learned.events.findIndex((e) => e.type === "syntax-filter");
  const testedBefore = learned.events
    .slice(0, switched)
    .filter((e) => e.type === "test-end" && e.outcome === "not-interesting").length;
  assert.ok(testedBefore >= LEARN_AFTER);
  assert.equal(learned.events.slice(0, switched).filter((e) => e.type === "syntax-skip").length, 0);
});

test('"auto" with a costly check: checks while a check costs less than the tests it saves', () => {
  let clock = 0;
  let checkMs = 0;
  const costly = brackets(false);
  const timed: SyntaxCheck = {
    cheapSyntaxCheck: false,
    syntaxErrors: (input) => {
      clock += checkMs;
      return costly.syntaxErrors(input);
    },
  };
  const broken = Buffer.from("f((a)"); // 1 error; the original has none
  const fine = Buffer.from("g(a)");
  const filter = new SyntaxFilter(timed, Buffer.from("f(a)"), true, () => clock);
  assert.deepEqual(costly.asked, [], "nothing is parsed up front");
  assert.equal(filter.reject(broken, "polish"), undefined, "no test timed yet: no check");
  assert.deepEqual(costly.asked, []);
  filter.observeTest(10);
  // The probe: 2 ms for a check against 10 ms tests.
  checkMs = 2;
  assert.deepEqual(filter.reject(broken, "polish"), { errors: 1, allowed: 0 });
  assert.equal(costly.asked.length, 2, "the allowance (on the original) and the candidate");
  // A pass whose candidates parse: the share of skips falls, (0 + 1) / (checks + 2), until the
  // saving (share × 10 ms) is below 2 ms: after 4 checks.
  let checked = costly.asked.length;
  for (let i = 0; i < 10; i++) assert.equal(filter.reject(fine, "tree"), undefined);
  assert.equal(costly.asked.length - checked, 4, "the tree pass stops checking");
  // … until the tests since its last check took 8 times a check's estimated cost (2 ms): then one
  // check all the same, which renews the estimates.
  checked = costly.asked.length;
  for (let i = 0; i < 10; i++) assert.equal(filter.reject(fine, "tree"), undefined);
  assert.equal(costly.asked.length - checked, 0, "no test since the last check: no exploring");
  filter.observeTest(10);
  for (let i = 0; i < 10; i++) assert.equal(filter.reject(fine, "tree"), undefined);
  assert.equal(costly.asked.length - checked, 0, "10 ms of tests < 8 × 2 ms");
  filter.observeTest(10);
  for (let i = 0; i < 10; i++) assert.equal(filter.reject(fine, "tree"), undefined);
  assert.equal(costly.asked.length - checked, 1, "20 ms of tests: one check all the same");
  // The polish pass, whose candidates are skipped, goes on checking.
  checked = costly.asked.length;
  for (let i = 0; i < 5; i++) assert.ok(filter.reject(broken, "polish") !== undefined);
  assert.equal(costly.asked.length - checked, 5);
  // Checks get slower (a moving average): 100 ms each, more than a test saves: no more checks.
  checkMs = 100;
  let checks = 0;
  while (filter.reject(broken, "polish") !== undefined) checks++;
  assert.ok(checks <= 2, `${checks} more checks`);
  const asked = costly.asked.length;
  for (let i = 0; i < 14; i++) assert.equal(filter.reject(broken, "polish"), undefined);
  assert.equal(costly.asked.length, asked, "too costly: not checked");
  // Exploring finds checks cheap again (2 ms): the estimate falls, and checking resumes.
  checkMs = 2;
  let resumed = false;
  for (let i = 0; i < 16 * 12 && !resumed; i++) {
    filter.observeTest(10);
    const before = costly.asked.length;
    filter.reject(broken, "polish");
    // Two checks in a row: the gate is open again.
    if (costly.asked.length > before && filter.reject(broken, "polish") !== undefined) resumed = true;
  }
  assert.ok(resumed, "cheap checks again: the filter checks again");
  // Slower tests make the same check worth it again.
  filter.observeTest(10_000);
  assert.ok(filter.reject(broken, "polish") !== undefined);
});

test("a gated filter's first estimate is the grammar's own time per byte: no probe when that says a check costs too much", () => {
  const costly = brackets(false);
  let perByte: number | undefined = 1; // 1 ms per byte: 256 ms for the smallest check
  const timed: SyntaxCheck = {
    cheapSyntaxCheck: false,
    syntaxErrors: (input) => costly.syntaxErrors(input),
    msPerByte: () => perByte,
  };
  const filter = new SyntaxFilter(timed, Buffer.from("f(a)"), true, () => 0);
  filter.observeTest(10);
  assert.equal(filter.reject(Buffer.from("f((a)"), "polish"), undefined);
  assert.deepEqual(costly.asked, [], "too costly by the grammar's figure: not even a probe");
  perByte = undefined; // no figure yet: the probe
  assert.deepEqual(filter.reject(Buffer.from("f((a)"), "polish"), { errors: 1, allowed: 0 });
});

test("with a content cache, a skipped candidate is checked once: seen again, it is a cache hit", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.constantFrom("(", ")", "b", "()", "(b)", "x"), { minLength: 2, maxLength: 8 }),
      async (pieces) => {
        const text = pieces.join("\n") + "\nb\n";
        const syntax = brackets();
        const result = await reduce(Buffer.from(text), (c) => Buffer.from(c).includes("b"), {
          jobs: 1,
          cache: "content",
          // Every candidate (under "auto" an original with errors is watched while the filter learns,
          // each time it comes, and its skips are not cached).
          syntaxFilter: true,
          syntax,
          assumeInteresting: true,
        });
        assert.equal(result.kind, "done");
        const allowed = bracketErrors(text);
        const checked = new Map<string, number>();
        for (const candidate of syntax.asked.slice(1))
          checked.set(candidate, (checked.get(candidate) ?? 0) + 1);
        const rejected = [...checked].filter(([candidate]) => bracketErrors(candidate) > allowed);
        for (const [candidate, times] of rejected) {
          assert.equal(times, 1, `${JSON.stringify(candidate)} was checked ${times} times`);
        }
        assert.ok(bracketErrors(Buffer.from(result.output).toString()) <= allowed);
      },
    ),
    { numRuns: 100 },
  );
});

test("the allowance starts at the original's errors and falls with each best that has fewer", () => {
  const syntax = brackets();
  const filter = new SyntaxFilter(syntax, Buffer.from("((a"));
  assert.deepEqual(filter.reject(Buffer.from("(((")), { errors: 3, allowed: 2 });
  assert.equal(filter.reject(Buffer.from("(a)(")), undefined, "as many errors as the original: tested");
  assert.equal(filter.reject(Buffer.from("a)(")), undefined, "other errors, as many: tested");
  filter.improved(Buffer.from("(a"));
  assert.deepEqual(filter.reject(Buffer.from("((")), { errors: 2, allowed: 1 });
  filter.improved(Buffer.from("a"));
  assert.deepEqual(filter.reject(Buffer.from("(")), { errors: 1, allowed: 0 });
  const checks = syntax.asked.length;
  filter.improved(Buffer.from("b"));
  assert.equal(syntax.asked.length, checks, "no errors allowed: a new best is not parsed");
  assert.equal(filter.reject(Buffer.from("b")), undefined);
});

test('"auto" with a cheap check: checks before any test is timed, and stops where a check costs more than it saves', () => {
  let clock = 0;
  let checkMs = 0.1;
  const cheap = brackets(true);
  const timed: SyntaxCheck = {
    cheapSyntaxCheck: true,
    syntaxErrors: (input) => {
      clock += checkMs;
      return cheap.syntaxErrors(input);
    },
  };
  const filter = SyntaxFilter.of("auto", timed, Buffer.from("f(a)"))!;
  assert.ok(filter.verifies);
  const gated = new SyntaxFilter(timed, Buffer.from("f(a)"), true, () => clock);
  for (const f of [filter, gated])
    assert.deepEqual(f.reject(Buffer.from("f((a)"), "tree"), { errors: 1, allowed: 0 }, "no test timed yet");
  // Tests of 10 ms against checks of 0.1 ms: every candidate is checked.
  gated.observeTest(10);
  let asked = cheap.asked.length;
  for (let i = 0; i < 20; i++) assert.equal(gated.reject(Buffer.from("g(a)"), "tree"), undefined);
  assert.equal(cheap.asked.length - asked, 20);
  // Tests of microseconds (an in-process oracle): a check under 1 ms is made all the same.
  gated.observeTest(0);
  asked = cheap.asked.length;
  for (let i = 0; i < 5; i++) assert.ok(gated.reject(Buffer.from("f((a)"), "tree") !== undefined);
  assert.equal(cheap.asked.length - asked, 5);
  // A large input: its checks take 30 ms, three tests' time, and none ends in a skip.
  checkMs = 30;
  asked = cheap.asked.length;
  for (let i = 0; i < 20; i++) {
    gated.observeTest(10);
    assert.equal(gated.reject(Buffer.from("g(a)"), "tree"), undefined);
  }
  const checked = cheap.asked.length - asked;
  // One or two until the moving average has caught up, then one in every 8 × 30 ms of tests.
  assert.ok(checked <= 4, `${checked} checks of 20 candidates`);
});

test("a gated cheap filter checks the candidates it let through unchecked once a test finds them interesting", () => {
  let clock = 0;
  const check = brackets(true);
  const timed: SyntaxCheck = {
    cheapSyntaxCheck: true,
    syntaxErrors: (input) => {
      clock += 1000; // far more than a test
      return check.syntaxErrors(input);
    },
  };
  const filter = new SyntaxFilter(timed, Buffer.from("f(a)"), true, () => clock);
  filter.observeTest(1);
  const probe = Buffer.from("g(a)");
  assert.equal(filter.reject(probe, "tree"), undefined); // the probe: 1,000 ms
  const broken = Buffer.from("f((a)");
  const fine = Buffer.from("(a)");
  let asked = check.asked.length;
  assert.equal(filter.reject(broken, "tree"), undefined, "not worth a check: tested");
  assert.equal(filter.reject(fine, "tree"), undefined);
  assert.equal(check.asked.length, asked);
  // The test found both interesting: the broken one is not after all.
  assert.deepEqual(filter.verify(broken), { errors: 1, allowed: 0 });
  assert.equal(filter.verify(fine), undefined);
  assert.equal(check.asked.length, asked + 2);
  assert.equal(filter.counters().verified, 2);
  // A best checked already is not parsed again; one checked before its test is not checked again.
  asked = check.asked.length;
  filter.improved(fine);
  assert.equal(filter.verify(probe), undefined);
  assert.equal(check.asked.length, asked);
  // An expensive check (ANTLR's) does not verify: its unchecked bests bring their errors along.
  const antlr = new SyntaxFilter(
    { ...timed, cheapSyntaxCheck: false },
    Buffer.from("f(a)"),
    true,
    () => clock,
  );
  assert.equal(antlr.verifies, false);
  assert.equal(antlr.verify(broken), undefined);
});

test('"auto" with a check that costs more than the tests: the result of checking every candidate, with more tests', async () => {
  /** The brackets check, made to take 3 ms (more than ALWAYS_CHECK_MS): a test here takes microseconds. */
  const slow = (): SyntaxCheck & { asked: string[] } => {
    const check = brackets(true);
    return {
      ...check,
      syntaxErrors(input) {
        const until = performance.now() + 3;
        while (performance.now() < until);
        return check.syntaxErrors(input);
      },
    };
  };
  const input = Buffer.from("f(a)\ng(b, (c), [d])\nh((e))\nk(b)\n");
  const runWith = async (syntaxFilter: boolean | "auto") => {
    const events: ReductionEvent[] = [];
    const result = await reduce(input, (c) => Buffer.from(c).includes("b"), {
      jobs: 1,
      syntaxFilter,
      syntax: slow(),
      assumeInteresting: true,
      onEvent: (e) => events.push(e),
    });
    assert.equal(result.kind, "done");
    return { result, events };
  };
  const every = await runWith(true);
  const auto = await runWith("auto");
  assert.equal(Buffer.from(auto.result.output).toString(), Buffer.from(every.result.output).toString());
  assert.equal(bracketErrors(Buffer.from(auto.result.output).toString()), 0);
  const afterTest = auto.events.filter((e) => e.type === "syntax-skip" && e.tested === true);
  assert.ok(afterTest.length > 0, "interesting candidates with errors, skipped after their test");
  assert.ok(auto.result.stats.tests > every.result.stats.tests);
  const stats = auto.events.find((e) => e.type === "syntax-stats");
  assert.ok(stats?.type === "syntax-stats" && stats.verified > 0);
});
