/** The per-pass counts of StatsCollector: tests, bytes removed, time and timeouts, by the listener's clock. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { StatsCollector } from "../../src/reduce/stats.js";

const label = { kind: "complement" as const, index: 0, round: 1, granularity: 2 };

test("each pass's time runs from its start to its last event; timed-out tests count with their time", () => {
  let now = 0;
  const c = new StatsCollector("content", 100, () => now);
  const at = (ms: number): void => {
    now = ms;
  };
  at(10);
  c.listener({ type: "pass", pass: "a", units: 4, size: 100 });
  at(20);
  c.listener({ type: "test-start", pass: "a", id: 1, label, size: 50 });
  at(270);
  c.listener({ type: "test-end", pass: "a", id: 1, label, size: 50, outcome: "timeout" });
  at(280);
  c.listener({ type: "test-start", pass: "a", id: 2, label, size: 60 });
  at(300);
  c.listener({ type: "test-end", pass: "a", id: 2, label, size: 60, outcome: "interesting" });
  c.listener({ type: "improved", pass: "a", size: 60, content: new Uint8Array(60) });
  at(400);
  c.listener({ type: "pass", pass: "b", units: 2, size: 60 });
  at(450);
  c.listener({ type: "test-start", pass: "b", id: 3, label, size: 30 });
  at(460);
  c.listener({ type: "test-end", pass: "b", id: 3, label, size: 30, outcome: "not-interesting" });
  // The same pass again later (a pipeline may name one twice): its time adds up.
  at(500);
  c.listener({ type: "pass", pass: "a", units: 2, size: 60 });
  at(530);
  c.listener({ type: "test-start", pass: "a", id: 4, label, size: 30 });
  at(540);
  c.listener({ type: "test-end", pass: "a", id: 4, label, size: 30, outcome: "not-interesting" });
  // Taken for a timeout without a test: counted apart, no test, no time of its own.
  c.listener({ type: "timeout-skip", pass: "a", label });

  const { a, b } = c.stats.passes;
  assert.deepEqual(
    { ...a },
    {
      tests: 3,
      cacheHits: 0,
      syntaxSkips: 0,
      timeoutSkips: 1,
      improvements: 1,
      bytesRemoved: 40,
      ms: 290 + 40,
      timeouts: 1,
      timeoutMs: 250,
    },
  );
  assert.equal(b!.ms, 60);
  assert.equal(b!.timeouts, 0);
  assert.equal(c.stats.timeouts, 1);
  assert.equal(c.stats.timeoutSkips, 1);
  assert.equal(b!.timeoutSkips, 0);
});
