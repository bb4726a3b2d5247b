import assert from "node:assert/strict";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { findInteresting } from "../../src/ddmin/round.js";

/** An evaluation that answers after `delays[p]` ms, honouring its signal, and records what happened. */
function recorder(interesting: (p: number) => boolean, delays: (p: number) => number) {
  const log = { started: [] as number[], aborted: [] as number[], running: 0 };
  const evaluate = async (p: number, signal: AbortSignal): Promise<boolean> => {
    log.started.push(p);
    log.running++;
    try {
      await sleep(delays(p), undefined, { signal });
      return interesting(p);
    } catch (error) {
      log.aborted.push(p);
      throw error;
    } finally {
      log.running--;
    }
  };
  return { log, evaluate };
}

test("sequentially, candidates are tested in order up to the first interesting one", async () => {
  const { log, evaluate } = recorder(
    (p) => p >= 3,
    () => 1,
  );
  assert.equal(await findInteresting(8, evaluate, { jobs: 1, firstWins: false }), 3);
  assert.deepEqual(log.started, [0, 1, 2, 3]);
});

test("deterministic parallel rounds return the lowest interesting position even if a later one finishes first", async () => {
  // Position 2 is interesting but slow; position 5 is interesting and fast.
  const { log, evaluate } = recorder(
    (p) => p === 2 || p === 5,
    (p) => (p === 2 ? 60 : 5),
  );
  assert.equal(await findInteresting(8, evaluate, { jobs: 8, firstWins: false }), 2);
  assert.equal(log.running, 0, "nothing is still running when the round returns");
});

test("first-wins rounds return the first interesting candidate to finish and cancel the rest", async () => {
  const { log, evaluate } = recorder(
    (p) => p === 2 || p === 5,
    (p) => (p === 2 ? 200 : 5),
  );
  assert.equal(await findInteresting(8, evaluate, { jobs: 8, firstWins: true }), 5);
  assert.ok(log.aborted.includes(2), "the slow candidate was cancelled");
  assert.equal(log.running, 0);
});

test("once a candidate is interesting, later running candidates are cancelled and none are started", async () => {
  const { log, evaluate } = recorder(
    (p) => p === 1,
    (p) => (p === 1 ? 5 : 500),
  );
  assert.equal(await findInteresting(20, evaluate, { jobs: 4, firstWins: false }), 1);
  assert.deepEqual(log.started, [0, 1, 2, 3]);
  // 0 must finish (it might be interesting too); 2 and 3 are no longer needed, 4… never start.
  assert.deepEqual(log.aborted.sort(), [2, 3]);
  assert.equal(log.running, 0);
});

test("never more than `jobs` candidates run at once", async () => {
  let running = 0;
  let peak = 0;
  const evaluate = async (): Promise<boolean> => {
    peak = Math.max(peak, ++running);
    await sleep(2);
    running--;
    return false;
  };
  assert.equal(await findInteresting(30, evaluate, { jobs: 3, firstWins: false }), -1);
  assert.equal(peak, 3);
});

test("aborting the outer signal cancels running candidates, and the round rejects only after they settle", async () => {
  const { log, evaluate } = recorder(
    () => false,
    () => 10_000,
  );
  const controller = new AbortController();
  setTimeout(() => controller.abort(new Error("stop")), 20);
  await assert.rejects(
    findInteresting(6, evaluate, { jobs: 3, firstWins: false, signal: controller.signal }),
    /stop/,
  );
  assert.equal(log.running, 0);
  assert.deepEqual(log.started, [0, 1, 2]);
});

test("an oracle error fails the round after the other candidates are cancelled", async () => {
  const { log, evaluate } = recorder(
    () => false,
    () => 1000,
  );
  const failing = (p: number, signal: AbortSignal): Promise<boolean> =>
    p === 1 ? Promise.reject(new Error("oracle broke")) : evaluate(p, signal);
  await assert.rejects(findInteresting(4, failing, { jobs: 4, firstWins: false }), /oracle broke/);
  assert.equal(log.running, 0);
});

test("prepare: while every slot is busy, the next position to launch is prepared; uncached ones are looked for", async () => {
  const prepared: number[] = [];
  const { log, evaluate } = recorder(
    (p) => p === 6,
    () => 5,
  );
  const position = await findInteresting(10, evaluate, {
    jobs: 1,
    firstWins: false,
    // Positions 2 and 3 "are cached": nothing to prepare, the next one is looked at.
    prepare: (p) => {
      prepared.push(p);
      return p !== 2 && p !== 3;
    },
  });
  assert.equal(position, 6);
  assert.deepEqual(log.started, [0, 1, 2, 3, 4, 5, 6], "preparing changes nothing that is tested");
  // During the test of 0: 1; of 1: 2, 3 (cached), 4; of 2…4: nothing new; of 5: 6; of 6: 7 (never tested).
  assert.deepEqual(prepared, [1, 2, 3, 4, 5, 6, 7]);
});

test("prepare is not called when nothing runs or the round is decided, and its failures are ignored", async () => {
  const prepared: number[] = [];
  const { evaluate } = recorder(
    (p) => p === 0,
    () => 2,
  );
  const position = await findInteresting(4, evaluate, {
    jobs: 1,
    firstWins: false,
    prepare: (p) => {
      prepared.push(p);
      throw new Error("cannot prepare");
    },
  });
  assert.equal(position, 0);
  assert.deepEqual(prepared, [1]);
  await sleep(5);
  assert.deepEqual(prepared, [1], "nothing is prepared after the round");
});
