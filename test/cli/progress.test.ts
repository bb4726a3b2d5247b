import assert from "node:assert/strict";
import { test } from "node:test";
import { Progress, statusLine } from "../../src/cli/progress.js";
import type { TestLabel } from "../../src/ddmin/ddmin.js";

const label: TestLabel = { kind: "complement", index: 0, round: 1, granularity: 4 };

function feed(progress: Progress, clock: { t: number }): void {
  progress.listener({ type: "pass", pass: 0, atom: "line", atoms: 10, size: 1000 });
  progress.listener({ type: "round", round: 1, granularity: 4, size: 10 });
  for (let i = 1; i <= 20; i++) {
    clock.t += 300;
    progress.listener({ type: "test-start", id: i, label, size: 750 });
    progress.listener({
      type: "test-end",
      id: i,
      label,
      size: 750,
      outcome: i === 3 ? "timeout" : "not-interesting",
    });
  }
  progress.listener({ type: "cache-hit", label, size: 500, outcome: "not-interesting" });
  progress.listener({ type: "improved", size: 250, content: new Uint8Array(250) });
}

test("the status line shows size vs. original, tests and rate, cache hits, timeouts, time, pass and granularity", () => {
  const line = statusLine(
    { originalBytes: 1000, bytes: 250, tests: 20, cacheHits: 1, timeouts: 1, pass: "line", granularity: 4 },
    6000,
  );
  assert.equal(
    line,
    "250 B of 1000 B (25.0%) · 20 tests (3.3/s) · 1 cache hits · 1 timeouts · 6.0 s · line pass, n=4",
  );
});

test("on a terminal the line is redrawn in place; in a log, plain lines come every few seconds", () => {
  const clock = { t: 0 };
  const live: string[] = [];
  const p1 = new Progress("live", 1000, { write: (s: string) => live.push(s), columns: 200 }, () => clock.t);
  feed(p1, clock);
  p1.finish();
  assert.ok(live.length > 5 && live.every((s) => s.startsWith("\r\x1b[2K")), "redrawn in place");
  assert.match(
    live.at(-2)!,
    /250 B of 1000 B \(25\.0%\) · 20 tests .* 1 cache hits · 1 timeouts .* line pass, n=4/,
  );
  assert.equal(live.at(-1), "\r\x1b[2K", "cleared at the end");

  clock.t = 0;
  const plain: string[] = [];
  const p2 = new Progress("plain", 1000, { write: (s: string) => plain.push(s) }, () => clock.t);
  feed(p2, clock);
  assert.ok(plain.length >= 1 && plain.length <= 2, `a line every 5 s of 6 s: ${plain.length}`);
  assert.ok(plain.every((s) => s.startsWith("whittle: ") && s.endsWith("\n")));

  const quiet: string[] = [];
  feed(new Progress("quiet", 1000, { write: (s: string) => quiet.push(s) }, () => clock.t), clock);
  assert.deepEqual(quiet, []);
});
