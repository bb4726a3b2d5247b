import assert from "node:assert/strict";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";

import { activeNow, noteSuspended, setActiveTimeout } from "../../src/oracle/clock.js";

test("setActiveTimeout does not count time reported as suspended", async () => {
  const started = performance.now();
  const activeStarted = activeNow();
  const fired = new Promise<number>((done) => setActiveTimeout(() => done(performance.now()), 200));
  await sleep(50);
  noteSuspended(400); // as if whittle had been stopped for 400 ms
  const at = await fired;
  // 200 ms of active time plus the 400 ms "pause": never before 600 ms of wall time (late is fine).
  assert.ok(at - started >= 590, `fired after ${Math.round(at - started)} ms`);
  assert.ok(activeNow() - activeStarted >= 195, "active time went on for the 200 ms");
});

test("a cancelled setActiveTimeout never fires", async () => {
  let fired = false;
  const timer = setActiveTimeout(() => (fired = true), 30);
  timer.cancel();
  await sleep(100);
  assert.equal(fired, false);
});

test("setActiveTimeout never fires before its time, though Node's timers may", async () => {
  // Node's timers can fire a fraction of a millisecond early against performance.now(); a test
  // killed at its limit must have run for the whole limit (the timeout counters rely on it).
  const early: number[] = [];
  await Promise.all(
    Array.from({ length: 40 }, (_, i) => {
      const ms = 3 + (i % 7);
      const from = activeNow();
      return new Promise<void>((done) =>
        setActiveTimeout(() => {
          if (activeNow() - from < ms) early.push(activeNow() - from);
          done();
        }, ms),
      );
    }),
  );
  assert.deepEqual(early, []);
});
