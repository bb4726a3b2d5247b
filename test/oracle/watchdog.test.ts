/**
 * The watchdog on its own: told of a run directory and of process groups through its pipe, it kills
 * the groups still listed and removes the directory once the pipe closes — and also the processes
 * working for the run that it was never told about. Its clean-up takes well under 2 s.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test, type TestContext } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";

import { groupAlive } from "../../src/oracle/sandbox.js";
import { Watchdog } from "../../src/oracle/watchdog.js";
import { alive } from "../helpers/survivors.js";

function runDir(t: TestContext): string {
  const base = mkdtempSync(join(tmpdir(), "whittle-watchdog-test-"));
  t.after(() => rmSync(base, { recursive: true, force: true }));
  const dir = join(base, "whittle-run");
  mkdirSync(join(dir, "whittle-sandbox"), { recursive: true });
  writeFileSync(join(dir, "whittle-sandbox", "candidate.txt"), "x");
  return dir;
}

/** A detached bash (its own process group) that ignores SIGTERM, with a child that does too. */
function stubbornGroup(env: NodeJS.ProcessEnv = process.env): number {
  const child = spawn("bash", ["-c", 'trap "" TERM; (trap "" TERM; sleep 1000) & sleep 1000'], {
    detached: true,
    stdio: "ignore",
    env,
  });
  child.unref();
  return child.pid!;
}

async function until(what: string, condition: () => boolean, limitMs: number): Promise<number> {
  const started = performance.now();
  while (!condition()) {
    if (performance.now() - started > limitMs) assert.fail(`not within ${limitMs} ms: ${what}`);
    await sleep(20);
  }
  return performance.now() - started;
}

test("when its pipe closes, the watchdog kills the listed groups (SIGTERM, then SIGKILL) and removes the run directory, within 2 s", async (t) => {
  const dir = runDir(t);
  const watchdog = Watchdog.start(dir);
  const listed = stubbornGroup();
  const ended = stubbornGroup();
  t.after(() => {
    for (const pgid of [listed, ended]) if (groupAlive(pgid)) process.kill(-pgid, "SIGKILL");
  });
  watchdog.started(listed);
  watchdog.started(ended);
  watchdog.ended(ended); // told it is gone (it is not, here): the watchdog must leave it alone
  await sleep(300); // both groups are up, and ignore SIGTERM
  assert.ok(groupAlive(listed) && groupAlive(ended));
  watchdog.close();
  const tookMs = await until(
    "the listed group is gone and the run directory removed",
    () => !groupAlive(listed) && !existsSync(dir),
    2000,
  );
  t.diagnostic(`clean after ${Math.round(tookMs)} ms`);
  assert.ok(groupAlive(ended), "a group reported ended is not signalled");
  const pid = watchdog.pid!;
  await until("the watchdog has exited", () => !alive(pid), 2000);
});

test("the watchdog also kills processes of the run it was never told about (their environment names a sandbox of the run)", async (t) => {
  const dir = runDir(t);
  const watchdog = Watchdog.start(dir);
  // As if whittle died between spawning a test and writing "+<pgid>".
  const unlisted = stubbornGroup({ ...process.env, WHITTLE_TMPDIR: join(dir, "whittle-sandbox") });
  const elsewhere = stubbornGroup({ ...process.env, WHITTLE_TMPDIR: `${dir}-other/whittle-sandbox` });
  t.after(() => {
    for (const pgid of [unlisted, elsewhere]) if (groupAlive(pgid)) process.kill(-pgid, "SIGKILL");
  });
  await sleep(300);
  watchdog.close();
  await until("the unlisted process of the run is gone", () => !alive(unlisted) && !existsSync(dir), 2000);
  assert.ok(alive(elsewhere), "a process of another run is left alone");
});
