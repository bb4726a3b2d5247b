/**
 * The check of the empty input runs once the passes are ready and ask for their first test. With one
 * job their events are held until it is answered and their first test follows it; with more, their
 * first tests run beside it and only their answers wait. When it is interesting nothing they did
 * shows.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { NextIf } from "../../src/outcome.js";
import { atomPipeline } from "../../src/passes/atoms.js";
import type { Pass } from "../../src/passes/pass.js";
import type { Oracle } from "../../src/reduce/evaluator.js";
import type { ReductionEvent } from "../../src/reduce/events.js";
import { reduce } from "../../src/reduce/reduce.js";

const input = Buffer.from(
  Array.from({ length: 16 }, (_, i) => (i === 5 ? "KEEP\n" : `line ${i}\n`)).join(""),
);
const keeps = (c: Uint8Array): boolean => Buffer.from(c).includes("KEEP");

/**
 * The line pass, noting when it starts; it first keeps the event loop busy for 50 ms, as a parse
 * would. `fail` makes it throw at once instead.
 */
function watchedPass(log: string[], fail?: Error): Pass {
  const [lines] = atomPipeline("line");
  return {
    name: lines!.name,
    run: (context) => {
      log.push("pass starts");
      if (fail) return Promise.reject(fail);
      const until = performance.now() + 50;
      while (performance.now() < until);
      return lines!.run(context);
    },
  };
}

/** An oracle whose answer for the empty input comes after 50 ms, noting when. */
function slowEmpty(log: string[], emptyIsInteresting = false): Oracle {
  return async (c) => {
    if (c.length > 0) return keeps(c);
    log.push("empty asked");
    await sleep(50);
    log.push("empty answered");
    return emptyIsInteresting;
  };
}

test("the empty input is checked once the passes are ready, and their events come after its answer", async () => {
  const log: string[] = [];
  const events: ReductionEvent[] = [];
  const result = await reduce(input, slowEmpty(log), {
    atom: "line",
    jobs: 1,
    assumeInteresting: true,
    pipeline: [watchedPass(log)],
    onEvent: (e) => events.push(e),
  });
  assert.equal(Buffer.from(result.output).toString(), "KEEP\n");
  // The pass's busy start did not run while the check's test ran (it would delay its answer).
  assert.deepEqual(log, ["pass starts", "empty asked", "empty answered"]);
  // As if the check had come first: its event, then the pass's, then the tests.
  assert.equal(events[0]!.type, "check");
  assert.equal(events[1]!.type, "pass");
  assert.ok(events.findIndex((e) => e.type === "test-start") > 1);
});

test("with one job, the first test is hinted as the follow-up of the empty input's check", async () => {
  const hints: { during: "check" | "test"; content: Uint8Array; nextIf: NextIf | undefined }[] = [];
  const tested: Uint8Array[] = [];
  let checking = false;
  const oracle: Oracle = Object.assign(
    async (c: Uint8Array) => {
      tested.push(c);
      checking = c.length === 0;
      await sleep(c.length === 0 ? 50 : 1);
      return keeps(c);
    },
    {
      prepare: (content: Uint8Array, nextIf?: NextIf) => {
        hints.push({ during: checking ? "check" : "test", content, nextIf });
      },
    },
  );
  await reduce(input, oracle, { atom: "line", jobs: 1, assumeInteresting: true });
  // While the check ran: one hint, for the next test if the check is not interesting.
  const duringCheck = hints.filter((h) => h.during === "check");
  assert.equal(duringCheck.length, 1);
  assert.equal(duringCheck[0]!.nextIf, "not-interesting");
  assert.equal(tested[0]!.length, 0);
  assert.equal(tested[1], duringCheck[0]!.content, "the hinted candidate is the first test");
});

test("an interesting empty input: nothing the passes did shows", async () => {
  const log: string[] = [];
  const events: ReductionEvent[] = [];
  const result = await reduce(input, slowEmpty(log, true), {
    atom: "line",
    jobs: 1,
    assumeInteresting: true,
    pipeline: [watchedPass(log)],
    onEvent: (e) => events.push(e),
  });
  assert.equal(result.kind, "done");
  assert.ok(result.kind === "done" && result.emptyIsInteresting);
  assert.equal(result.output.length, 0);
  assert.equal(result.stats.tests, 0);
  assert.deepEqual(log, ["pass starts", "empty asked", "empty answered"]);
  assert.deepEqual(
    events.map((e) => e.type),
    ["check", "improved"],
  );
});

/**
 * An oracle whose tests take 20 ms and the empty input's 50 ms, noting when each starts and ends and
 * the most tests under way at once.
 */
function besideOracle(log: string[], emptyIsInteresting: boolean): Oracle & { most: number } {
  let running = 0;
  const oracle = Object.assign(
    async (c: Uint8Array, signal: AbortSignal) => {
      running++;
      oracle.most = Math.max(oracle.most, running);
      try {
        const what = c.length === 0 ? "empty" : "test";
        log.push(`${what} asked`);
        await sleep(c.length === 0 ? 50 : 20, undefined, { signal }).catch(() => undefined);
        log.push(`${what} answered`);
        return c.length === 0 ? emptyIsInteresting : keeps(c);
      } finally {
        running--;
      }
    },
    { most: 0 },
  );
  return oracle;
}

test("with parallel jobs the first tests run beside the check of the empty input, to the same result", async () => {
  const log: string[] = [];
  const oracle = besideOracle(log, false);
  const events: ReductionEvent[] = [];
  // Split at once into single lines: the first round has more candidates than slots.
  const result = await reduce(input, oracle, {
    atom: "line",
    splitFactor: "inf",
    jobs: 3,
    assumeInteresting: true,
    onEvent: (e) => events.push(e),
  });
  assert.equal(Buffer.from(result.output).toString(), "KEEP\n");
  assert.equal(log[0], "empty asked");
  assert.ok(log.indexOf("test asked") < log.indexOf("empty answered"), "a test started during the check");
  assert.equal(oracle.most, 3, "the check takes one of the 3 slots");
  // No pass moved on before the check was answered: the first improvement comes after its event.
  const check = events.findIndex((e) => e.type === "check");
  assert.ok(check >= 0 && check < events.findIndex((e) => e.type === "improved"));
});

test("with parallel jobs and an interesting empty input, the tests beside the check are cancelled", async () => {
  const log: string[] = [];
  const events: ReductionEvent[] = [];
  const oracle = besideOracle(log, true);
  // The tests take longer than the check: they are still under way when it is answered.
  const slow: Oracle = (c, signal) =>
    c.length === 0 ? oracle(c, signal) : sleep(30).then(() => oracle(c, signal));
  const result = await reduce(input, slow, {
    atom: "line",
    jobs: 2,
    assumeInteresting: true,
    onEvent: (e) => events.push(e),
  });
  assert.ok(result.kind === "done" && result.emptyIsInteresting);
  assert.equal(result.output.length, 0);
  assert.ok(events.some((e) => e.type === "test-end" && e.outcome === "cancelled"));
  assert.deepEqual(
    events.filter((e) => e.type === "improved").map((e) => e.type === "improved" && e.pass),
    ["check"],
  );
});

test("a pass that fails before its first test: the check of the empty input still comes, and its answer first", async () => {
  for (const emptyIsInteresting of [false, true]) {
    const log: string[] = [];
    const result = await reduce(input, slowEmpty(log, emptyIsInteresting), {
      atom: "line",
      jobs: 1,
      assumeInteresting: true,
      pipeline: [watchedPass(log, new Error("the pass broke"))],
    });
    assert.deepEqual(log, ["pass starts", "empty asked", "empty answered"], "the check ran all the same");
    if (emptyIsInteresting) {
      assert.ok(result.kind === "done" && result.emptyIsInteresting);
    } else {
      assert.equal(result.kind, "failed");
      assert.ok(result.kind === "failed" && String(result.error).includes("the pass broke"));
      assert.equal(result.output, input);
    }
  }
});

test("stopped during the check of the empty input: stopped, and no test starts", async () => {
  const controller = new AbortController();
  const events: ReductionEvent[] = [];
  const oracle: Oracle = async (c, signal) => {
    if (c.length > 0) return keeps(c);
    setTimeout(() => controller.abort(new Error("Ctrl-C")), 10);
    await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
    throw signal.reason;
  };
  const result = await reduce(input, oracle, {
    atom: "line",
    jobs: 1,
    assumeInteresting: true,
    signal: controller.signal,
    onEvent: (e) => events.push(e),
  });
  assert.equal(result.kind, "stopped");
  assert.equal(result.output, input);
  assert.deepEqual(events, []);
});
