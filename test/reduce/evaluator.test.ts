/**
 * The evaluator is the one path of every candidate: its content cache spans the passes of a run, and
 * a candidate whose bytes are under test already waits for that test instead of running again.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { reduce, type ReductionEvent } from "../../src/index.js";
import type { CacheKey } from "../../src/cache/index.js";
import { Configuration } from "../../src/ddmin/configuration.js";
import type { TestLabel } from "../../src/ddmin/ddmin.js";
import { Evaluator, YIELDING_PRIORITY } from "../../src/reduce/evaluator.js";

test("with a content cache, no candidate is tested twice in a run, across the line and character passes", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.constantFrom("a", "b", "ab", "ba", "x"), { minLength: 2, maxLength: 8 }),
      fc.constantFrom("content" as const, "content-hash" as const),
      async (lines, cache) => {
        const input = Buffer.from(lines.join("\n") + "\n");
        const asked = new Map<string, number>();
        const result = await reduce(
          input,
          (c) => {
            const s = Buffer.from(c).toString();
            asked.set(s, (asked.get(s) ?? 0) + 1);
            return s.includes("a") && s.includes("b");
          },
          { atom: "both", jobs: 1, cache, assumeInteresting: true },
        );
        assert.equal(result.kind, "done");
        for (const [content, times] of asked) {
          const interesting = content.includes("a") && content.includes("b");
          if (!interesting) assert.equal(times, 1, `${JSON.stringify(content)} was tested ${times} times`);
        }
      },
    ),
    { numRuns: 150 },
  );
});

test("events and statistics name the pass that proposed each candidate", async () => {
  const events: ReductionEvent[] = [];
  const result = await reduce(Buffer.from("x\nab\ny\n"), (c) => Buffer.from(c).includes("ab"), {
    atom: "both",
    jobs: 1,
    onEvent: (e) => events.push(e),
  });
  const passes = events.filter((e) => e.type === "pass").map((e) => e.pass);
  assert.deepEqual(passes, ["ddmin:line", "ddmin:char"]);
  const tested = new Set(events.flatMap((e) => (e.type === "test-start" ? [e.pass] : [])));
  assert.deepEqual([...tested].sort(), ["ddmin:char", "ddmin:line"]);
  const perPass = result.stats.passes;
  assert.equal(perPass["ddmin:line"]!.tests + perPass["ddmin:char"]!.tests, result.stats.tests);
  assert.equal(perPass["ddmin:line"]!.bytesRemoved, "x\nab\ny\n".length - "ab\n".length);
  assert.equal(perPass["ddmin:char"]!.bytesRemoved, 1, "the character pass removed the newline");
});

/** An evaluator over an oracle whose answers the test gives by hand, one per call. */
function handOracle(cache: "content" | "none") {
  const calls: { bytes: string; answer: (interesting: boolean) => void; signal: AbortSignal }[] = [];
  const events: ReductionEvent[] = [];
  const oracle = (candidate: Uint8Array, signal: AbortSignal): Promise<boolean> =>
    new Promise((answer) => {
      calls.push({ bytes: Buffer.from(candidate).toString(), answer, signal });
      signal.addEventListener("abort", () => answer(false), { once: true });
    });
  const evaluator = new Evaluator(oracle, (e) => events.push(e), cache, { cacheFail: false, evict: false });
  const pass = evaluator.forPass("p");
  const key = (text: string, ...config: number[]): CacheKey => ({
    config: Configuration.of(config),
    content: () => Buffer.from(text),
  });
  const label: TestLabel = { kind: "complement", index: 0, round: 0, granularity: 2 };
  const ask = (k: CacheKey, signal = new AbortController().signal): Promise<boolean> =>
    pass.test(k, signal, label);
  const settle = (): Promise<void> => new Promise((done) => setImmediate(done));
  return { calls, events, ask, key, settle };
}

test("the same bytes asked for while they are under test wait for that test's outcome: one test, then a cache hit", async () => {
  for (const interesting of [true, false]) {
    const { calls, events, ask, key, settle } = handOracle("content");
    // Two candidates of different configurations (two rounds) with the same bytes, at once.
    const first = ask(key("ab", 0, 1));
    await settle();
    const second = ask(key("ab", 1, 2));
    await settle();
    assert.equal(calls.length, 1, "the second waits instead of running");
    calls[0]!.answer(interesting);
    assert.deepEqual([await first, await second], [interesting, interesting]);
    assert.equal(events.filter((e) => e.type === "test-start").length, 1);
    assert.equal(events.filter((e) => e.type === "cache-hit").length, 1);
  }
});

test("a candidate waiting for its twin's test runs its own when that test is cancelled, and stops waiting when it is cancelled itself", async () => {
  const { calls, ask, key, settle } = handOracle("content");
  const round = new AbortController();
  const first = ask(key("ab"), round.signal);
  await settle();
  const second = ask(key("ab"));
  await settle();
  assert.equal(calls.length, 1);
  round.abort();
  assert.equal(await first, false);
  await settle();
  assert.equal(calls.length, 2, "the twin was cancelled: the waiting candidate is tested");
  calls[1]!.answer(true);
  assert.equal(await second, true);

  const third = ask(key("cd"));
  await settle();
  const waiting = new AbortController();
  const fourth = ask(key("cd"), waiting.signal);
  await settle();
  waiting.abort();
  assert.equal(await fourth, false, "cancelled while it waited: no answer, at once");
  assert.equal(calls.length, 3);
  calls[2]!.answer(true);
  assert.equal(await third, true);
});

test("without a cache every candidate is tested, twins under test at the same time too", async () => {
  const { calls, ask, key, settle } = handOracle("none");
  const both = [ask(key("ab")), ask(key("ab"))];
  await settle();
  assert.equal(calls.length, 2);
  for (const call of calls) call.answer(true);
  assert.deepEqual(await Promise.all(both), [true, true]);
});

test("with every slot taken, a test of a pass run ahead gives its slot to a test that comes first, and runs again after it", async () => {
  const calls: { bytes: string; answer: (interesting: boolean) => void; signal: AbortSignal }[] = [];
  const events: ReductionEvent[] = [];
  const oracle = (candidate: Uint8Array, signal: AbortSignal): Promise<boolean> =>
    new Promise((answer, fail) => {
      calls.push({ bytes: Buffer.from(candidate).toString(), answer, signal });
      signal.addEventListener("abort", () => fail(signal.reason), { once: true });
    });
  const evaluator = new Evaluator(oracle, (e) => events.push(e), "content", {
    cacheFail: false,
    evict: false,
  });
  evaluator.limitJobs(1);
  const main = evaluator.forPass("main");
  const ahead = evaluator.forPass("ahead", undefined, () => YIELDING_PRIORITY);
  const later = evaluator.forPass("later", undefined, () => 2 * YIELDING_PRIORITY);
  const key = (text: string): CacheKey => ({
    config: Configuration.of([]),
    content: () => Buffer.from(text),
  });
  const label: TestLabel = { kind: "complement", index: 0, round: 0, granularity: 2 };
  const settle = (): Promise<void> => new Promise((done) => setImmediate(done));
  const never = new AbortController().signal;

  const first = ahead.test(key("ahead"), never, label);
  await settle();
  assert.deepEqual(
    calls.map((c) => c.bytes),
    ["ahead"],
  );
  // A request that comes after it waits; it does not take the slot.
  const third = later.test(key("later"), never, label);
  await settle();
  assert.equal(calls.length, 1);
  assert.equal(calls[0]!.signal.aborted, false);
  // One that comes before it takes the slot: the test ahead is cancelled, and waits for a slot again.
  const second = main.test(key("main"), never, label);
  await settle();
  assert.equal(calls[0]!.signal.aborted, true);
  assert.deepEqual(
    calls.map((c) => c.bytes),
    ["ahead", "main"],
  );
  calls[1]!.answer(true);
  assert.equal(await second, true);
  await settle();
  assert.deepEqual(
    calls.map((c) => c.bytes),
    ["ahead", "main", "ahead"],
    "the test ahead runs again before the later one",
  );
  calls[2]!.answer(true);
  assert.equal(await first, true, "the pass ahead gets the answer of its second run");
  await settle();
  calls[3]!.answer(false);
  assert.equal(await third, false);
  const ends = events.flatMap((e) => (e.type === "test-end" ? [`${e.pass} ${e.outcome}`] : []));
  assert.deepEqual(ends, [
    "ahead cancelled",
    "main interesting",
    "ahead interesting",
    "later not-interesting",
  ]);
});
