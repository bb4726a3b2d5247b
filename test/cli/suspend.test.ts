/**
 * Ctrl-Z: whittle stops its running tests (SIGSTOP to each test's process group), then itself; on
 * SIGCONT it resumes them, and the pause does not count toward the tests' timeouts. Checked with
 * signals sent to the process, and with a real terminal (tmux) when tmux is installed; the state of
 * each process is read from /proc (T = stopped).
 */
import assert from "node:assert/strict";
import { chmodSync, existsSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { MAIN, runWhittle, scratch } from "../helpers/cli.js";
import { alive, processesWithTmpdir } from "../helpers/survivors.js";
import { hasTmux, tmuxSession } from "../helpers/tmux.js";

/** The process's state letter from /proc (R, S, T, Z…), or undefined once it is gone. */
function state(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    return stat.slice(stat.lastIndexOf(")") + 2)[0];
  } catch {
    return undefined;
  }
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "latin1").replace(/\0/g, " ");
  } catch {
    return "";
  }
}

async function until(what: string, condition: () => boolean, limitMs = 20_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting until ${what}`);
    await sleep(50);
  }
}

/**
 * A reduction of `lines` lines (16) with `jobs` jobs (2) whose tests take 0.5 s with a 1.5 s timeout
 * (`timeout`: undefined for the adaptive one), each recording its pid and a grandchild's.
 */
function setUp(options: { lines?: number; jobs?: string; timeout?: string | undefined } = {}): {
  dir: string;
  tmp: string;
  pids: string;
  args: string[];
  stats: string;
  output: string;
} {
  const { lines = 16, jobs = "2" } = options;
  const timeout = "timeout" in options ? options.timeout : "1.5";
  const dir = scratch("whittle-suspend-");
  const tmp = join(dir, "tmp");
  mkdirSync(tmp);
  const pids = join(dir, "pids");
  const input = join(dir, "in.txt");
  writeFileSync(
    input,
    Array.from({ length: lines }, (_, i) => (i === lines - 5 ? "KEEP\n" : `line ${i}\n`)).join(""),
  );
  const oracle = join(dir, "slow.sh");
  writeFileSync(
    oracle,
    `#!/usr/bin/env bash\nsleep 1000 &\necho $$ $! >> ${pids}\nsleep 0.5\ngrep -q KEEP "$1"\n`,
  );
  chmodSync(oracle, 0o755);
  const stats = join(dir, "stats.json");
  const output = join(dir, "out.txt");
  const args = [
    input,
    "--atom=line",
    "-j",
    jobs,
    ...(timeout === undefined ? [] : [`--timeout=${timeout}`]),
    "--stats",
    stats,
    "-o",
    output,
    "--test",
    oracle,
  ];
  return { dir, tmp, pids, args, stats, output };
}

function testPids(pids: string): number[] {
  return existsSync(pids) ? readFileSync(pids, "utf8").split(/\s+/).filter(Boolean).map(Number) : [];
}

/** Stops, checks, resumes, and checks again; `stop` and `resume` act like the user would. */
async function suspendAndResume(
  s: ReturnType<typeof setUp>,
  whittlePid: () => number | undefined,
  stop: () => void,
  resume: () => void,
): Promise<void> {
  await until("tests are running", () => testPids(s.pids).filter(alive).length >= 2);
  stop();
  let stopped: number[] = [];
  await until("whittle and its running tests are stopped", () => {
    const pid = whittlePid();
    const running = testPids(s.pids).filter(alive);
    stopped = running.filter((p) => state(p) === "T");
    return pid !== undefined && state(pid) === "T" && running.length > 0 && stopped.length === running.length;
  });
  // Longer than the tests' timeout: the pause must not count.
  await sleep(2500);
  assert.deepEqual(
    stopped.filter((p) => state(p) !== "T"),
    [],
    "the tests stay stopped while whittle is",
  );
  const watchdog = processesWithTmpdir(s.tmp).find((p) => cmdline(p).includes("watchdog-child"));
  assert.ok(watchdog !== undefined, "the watchdog runs");
  assert.notEqual(state(watchdog), "T", "the watchdog is not stopped (nothing to do while whittle is)");
  resume();
  await until("the tests are resumed", () => stopped.every((p) => state(p) !== "T"));
}

function checkResult(s: ReturnType<typeof setUp>): void {
  assert.equal(readFileSync(s.output, "utf8"), "KEEP\n");
  const stats = JSON.parse(readFileSync(s.stats, "utf8")) as { timeouts: number; result: string };
  assert.equal(stats.result, "done");
  assert.equal(stats.timeouts, 0, "no test timed out: the pause is not counted");
}

test("SIGTSTP stops whittle and every running test, SIGCONT resumes them, and the pause does not count toward timeouts", async () => {
  const s = setUp();
  let pid: number | undefined;
  const running = runWhittle(s.args, { env: { TMPDIR: s.tmp }, onSpawn: (p) => (pid = p) });
  try {
    await suspendAndResume(
      s,
      () => pid,
      () => process.kill(pid!, "SIGTSTP"),
      () => process.kill(pid!, "SIGCONT"),
    );
  } catch (error) {
    process.kill(pid!, "SIGKILL"); // a whittle left stopped would keep this test file from ending
    await running;
    throw error;
  }
  const run = await running;
  assert.equal(run.code, 0, run.stderr);
  checkResult(s);
});

/** whittle started in bash in a real terminal (tmux), for the tests that type Ctrl-Z and fg. */
function inTerminal(s: ReturnType<typeof setUp>): {
  terminal: ReturnType<typeof tmuxSession>;
  whittlePid: () => number | undefined;
  /** Waits for whittle to end and returns its exit status, as the shell saw it. */
  exitStatus(): Promise<string>;
  close(): void;
} {
  const terminal = tmuxSession();
  const exitFile = join(s.dir, "exit");
  let pid: number | undefined;
  const quoted = s.args.map((a) => `'${a}'`).join(" ");
  terminal.keys(`TMPDIR='${s.tmp}' '${process.execPath}' '${MAIN}' ${quoted}`, "Enter");
  const whittlePid = (): number | undefined =>
    (pid ??= processesWithTmpdir(s.tmp).find((p) => cmdline(p).includes(MAIN)));
  return {
    terminal,
    whittlePid,
    async exitStatus() {
      // Not "whittle …; echo $?" on one line: bash runs the echo as soon as the job is stopped.
      await until(
        "whittle has ended",
        () => {
          const found = whittlePid();
          return found !== undefined && !alive(found);
        },
        60_000,
      );
      terminal.keys(`echo $? > '${exitFile}'`, "Enter");
      await until(
        "the exit status is known",
        () => existsSync(exitFile) && readFileSync(exitFile, "utf8").includes("\n"),
      );
      return readFileSync(exitFile, "utf8").trim();
    },
    close() {
      terminal.close();
      if (pid !== undefined && alive(pid)) process.kill(pid, "SIGKILL"); // never leave a stopped whittle
    },
  };
}

/** CPU time (user + system, in clock ticks) of each process still there, from /proc. */
function cpuTicks(pids: readonly number[]): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks.set(pid, Number(fields[11]) + Number(fields[12]));
    } catch {
      // gone
    }
  }
  return ticks;
}

test("in a real terminal (tmux): Ctrl-Z stops whittle and its tests, fg resumes them, and the reduction ends normally", async (t) => {
  if (!hasTmux()) return t.skip("tmux is not installed");
  const s = setUp();
  const run = inTerminal(s);
  try {
    await suspendAndResume(
      s,
      run.whittlePid,
      () => run.terminal.keys("C-z"),
      () => run.terminal.keys("fg", "Enter"),
    );
    assert.equal(await run.exitStatus(), "0", run.terminal.screen());
    checkResult(s);
  } finally {
    run.close();
  }
});

test("in a real terminal (tmux): while Ctrl-Z has stopped whittle, none of its processes uses the CPU (no bash worker spins on its stopped test)", async (t) => {
  if (!hasTmux()) return t.skip("tmux is not installed");
  const s = setUp();
  const run = inTerminal(s);
  try {
    // Past the initial check (its test and grandchild are the first two pids), which the workers do not run.
    await until(
      "the reduction's tests are running",
      () => testPids(s.pids).slice(2).filter(alive).length >= 2,
    );
    run.terminal.keys("C-z");
    await until("whittle and its running tests are stopped", () => {
      const pid = run.whittlePid();
      const running = testPids(s.pids).filter(alive);
      return pid !== undefined && state(pid) === "T" && running.every((p) => state(p) === "T");
    });
    await sleep(1000);
    // Everything of the run: whittle, its bash workers and their watchers, the watchdog, the tests.
    const processes = processesWithTmpdir(s.tmp);
    assert.ok(
      processes.some((p) => cmdline(p).includes("bash --norc")),
      `the bash workers are among them: ${processes.map(cmdline).join("; ")}`,
    );
    const before = cpuTicks(processes);
    await sleep(1500);
    const after = cpuTicks(processes);
    const used = processes.map((p) => ({
      p,
      ticks: (after.get(p) ?? before.get(p) ?? 0) - (before.get(p) ?? 0),
      cmd: cmdline(p),
    }));
    const total = used.reduce((sum, u) => sum + u.ticks, 0);
    assert.ok(
      total <= 2,
      `${total} clock ticks in 1.5 s while stopped:\n` +
        used.map((u) => `${u.p} ${state(u.p)} ${u.ticks} ${u.cmd}`).join("\n"),
    );
    run.terminal.keys("fg", "Enter");
    assert.equal(await run.exitStatus(), "0", run.terminal.screen());
    checkResult(s);
  } finally {
    run.close();
  }
});

test("in a real terminal (tmux): the time stopped by Ctrl-Z during the initial check does not count in its duration, nor in the adaptive timeout", async (t) => {
  if (!hasTmux()) return t.skip("tmux is not installed");
  // Few lines (few tests), one job, the adaptive timeout: 10 times the initial check's duration.
  const s = setUp({ lines: 6, jobs: "1", timeout: undefined });
  const run = inTerminal(s);
  try {
    await until("the initial check runs", () => testPids(s.pids).length > 0);
    run.terminal.keys("C-z");
    const check = testPids(s.pids)[0]!;
    await until("whittle is stopped", () => state(run.whittlePid() ?? 0) === "T");
    // Ctrl-Z came while the initial check ran, and stops it (whittle's SIGSTOP to the check's group
    // arrives a moment after whittle itself is seen stopped).
    await until("the initial check is stopped", () => state(check) === "T", 2000);
    assert.equal(testPids(s.pids).length, 2, "the initial check is the only test so far");
    await sleep(3000);
    run.terminal.keys("fg", "Enter");
    assert.equal(await run.exitStatus(), "0", run.terminal.screen());
    const stats = JSON.parse(readFileSync(s.stats, "utf8")) as {
      result: string;
      initialCheckMs: number;
      timeoutMs: number;
    };
    assert.equal(stats.result, "done");
    assert.equal(readFileSync(s.output, "utf8"), "KEEP\n");
    // The test sleeps 0.5 s; with the 3 s pause counted it would be over 3 s, and the limit over 30 s.
    // Nor may it be too short (a sleeping test slept through the pause: its active time was a few
    // milliseconds, and the 0.5 s tests that followed timed out): the original is checked again.
    assert.ok(stats.initialCheckMs < 2000, `initial check ${stats.initialCheckMs} ms`);
    assert.ok(stats.initialCheckMs >= 400, `initial check ${stats.initialCheckMs} ms`);
    assert.ok(stats.timeoutMs < 20_000, `timeout limit ${stats.timeoutMs} ms`);
  } finally {
    run.close();
  }
});
