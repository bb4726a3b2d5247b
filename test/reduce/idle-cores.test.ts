/** IdleCores: idle cores over the last full interval, from the machine's CPU times. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { IdleCores, defaultSpare, sampleCpuTimes, type CpuTimes } from "../../src/reduce/idle-cores.js";

test("idle cores are the idle share of the CPU time over the last interval times the cores; every core until one has passed", () => {
  let now = 0;
  let times: CpuTimes = { idle: 0, total: 0 };
  const idle = new IdleCores(
    2,
    () => times,
    () => now,
    250,
  );
  assert.equal(idle.idle(), 2, "no interval yet: every core");
  assert.equal(idle.spare(), true);
  // 250 ms on 2 cores: 500 ms of CPU time, 100 of them idle (one core busy, the other 80 %).
  now = 250;
  times = { idle: 100, total: 500 };
  assert.equal(idle.idle(), 0.4);
  assert.equal(idle.spare(), false);
  // Within the next interval the last reading holds.
  now = 300;
  times = { idle: 400, total: 600 };
  assert.equal(idle.idle(), 0.4);
  // The next full interval (250 → 500 ms): 400 of 500 ms idle.
  now = 500;
  times = { idle: 500, total: 1000 };
  assert.equal(idle.idle(), 1.6);
  assert.equal(idle.spare(), true);
});

test("the machine's CPU times grow, with idle time a part of the total", () => {
  const first = sampleCpuTimes();
  assert.ok(first.total > 0 && first.idle >= 0 && first.idle <= first.total);
});

test("with more jobs than cores every speculative test may start, whatever the load: the tests wait rather than compute", () => {
  const spare = defaultSpare(8, 2);
  for (let i = 0; i < 3; i++) assert.equal(spare(), true);
  // As many jobs as cores: the machine's idle time decides; before a full interval, every core counts as idle.
  assert.equal(defaultSpare(2, 2)(), true);
});
