import assert from "node:assert/strict";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { reduce, type ReductionEvent } from "../../src/index.js";

/** An in-process oracle that records every call, every abort, and how many calls are running. */
function recordingOracle(interesting: (text: string) => boolean, delayMs: (text: string) => number) {
  const log = { calls: 0, aborted: 0, running: 0, peak: 0 };
  const oracle = async (candidate: Uint8Array, signal: AbortSignal): Promise<boolean> => {
    const text = Buffer.from(candidate).toString();
    log.calls++;
    log.running++;
    log.peak = Math.max(log.peak, log.running);
    try {
      await sleep(delayMs(text), undefined, { signal });
      return interesting(text);
    } catch (error) {
      log.aborted++;
      throw error;
    } finally {
      log.running--;
    }
  };
  return { log, oracle };
}

const lines = (n: number): Buffer => Buffer.from(Array.from({ length: n }, (_, i) => `${i}\n`).join(""));

test("outstanding tests are cancelled once a round is decided, and nothing runs after reduce returns", async () => {
  // Interesting iff line 7 is present. Candidates without it are slow, so when a fast interesting
  // candidate decides a round, slower siblings are still running and must be cancelled.
  const { log, oracle } = recordingOracle(
    (t) => t.split("\n").includes("7"),
    (t) => (t.split("\n").includes("7") ? 1 : 50),
  );
  const events: ReductionEvent[] = [];
  const result = await reduce(lines(64), oracle, {
    atom: "line",
    jobs: 8,
    strategy: "complements-only",
    complementOrder: "forward",
    ddStar: false,
    onEvent: (e) => events.push(e),
  });
  assert.equal(Buffer.from(result.output).toString(), "7\n");
  assert.equal(log.running, 0, "no test is running when reduce returns");
  assert.ok(log.aborted > 0, "some tests were cancelled");
  const cancelled = events.filter((e) => e.type === "test-end" && e.outcome === "cancelled").length;
  assert.equal(result.stats.cancelled, cancelled);
  assert.ok(cancelled >= log.aborted);
  assert.ok(log.peak <= 8);
  const callsAtReturn = log.calls;
  await sleep(100);
  assert.equal(log.calls, callsAtReturn, "no test starts after reduce returns");
});

test("aborting a reduction stops it at once with the best interesting input so far", async () => {
  const controller = new AbortController();
  const { log, oracle } = recordingOracle(
    (t) => t.split("\n").includes("3"),
    () => 5,
  );
  let improvements = 0;
  const result = await reduce(lines(200), oracle, {
    atom: "line",
    jobs: 2,
    strategy: "complements-only",
    splitFactor: Infinity, // single-line complements: many small steps, so there is time to abort
    onEvent: (e) => {
      if (e.type === "improved" && ++improvements === 3) controller.abort(new Error("user pressed Ctrl-C"));
    },
    signal: controller.signal,
  });
  assert.equal(result.kind, "stopped");
  const text = Buffer.from(result.output).toString();
  assert.ok(text.split("\n").includes("3"), "the best so far is interesting");
  assert.ok(text.length < lines(200).length, "and smaller than the input");
  assert.equal(log.running, 0);
  if (result.kind === "stopped") assert.match(String(result.reason), /Ctrl-C/);
});

test("a reduction over an input that is not interesting fails up front, naming the problem", async () => {
  await assert.rejects(
    reduce(Buffer.from("a\nb\n"), () => false),
    (error: Error & { code?: string }) =>
      error.code === "not-interesting" && /not interesting/.test(error.message),
  );
});
