import assert from "node:assert/strict";
import { test } from "node:test";
import {
  formatPercent,
  formatSaved,
  LIVE_TICK_MS,
  PLAIN_TICK_MS,
  SAME_LINE_MS,
  Progress,
  statusLine,
  type ProgressClock,
} from "../../src/cli/progress.js";
import type { TestLabel } from "../../src/ddmin/ddmin.js";
import { LEARN_AFTER } from "../../src/reduce/syntax-filter.js";

const label: TestLabel = { kind: "complement", index: 0, round: 1, granularity: 4 };

/** A fake clock: time moves only when a test says so, and due interval timers fire then. */
class FakeClock implements ProgressClock {
  t = 0;
  private timers: { tick: () => void; every: number; due: number; active: boolean }[] = [];
  now = (): number => this.t;
  setInterval = (tick: () => void, every: number): { unref(): void } => {
    const timer = { tick, every, due: this.t + every, active: true, unref: () => undefined };
    this.timers.push(timer);
    return timer;
  };
  clearInterval = (handle: object): void => {
    for (const timer of this.timers) if ((timer as object) === handle) timer.active = false;
  };
  /** Moves time forward by `ms`, firing every due timer on the way. */
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      const next = this.timers.filter((x) => x.active).sort((a, b) => a.due - b.due)[0];
      if (next === undefined || next.due > end) break;
      this.t = next.due;
      next.due += next.every;
      next.tick();
    }
    this.t = end;
  }
  get activeTimers(): number {
    return this.timers.filter((x) => x.active).length;
  }
}

function feed(progress: Progress, clock: FakeClock): void {
  progress.listener({ type: "pass", pass: "ddmin:line", units: 10, size: 1000 });
  progress.listener({ type: "round", round: 1, granularity: 4, size: 10 });
  for (let i = 1; i <= 20; i++) {
    clock.t += 300;
    progress.listener({ type: "test-start", pass: "ddmin:line", id: i, label, size: 750 });
    progress.listener({
      type: "test-end",
      pass: "ddmin:line",
      id: i,
      label,
      size: 750,
      outcome: i === 3 ? "timeout" : "not-interesting",
    });
  }
  progress.listener({ type: "cache-hit", pass: "ddmin:line", label, size: 500, outcome: "not-interesting" });
  progress.listener({ type: "improved", pass: "ddmin:line", size: 250, content: new Uint8Array(250) });
}

test("the status line shows size vs. original, tests and rate, cache hits, syntax skips, timeouts, time, pass and granularity", () => {
  const state = {
    originalBytes: 1000,
    checkLimitMs: undefined,
    bytes: 250,
    tests: 20,
    cacheHits: 1,
    syntaxSkips: 0,
    timeouts: 1,
    pass: "ddmin:line",
    granularity: 4,
  };
  assert.equal(
    statusLine(state, 6000),
    "250 B of 1000 B (25.0%) · 20 tests (3.3/s) · 1 cache hits · 1 timeouts · 6.0 s · ddmin:line, n=4",
  );
  assert.equal(
    statusLine({ ...state, syntaxSkips: 7 }, 6000),
    "250 B of 1000 B (25.0%) · 20 tests (3.3/s) · 1 cache hits · 7 syntax skips · 1 timeouts · 6.0 s · ddmin:line, n=4",
  );
});

test("candidates the syntax filter skips are counted on the line, not as tests; verbose names each", () => {
  const clock = new FakeClock();
  const live: string[] = [];
  const p = new Progress("live", 100, { write: (s: string) => live.push(s), columns: 300 }, clock);
  p.listener({ type: "pass", pass: "ddmin:token", units: 40, size: 100 });
  p.listener({ type: "test-start", pass: "ddmin:token", id: 1, label, size: 80 });
  p.listener({ type: "test-end", pass: "ddmin:token", id: 1, label, size: 80, outcome: "not-interesting" });
  for (let i = 0; i < 3; i++) {
    p.listener({ type: "syntax-skip", pass: "ddmin:token", label, size: 70, errors: 2, allowed: 0 });
  }
  p.listener({ type: "improved", pass: "ddmin:token", size: 60, content: new Uint8Array(60) });
  assert.match(live.at(-1)!, / · 1 tests \(.*\) · 0 cache hits · 3 syntax skips · /);
  p.finish();

  const lines: string[] = [];
  const v = new Progress("verbose", 100, { write: (s: string) => lines.push(s) }, clock);
  v.listener({ type: "syntax-skip", pass: "ddmin:token", label, size: 70, errors: 2, allowed: 1 });
  v.finish();
  assert.deepEqual(lines, [
    "whittle: skipped (complement 1/4, 70 B): 2 syntax errors, the best so far has 1\n",
  ]);
});

test("verbose says when the syntax filter of an original with errors starts checking every candidate, or stops", () => {
  const lines: string[] = [];
  const v = new Progress("verbose", 100, { write: (s: string) => lines.push(s) }, new FakeClock());
  v.listener({ type: "syntax-filter", pass: "ddmin:token", scope: "every", why: "rejected" });
  v.listener({ type: "syntax-filter", pass: "ddmin:token", scope: "pairs", why: "interesting" });
  v.finish();
  assert.deepEqual(lines, [
    `whittle: syntax filter: none of ${LEARN_AFTER} candidates with new syntax errors was interesting; checking every candidate from now on\n`,
    "whittle: syntax filter: a new best has new syntax errors; checking only pairs from now on\n",
  ]);
});

test("on a terminal the line is redrawn in place; in a log, plain lines come every few seconds", () => {
  const clock = new FakeClock();
  const live: string[] = [];
  const p1 = new Progress("live", 1000, { write: (s: string) => live.push(s), columns: 200 }, clock);
  feed(p1, clock);
  p1.finish();
  assert.ok(live.length > 5 && live.every((s) => s.startsWith("\r\x1b[2K")), "redrawn in place");
  assert.match(
    live.at(-2)!,
    /250 B of 1000 B \(25\.0%\) · 20 tests .* 1 cache hits · 1 timeouts .* ddmin:line, 10 units, n=4/,
  );
  assert.equal(live.at(-1), "\r\x1b[2K", "cleared at the end");

  clock.t = 0;
  const plain: string[] = [];
  const p2 = new Progress("plain", 1000, { write: (s: string) => plain.push(s) }, clock);
  feed(p2, clock);
  assert.ok(plain.length >= 1 && plain.length <= 2, `a line every 5 s of 6 s: ${plain.length}`);
  assert.ok(plain.every((s) => s.startsWith("whittle: ") && s.endsWith("\n")));

  const quiet: string[] = [];
  feed(new Progress("quiet", 1000, { write: (s: string) => quiet.push(s) }, clock), clock);
  assert.deepEqual(quiet, []);
});

test("with no events but a pass's start, the live line keeps ticking once a second; the log prints a line when something besides the clock changed, or a minute later", () => {
  const clock = new FakeClock();
  const live: string[] = [];
  const p = new Progress("live", 1000, { write: (s: string) => live.push(s), columns: 200 }, clock);
  p.listener({ type: "pass", pass: "ddmin:line", units: 10, size: 1000 });
  const before = live.length;
  clock.advance(10 * LIVE_TICK_MS);
  const ticks = live.slice(before);
  assert.equal(ticks.length, 10, "one redraw per second");
  assert.match(ticks[0]!, / 1\.0 s · /);
  assert.match(ticks[9]!, / 10\.0 s · /, "the elapsed time moves");
  p.finish();
  assert.equal(clock.activeTimers, 0, "finish() stops the timer");
  clock.advance(5 * LIVE_TICK_MS);
  assert.equal(live.length, before + 11, "nothing more after finish (only the clearing write)");

  const log: string[] = [];
  const q = new Progress("plain", 1000, { write: (s: string) => log.push(s) }, clock);
  clock.advance(3 * PLAIN_TICK_MS);
  assert.deepEqual(log, [], "no pass yet: no '0 tests … n=0' line");
  q.listener({ type: "pass", pass: "ddmin:line", units: 10, size: 1000 });
  clock.advance(3 * PLAIN_TICK_MS);
  assert.equal(log.length, 1, "the same line is not printed again");
  assert.match(log[0]!, /^whittle: 1000 B of 1000 B \(100\.0%\) · 0 tests .* ddmin:line, 10 units\n$/);
  q.listener({ type: "round", round: 1, granularity: 2, size: 10 });
  clock.advance(PLAIN_TICK_MS);
  assert.equal(log.length, 2);
  assert.match(log[1]!, /ddmin:line, 10 units, n=2\n$/);
  clock.advance(SAME_LINE_MS);
  assert.equal(log.length, 3, "a sign of life after a minute of the same line");
  q.finish();
});

test("tree passes show the level they work on and the size in tokens", () => {
  const clock = new FakeClock();
  const live: string[] = [];
  const p = new Progress("live", 100, { write: (s: string) => live.push(s), columns: 300 }, clock);
  p.listener({ type: "pass", pass: "hdd:prune*", units: 40, size: 100 });
  p.listener({ type: "level", pass: "hdd:prune*", iteration: 0, level: 3, nodes: 12, tokens: 30 });
  p.listener({ type: "improved", pass: "hdd:prune*", size: 60, content: new Uint8Array(60) });
  assert.match(live.at(-1)!, /hdd:prune\*, depth 3 \(12 nodes; best: 30 tokens\)$/, "HDDr: no level count");
  p.listener({ type: "level", pass: "hdd:prune*", iteration: 0, level: 3, nodes: 12, tokens: 30, levels: 9 });
  clock.t += 200; // the line is redrawn at most every 100 ms, but for improvements
  p.listener({ type: "round", round: 1, granularity: 2, size: 12 });
  assert.match(live.at(-1)!, /hdd:prune\*, level 4 of 9 \(12 nodes; best: 30 tokens\), n=2$/);
  p.listener({ type: "pass", pass: "ddmin:char", units: 60, size: 60 });
  p.listener({ type: "improved", pass: "ddmin:char", size: 50, content: new Uint8Array(50) });
  assert.doesNotMatch(live.at(-1)!, /level/, "a flat pass has no level");
  p.finish();
});

test("a scan shows the unit (or pair) it is at, and the largest-nodes-first pass the largest node left", () => {
  const clock = new FakeClock();
  const live: string[] = [];
  const p = new Progress("live", 100_000, { write: (s: string) => live.push(s), columns: 300 }, clock);
  const redraw = (): void => {
    clock.t += 200; // the line is redrawn at most every 100 ms, but for improvements
    p.listener({ type: "cache-hit", pass: "x", label, size: 1, outcome: "not-interesting" });
  };
  p.listener({ type: "pass", pass: "hdd:biggest", units: 900, size: 100_000 });
  p.listener({ type: "frontier", pass: "hdd:biggest", largest: 20_480, stop: 98 });
  redraw();
  assert.match(live.at(-1)!, /hdd:biggest, largest node left 20\.0 KiB \(stops under 98 B\)$/);
  p.listener({ type: "pass", pass: "ddmin:token", units: 82, size: 900 });
  p.listener({ type: "round", round: 1, granularity: 1, size: 82, at: 37 });
  redraw();
  assert.match(live.at(-1)!, /ddmin:token, unit 38 of 82$/, "no n= for a scan");
  // A run grows at the scan's place: the line stays there.
  p.listener({ type: "round", round: 2, granularity: 4, size: 81 });
  redraw();
  assert.match(live.at(-1)!, /ddmin:token, unit 38 of 82$/);
  p.listener({ type: "round", round: 3, granularity: 2, size: 80, at: 11 });
  redraw();
  assert.match(live.at(-1)!, /ddmin:token, pair 12 of 79$/);
  // ddmin (a short list) and tree levels show what they did before.
  p.listener({ type: "pass", pass: "ddmin:blank", units: 9, size: 800 });
  p.listener({ type: "round", round: 1, granularity: 2, size: 9 });
  redraw();
  assert.match(live.at(-1)!, /ddmin:blank, 9 units, n=2$/);
  p.finish();
});

test("during the initial check the line says what it waits for, and for how long", () => {
  const clock = new FakeClock();
  const live: string[] = [];
  const p = new Progress("live", 2048, { write: (s: string) => live.push(s), columns: 300 }, clock);
  p.checking(300_000);
  clock.advance(12 * LIVE_TICK_MS);
  assert.match(live.at(-1)!, /waiting for the test for 12\.0 s \(limit 5 min 0 s\)/);
  p.listener({ type: "check", what: "empty", size: 0, outcome: "not-interesting" });
  p.listener({ type: "pass", pass: "ddmin:line", units: 10, size: 2048 });
  clock.advance(LIVE_TICK_MS);
  assert.match(live.at(-1)!, /2048 B of 2048 B .* 1\.0 s · ddmin:line/, "the reduction's own clock");
  p.finish();

  const log: string[] = [];
  const q = new Progress("plain", 2048, { write: (s: string) => log.push(s) }, clock);
  q.checking(60_000);
  clock.advance(2 * PLAIN_TICK_MS);
  q.finish();
  assert.equal(log.length, 2);
  assert.match(log[1]!, /^whittle: checking .*waiting for the test for 10\.0 s \(limit 1 min 0 s\)\n$/);
});

test("the line names the pass's place in the pipeline and, after a minute, what the last minute removed", () => {
  const clock = new FakeClock();
  const live: string[] = [];
  const pipeline = ["hdd:coarse", "ddmin:token", "ddmin:blank", "ddmin:token"];
  const p = new Progress(
    "live",
    10_000,
    { write: (s: string) => live.push(s), columns: 300 },
    clock,
    pipeline,
  );
  p.listener({ type: "pass", pass: "hdd:coarse", units: 40, size: 10_000 });
  clock.advance(LIVE_TICK_MS);
  assert.match(live.at(-1)!, /hdd:coarse \(pass 1\/4\)/);
  clock.advance(9_000);
  p.listener({ type: "improved", pass: "hdd:coarse", size: 6000, content: new Uint8Array(6000) });
  assert.doesNotMatch(live.at(-1)!, /last min/, "not in the first minute");
  clock.advance(40_000);
  p.listener({ type: "pass", pass: "ddmin:token", units: 40, size: 6000 });
  p.listener({ type: "improved", pass: "ddmin:token", size: 5000, content: new Uint8Array(5000) });
  clock.advance(21_000); // t = 71 s: the improvement at 10 s is out of the window, the one at 50 s in it
  assert.match(live.at(-1)!, /5000 B of 9\.8 KiB \(50\.0%, −1000 B in the last min\)/);
  assert.match(live.at(-1)!, /ddmin:token \(pass 2\/4\)/);
  p.listener({ type: "pass", pass: "ddmin:blank", units: 4, size: 5000 });
  p.listener({ type: "pass", pass: "ddmin:token", units: 40, size: 5000 });
  clock.advance(LIVE_TICK_MS);
  assert.match(live.at(-1)!, /ddmin:token \(pass 4\/4\)/, "a pass named twice: its later place");
  clock.advance(61_000);
  assert.match(live.at(-1)!, /−0 B in the last min/);
  p.finish();
});

test("shares keep enough digits never to show 100% (or 0%) for a result that is not empty", () => {
  assert.equal(formatSaved(111_504, 40), "99.96%");
  assert.equal(formatSaved(111_504, 0), "100.0%");
  assert.equal(formatSaved(1000, 250), "75.0%");
  assert.equal(formatSaved(10_000_000, 1), "99.99999%");
  assert.equal(formatSaved(0, 0), "0.0%");
  assert.equal(formatPercent(40, 111_504), "0.04%");
  assert.equal(formatPercent(111_504, 111_504), "100.0%");
  assert.equal(formatPercent(111_500, 111_504), "99.996%");
});
