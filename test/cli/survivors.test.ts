/**
 * Nothing is left behind (issue 7): however whittle ends — SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGKILL,
 * an uncaught exception, an unhandled rejection, a closed terminal — no process of its tests and no temporary directory
 * of the run survives more than 2 s. Each ending is tried twice, at random moments; the benchmark's
 * survivors section runs 20 of each.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { hasTmux } from "../helpers/tmux.js";
import { endWhittle, ENDINGS, EXPECTED_EXIT, type Ending, type SurvivorRun } from "../helpers/survivors.js";

/** Whittle's end is known to the poll within 50 ms; allow that much on top of the 2 s. */
const LIMIT_MS = 2000;
const POLL_MS = 50;

function check(run: SurvivorRun): void {
  const what = `${run.ending} after ${run.delayMs} ms`;
  const expected = EXPECTED_EXIT[run.ending];
  if (expected) {
    assert.deepEqual(
      { code: run.code, signal: run.signal },
      expected,
      `${what}: exit status; stderr:\n${run.stderr}`,
    );
  }
  // Not vacuous: tests were running and the run directory existed when whittle was ended.
  assert.ok(run.aliveBefore > 0, `${what}: test processes were alive at the end`);
  assert.ok(run.runDirBefore, `${what}: the run directory existed at the end`);
  assert.deepEqual(run.survivors, [], `${what}: no process of the run survives ${LIMIT_MS} ms`);
  assert.deepEqual(run.leftovers, [], `${what}: no temporary directory survives ${LIMIT_MS} ms`);
  assert.ok(run.cleanMs !== undefined && run.cleanMs <= LIMIT_MS + POLL_MS, `${what}: clean in time`);
  if (run.ending === "throw" || run.ending === "reject") {
    assert.match(run.stderr, /whittle: internal error: crash requested by WHITTLE_TEST_CRASH/);
    assert.doesNotMatch(run.stderr, /^\s+at /m, "no stack trace without WHITTLE_DEBUG");
  }
}

/**
 * One run ended at a random moment. A crash that happens to fall between two rounds, when no test
 * runs, proves nothing about tests: such a run is repeated (at most 5 times).
 */
async function endAtRandom(ending: Ending): Promise<SurvivorRun> {
  let run: SurvivorRun;
  let attempts = 0;
  do {
    run = await endWhittle(ending, Math.round(Math.random() * 1000), { limitMs: LIMIT_MS, pollMs: POLL_MS });
  } while (run.aliveBefore === 0 && ++attempts < 5);
  return run;
}

for (const ending of ENDINGS) {
  test(`whittle ended by ${ending} at a random moment: exit ${EXPECTED_EXIT[ending]?.code ?? ending}, no test process and no temporary directory survives 2 s`, async () => {
    // Two runs at once, each at its own random moment (0-1 s after the first test started).
    const runs = await Promise.all([0, 1].map(() => endAtRandom(ending)));
    for (const run of runs) check(run);
  });
}

test("whittle in a real terminal that closes (tmux killed) at a random moment: no test process and no temporary directory survives 2 s", async (t) => {
  if (!hasTmux()) return t.skip("tmux is not installed");
  const runs = await Promise.all([0, 1].map(() => endAtRandom("hangup")));
  for (const run of runs) check(run);
});
