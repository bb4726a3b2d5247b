import { test } from "node:test";
import assert from "node:assert/strict";
import { TimeoutPolicy } from "../../src/oracle/timeout-policy.js";

test("with nothing observed, or only fast tests, the limit is the floor", () => {
  assert.equal(new TimeoutPolicy().limitMs(), 100);
  const policy = new TimeoutPolicy();
  policy.observeInitial(3);
  for (let i = 0; i < 100; i++) policy.observe("not-interesting", 2 + (i % 5));
  assert.equal(policy.limitMs(), 100);
  assert.equal(new TimeoutPolicy({ floorMs: 40 }).limitMs(), 40);
});

test("the floor grows with the jobs each core shares: 100 ms up to one a core, 250 ms from four", () => {
  const floor = (jobs: number, cpus: number): number => new TimeoutPolicy({ jobs, cpus }).limitMs();
  assert.equal(floor(1, 2), 100);
  assert.equal(floor(2, 2), 100);
  assert.equal(floor(2, 8), 100);
  assert.equal(floor(4, 2), 150);
  assert.equal(floor(6, 2), 200);
  assert.equal(floor(8, 2), 250);
  assert.equal(floor(64, 2), 250);
  // The floor holds under fast tests, whatever their quantile says.
  const loaded = new TimeoutPolicy({ jobs: 8, cpus: 2 });
  for (let i = 0; i < 100; i++) loaded.observe("not-interesting", 20);
  assert.equal(loaded.limitMs(), 250);
  assert.equal(new TimeoutPolicy({ jobs: 8, cpus: 2, floorMs: 40 }).limitMs(), 40);
});

test("a machine busy with other work raises the floor as its own jobs would", () => {
  let average = 8;
  const policy = new TimeoutPolicy({ jobs: 1, cpus: 2, loadAverage: () => average });
  assert.equal(policy.limitMs(), 250, "8 runnable tasks on 2 cores");
  // The load average is asked again when the limit is worked out again (after an observation).
  average = 3;
  policy.observe("not-interesting", 5);
  assert.equal(policy.limitMs(), 125);
  average = 0.5;
  policy.observe("not-interesting", 5);
  assert.equal(policy.limitMs(), 100, "an idle machine: the jobs' own load");
  assert.equal(new TimeoutPolicy({ jobs: 4, cpus: 2, loadAverage: () => 0 }).limitMs(), 150);
});

test("the initial check alone gives 10× its duration while few tests are known", () => {
  const policy = new TimeoutPolicy();
  policy.observeInitial(1000);
  assert.equal(policy.limitMs(), 10_000);
});

test("with enough observations the limit is 2× the 99th percentile of the slower class", () => {
  const policy = new TimeoutPolicy();
  // 100 uninteresting tests of 100…199 ms: the 99th percentile (nearest rank) is 198 ms.
  for (let i = 0; i < 100; i++) policy.observe("not-interesting", 100 + i);
  assert.equal(policy.limitMs(), 2 * 198);
  // A few slow interesting tests: their class's quantile (its maximum, with 3 samples) now rules.
  for (const ms of [300, 400, 500]) policy.observe("interesting", ms);
  assert.equal(policy.limitMs(), 2 * 500);
});

test("a single outlier among many does not move the quantile; the limit follows the recent window", () => {
  const policy = new TimeoutPolicy({ window: 100 });
  for (let i = 0; i < 99; i++) policy.observe("not-interesting", 150);
  policy.observe("not-interesting", 5000);
  assert.equal(policy.limitMs(), 300, "the 99th percentile of 100 samples ignores the one maximum");
  // Durations drift up (the machine gets busier): the window forgets the old ones.
  for (let i = 0; i < 100; i++) policy.observe("not-interesting", 400);
  assert.equal(policy.limitMs(), 800);
  // And back down.
  for (let i = 0; i < 100; i++) policy.observe("not-interesting", 40);
  assert.equal(policy.limitMs(), 100);
});

test("timeouts, killed and unresolved tests are not observations", () => {
  const policy = new TimeoutPolicy();
  for (let i = 0; i < 50; i++) {
    policy.observe("timeout", 60_000);
    policy.observe("killed", 60_000);
    policy.observe("unresolved", 60_000);
  }
  policy.observe("not-interesting", Number.NaN);
  policy.observe("not-interesting", -5);
  assert.equal(policy.limitMs(), 100);
});

test("many jobs on few cores raise the limit that the initial check gives", () => {
  const alone = new TimeoutPolicy({ jobs: 1, cpus: 2 });
  alone.observeInitial(100);
  assert.equal(alone.limitMs(), 1000);
  const loaded = new TimeoutPolicy({ jobs: 64, cpus: 2 });
  loaded.observeInitial(100);
  assert.equal(loaded.limitMs(), 32 * 1000, "each of 64 jobs gets 1/32 of a core");
  // Fewer jobs than cores: no raise.
  const spare = new TimeoutPolicy({ jobs: 2, cpus: 8 });
  spare.observeInitial(100);
  assert.equal(spare.limitMs(), 1000);
});

test("the limit never exceeds the ceiling and is a whole number of milliseconds", () => {
  const policy = new TimeoutPolicy({ ceilingMs: 20_000 });
  policy.observeInitial(10_000);
  assert.equal(policy.limitMs(), 20_000);
  const odd = new TimeoutPolicy({ floorMs: 1 });
  for (let i = 0; i < 30; i++) odd.observe("interesting", 10.1);
  assert.equal(odd.limitMs(), 21);
});
