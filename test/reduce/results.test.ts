/**
 * reduce() always answers with a result that carries the best input so far — done, stopped or
 * failed — and its events pair up: every test-start has its test-end.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { reduce, type ReductionEvent } from "../../src/index.js";

const lines = (n: number, keep: number): Buffer =>
  Buffer.from(Array.from({ length: n }, (_, i) => (i === keep ? "KEEP\n" : `line ${i}\n`)).join(""));

test("an oracle that throws mid-run: the result is failed, with the error and the best input so far", async () => {
  const input = lines(64, 40);
  let calls = 0;
  const events: ReductionEvent[] = [];
  const result = await reduce(
    input,
    (c) => {
      if (++calls === 12) throw new Error("the compiler crashed differently");
      return Buffer.from(c).includes("KEEP");
    },
    { atom: "line", jobs: 2, onEvent: (e) => events.push(e) },
  );
  assert.equal(result.kind, "failed");
  if (result.kind !== "failed") return;
  assert.match(String(result.error), /the compiler crashed differently/);
  assert.ok(Buffer.from(result.output).includes("KEEP"), "the best so far is interesting");
  assert.ok(result.output.length < input.length, "and some progress was kept");
  const starts = events.filter((e) => e.type === "test-start").map((e) => e.id);
  const ends = events.filter((e) => e.type === "test-end").map((e) => e.id);
  assert.deepEqual(
    [...ends].sort((a, b) => a - b),
    [...starts].sort((a, b) => a - b),
  );
  assert.ok(events.some((e) => e.type === "test-end" && e.outcome === "error"));
});

test("an abort during the initial check returns stopped with the input, and runs no test", async () => {
  const controller = new AbortController();
  let tests = 0;
  const result = await reduce(
    lines(8, 3),
    (_c, signal) =>
      new Promise<boolean>((_resolve, reject) => {
        tests++;
        setTimeout(() => controller.abort(new Error("Ctrl-C")), 10);
        signal.addEventListener("abort", () => reject(signal.reason as Error), { once: true });
      }),
    { atom: "line", signal: controller.signal },
  );
  assert.equal(result.kind, "stopped");
  assert.deepEqual(Buffer.from(result.output), lines(8, 3));
  assert.equal(tests, 1, "only the initial check ran");
  assert.equal(result.stats.tests, 0);
});

test("the empty input is checked first: when it is interesting, the result is empty and flagged", async () => {
  const seen: number[] = [];
  const result = await reduce(
    lines(16, 5),
    (c) => {
      seen.push(c.length);
      return true;
    },
    { atom: "both", jobs: 1 },
  );
  assert.equal(result.kind, "done");
  if (result.kind !== "done") return;
  assert.equal(result.emptyIsInteresting, true);
  assert.equal(result.output.length, 0);
  assert.deepEqual(seen, [lines(16, 5).length, 0], "the original, then the empty input, nothing else");
  assert.equal(result.stats.checks, 2);
  assert.equal(result.stats.tests, 0, "checks are counted apart from the reduction's tests");
});

test("when the empty input is not interesting the reduction goes on as usual", async () => {
  const result = await reduce(lines(16, 5), (c) => Buffer.from(c).includes("KEEP"), {
    atom: "line",
    jobs: 1,
  });
  assert.equal(result.kind, "done");
  if (result.kind !== "done") return;
  assert.equal(result.emptyIsInteresting, false);
  assert.equal(Buffer.from(result.output).toString(), "KEEP\n");
  assert.equal(result.stats.checks, 2);
});

test("a candidate whose test was killed by a signal is not cached: asked again, it is run again", async () => {
  // At granularity 2, ∇2 is Δ1. Δ1's test is killed; when the complement scan reaches ∇2 it must be
  // run again, where a not-interesting answer would have been a cache hit.
  const input = Buffer.from(["x0", "A", "x2", "x3", "x4", "x5", "B", "x7"].map((l) => `${l}\n`).join(""));
  const interesting = (t: string): boolean => t.includes("A") && t.includes("B");
  const asked = new Map<string, number>();
  let killed: string | undefined;
  const result = await reduce(
    input,
    (c) => {
      const key = Buffer.from(c).toString();
      asked.set(key, (asked.get(key) ?? 0) + 1);
      if (killed === undefined && key !== "" && !interesting(key)) {
        killed = key;
        return "killed";
      }
      return interesting(key);
    },
    { atom: "line", jobs: 1, strategy: "subsets-first", ddStar: false, cache: "content" },
  );
  assert.equal(result.kind, "done");
  assert.equal(result.stats.killed, 1);
  assert.equal(killed, "x0\nA\nx2\nx3\n", "Δ1 was the killed test");
  assert.equal(asked.get(killed), 2, "and it ran again as ∇2");
  assert.equal(asked.get("x4\nx5\nB\nx7\n"), 1, "while Δ2 = ∇1, not interesting, was a cache hit");
});
