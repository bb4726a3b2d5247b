/**
 * Section 7: nothing is left behind (issue 7). The whittle command on a slow test (0.3 s, two jobs,
 * every test leaving a grandchild that ignores SIGTERM) is ended at a random moment, 0–1.5 s after its
 * first test started, by each of SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGKILL, an uncaught exception and
 * an unhandled rejection (the WHITTLE_TEST_CRASH hook), and (when tmux is installed) by closing the
 * real terminal it runs in (hangup: tmux killed); for 2 s after whittle ended, the processes of
 * the run still alive (tests, grandchildren, the watchdog: everything with the run's TMPDIR in its
 * environment, plus the pids the tests recorded) and the entries left in the run's TMPDIR are
 * counted. The experiment is test/helpers/survivors.ts, shared with test/cli/survivors.test.ts.
 *
 * Also SIGKILL during an output write (issue 21): whittle on a 40 MiB input with -o is killed while
 * its temporary output file (`.out.txt.whittle-PID.tmp`) exists — during the first write (no output
 * yet) or a later one (over an earlier result), at a random moment into it — and the temporary files
 * left beside the output 2 s later are counted, and what the output then holds.
 *
 * Also the watchdog's cost: the time whittle spends in spawn() for it (the only part on whittle's
 * path), the time until it has booted, read an empty pipe and exited, its CPU time and memory.
 *
 * And Ctrl-Z (issue 21): stopped means stopped. whittle, started as a shell starts a job (a process
 * group of its own), gets SIGTSTP at a random moment sent to its group, as the terminal sends it to
 * the foreground group; once it is stopped, the CPU time of every process of the run (whittle, its
 * bash workers and their watchers, the watchdog, the tests) is summed over 1 s from /proc, where 0
 * is expected. Then SIGCONT (fg), and the run must end as documented, with the right result and
 * nothing left behind.
 */
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { WATCHDOG_SCRIPT } from "../../src/oracle/watchdog.js";
import { MAIN, scratch } from "../../test/helpers/cli.js";
import {
  alive,
  bigInput,
  ENDINGS,
  endWhittle,
  EXPECTED_EXIT,
  killDuringOutputWrite,
  processesWithTmpdir,
  type Ending,
  type SurvivorRun,
  type WriteKillRun,
} from "../../test/helpers/survivors.js";
import type { BenchContext, Section } from "../lib/context.js";
import { ms, spreadText, table } from "../lib/format.js";
import { progress } from "../lib/log.js";
import { spread, type Spread } from "../lib/stats.js";
import { pool } from "../lib/timing.js";
import { hasTmux } from "../../test/helpers/tmux.js";

const LIMIT_MS = 2000;
const POLL_MS = 50;
const MAX_DELAY_MS = 1500;

export interface EndingRow {
  ending: Ending;
  runs: number;
  /** Runs whose exit status was the documented one. */
  exitAsDocumented: number;
  expectedExit: string;
  /** Runs in which test processes were alive when whittle was ended (signals) or right after it ended (crashes). */
  testsRunning: number;
  /** Processes of the run alive 2 s after whittle ended, summed over the runs, and the runs with any. */
  survivors: number;
  runsWithSurvivors: number;
  /** Entries left in the run's TMPDIR 2 s after whittle ended, summed, and the runs with any. */
  leftovers: number;
  runsWithLeftovers: number;
  /** Milliseconds from whittle's end until nothing was left (poll every 50 ms). */
  cleanMs: Spread;
  /** Test processes started per run. */
  spawned: Spread;
  delays: number[];
  failures: string[];
}

export interface WatchdogCost {
  starts: number;
  /** Wall time of the spawn() call in the parent. */
  spawnCallMs: Spread;
  /** From spawn() until the watchdog, its pipe closed at once, has booted, cleaned up and exited. */
  startToExitMs: Spread;
  /** CPU time of the watchdog (user + system) after booting and idling 300 ms, from /proc (10 ms ticks). */
  bootCpuMs: Spread;
  /** Resident memory of the idle watchdog. */
  rssKiB: Spread;
  bytesPerTest: number;
}

/** One run stopped by Ctrl-Z (SIGTSTP to whittle's process group), measured, then resumed. */
export interface StoppedRun {
  /** How long after the first test started (then as soon as a test process was alive) it was stopped. */
  delayMs: number;
  /** Whether whittle was stopped (state T) within 5 s of the SIGTSTP. */
  stopped: boolean;
  /** CPU ticks (user + system, 10 ms each) of all the run's processes over STOPPED_WINDOW_MS. */
  ticks: number;
  /** The run's processes while stopped, those in state T, and the bash ones (workers and watchers). */
  processes: number;
  inStateT: number;
  workers: number;
  /** The processes that used CPU while stopped: "pid state ticks command". */
  busy: string[];
  /** After SIGCONT: how whittle ended, whether its result was right, what was left 2 s later. */
  code: number | null;
  signal: NodeJS.Signals | null;
  resultRight: boolean;
  survivors: number;
  leftovers: number;
}

/** SIGKILL during output writes: one row for the first write, one for later writes. */
export interface WriteKillRow {
  write: "first" | "later";
  runs: number;
  /** Runs killed while the temporary file existed (the others ended before; not counted below). */
  caught: number;
  /** Temporary files beside the output 2 s after the kill, summed, and the runs with any. */
  leftovers: number;
  runsWithLeftovers: number;
  /** Milliseconds from the kill until no temporary file was left (poll every 20 ms). */
  cleanMs: Spread;
  /** Size of the temporary file at the kill, MiB. */
  tempMiB: Spread;
  /** What the output held then, by kind (absent, the input, a smaller result, broken). */
  outputs: Record<WriteKillRun["output"], number>;
}

export interface SurvivorsData {
  runsPerEnding: number;
  limitMs: number;
  rows: EndingRow[];
  watchdog: WatchdogCost;
  /** Absent in results written before the Ctrl-Z measurement existed. */
  stopped?: { settleMs: number; windowMs: number; runs: StoppedRun[] };
  /** Absent in results made before the write-kill runs existed. */
  writeKills?: { inputMiB: number; maxAfterMs: number; rows: WriteKillRow[] };
}

/** After whittle is stopped, the wait before measuring, and how long CPU time is measured. */
const STOPPED_SETTLE_MS = 500;
const STOPPED_WINDOW_MS = 1000;

/** The /proc/PID/stat fields after the command's name, or undefined once the process is gone. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "latin1").replace(/\0/g, " ").trim();
  } catch {
    return "";
  }
}

/**
 * Runs whittle on a slow test (16 lines, 0.3 s per test, two jobs) in a process group of its own,
 * stops it with SIGTSTP to that group `delayMs` after its first test started (then as soon as a test
 * process is alive), measures the CPU used by the run's processes while stopped, resumes it with
 * SIGCONT and lets it finish.
 */
async function stopWhittle(delayMs: number): Promise<StoppedRun> {
  const dir = scratch("whittle-stopped-");
  const tmp = join(dir, "tmp");
  const pids = join(dir, "pids");
  const input = join(dir, "in.txt");
  const test = join(dir, "slow.sh");
  const output = join(dir, "out.txt");
  const readPids = (): number[] =>
    existsSync(pids) ? readFileSync(pids, "utf8").split(/\s+/).filter(Boolean).map(Number) : [];
  try {
    writeFileSync(
      input,
      Array.from({ length: 16 }, (_, i) => (i === 11 ? "KEEP\n" : `line ${i}\n`)).join(""),
    );
    writeFileSync(test, `#!/usr/bin/env bash\necho $$ >> ${pids}\nsleep 0.3\ngrep -q KEEP "$1"\n`);
    chmodSync(test, 0o755);
    mkdirSync(tmp);
    const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp };
    delete env["WHITTLE_DEBUG"];
    // detached: a process group of its own, as a shell gives a job; the terminal's SIGTSTP goes to it.
    const child = spawn(
      process.execPath,
      [MAIN, input, "--atom=line", "-j", "2", "-o", output, "--test", test],
      { cwd: dir, env, stdio: ["ignore", "ignore", "ignore"], detached: true },
    );
    const pid = child.pid!;
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
      child.on("exit", (code, signal) => done({ code, signal })),
    );
    let exited = false;
    void ended.then(() => (exited = true));

    for (let i = 0; i < 400 && !exited && readPids().length === 0; i++) await sleep(50);
    await sleep(delayMs);
    for (let i = 0; i < 200 && !exited && readPids().filter(alive).length === 0; i++) await sleep(10);
    const run: StoppedRun = {
      delayMs,
      stopped: false,
      ticks: 0,
      processes: 0,
      inStateT: 0,
      workers: 0,
      busy: [],
      code: null,
      signal: null,
      resultRight: false,
      survivors: 0,
      leftovers: 0,
    };
    if (!exited) {
      process.kill(-pid, "SIGTSTP");
      for (let i = 0; i < 500 && statFields(pid)?.[0] !== "T"; i++) await sleep(10);
      run.stopped = statFields(pid)?.[0] === "T";
      await sleep(STOPPED_SETTLE_MS);
      const processes = processesWithTmpdir(tmp);
      const ticks = (p: number): number | undefined => {
        const fields = statFields(p);
        return fields === undefined ? undefined : Number(fields[11]) + Number(fields[12]);
      };
      const before = new Map(processes.map((p) => [p, ticks(p)]));
      await sleep(STOPPED_WINDOW_MS);
      for (const p of processes) {
        const start = before.get(p);
        const used = (ticks(p) ?? start ?? 0) - (start ?? 0);
        const state = statFields(p)?.[0];
        run.ticks += used;
        if (state === "T") run.inStateT++;
        if (commandLine(p).includes("bash --norc")) run.workers++;
        if (used > 0) run.busy.push(`${p} ${state ?? "gone"} ${used} ${commandLine(p).slice(0, 60)}`);
      }
      run.processes = processes.length;
      process.kill(-pid, "SIGCONT");
    }
    const exit = await ended;
    run.code = exit.code;
    run.signal = exit.signal;
    run.resultRight = existsSync(output) && readFileSync(output, "utf8") === "KEEP\n";
    const endedAt = performance.now();
    let left: number[] = [];
    for (;;) {
      left = processesWithTmpdir(tmp);
      run.leftovers = readdirSync(tmp).length;
      if ((left.length === 0 && run.leftovers === 0) || performance.now() - endedAt >= LIMIT_MS) break;
      await sleep(POLL_MS);
    }
    run.survivors = left.length;
    for (const p of left) {
      try {
        process.kill(p, "SIGKILL");
      } catch {
        // gone
      }
    }
    return run;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const WRITE_INPUT_MIB = 40;
/** The kill comes 0 to this many ms after the temporary file appeared. */
const WRITE_MAX_AFTER_MS = 100;

async function measureWriteKills(runs: number): Promise<NonNullable<SurvivorsData["writeKills"]>> {
  const input = bigInput(WRITE_INPUT_MIB);
  const rows: WriteKillRow[] = [];
  for (const write of ["first", "later"] as const) {
    progress(`SIGKILL during the ${write} output write: ${runs} runs, ${WRITE_INPUT_MIB} MiB input`);
    const results: WriteKillRun[] = [];
    for (let i = 0; i < runs; i++) {
      const afterMs = Math.round(Math.random() * WRITE_MAX_AFTER_MS);
      results.push(
        await killDuringOutputWrite(input, { afterMs, later: write === "later", limitMs: LIMIT_MS }),
      );
    }
    const caught = results.filter((r) => r.caught);
    const outputs: WriteKillRow["outputs"] = { absent: 0, input: 0, smaller: 0, broken: 0 };
    for (const r of caught) outputs[r.output]++;
    const row: WriteKillRow = {
      write,
      runs,
      caught: caught.length,
      leftovers: caught.reduce((n, r) => n + r.leftovers.length, 0),
      runsWithLeftovers: caught.filter((r) => r.leftovers.length > 0).length,
      cleanMs: spread(caught.flatMap((r) => (r.cleanMs === undefined ? [] : [r.cleanMs]))),
      tempMiB: spread(caught.map((r) => r.tempBytes / 2 ** 20)),
      outputs,
    };
    rows.push(row);
    progress(
      `${write} write: ${row.caught}/${runs} killed while writing, ${row.leftovers} temporary files left, clean after ${spreadText(row.cleanMs, 0)} ms`,
    );
  }
  return { inputMiB: WRITE_INPUT_MIB, maxAfterMs: WRITE_MAX_AFTER_MS, rows };
}

async function measureWatchdog(starts: number): Promise<WatchdogCost> {
  const spawnCall: number[] = [];
  const toExit: number[] = [];
  const cpu: number[] = [];
  const rss: number[] = [];
  const ticks = 100; // USER_HZ on Linux
  for (let i = 0; i < starts; i++) {
    // Start to exit: spawn exactly as whittle does, close the pipe at once.
    let t0 = performance.now();
    const quick = spawn(process.execPath, [WATCHDOG_SCRIPT], {
      detached: true,
      stdio: ["pipe", "ignore", "ignore"],
    });
    spawnCall.push(performance.now() - t0);
    const exited = new Promise<void>((done) => quick.once("exit", () => done()));
    quick.stdin.end();
    await exited;
    toExit.push(performance.now() - t0);

    // Idle: boot, wait, read CPU and memory from /proc, then let it go.
    t0 = performance.now();
    const idle = spawn(process.execPath, [WATCHDOG_SCRIPT], {
      detached: true,
      stdio: ["pipe", "ignore", "ignore"],
    });
    await sleep(300);
    const stat = readFileSync(`/proc/${idle.pid}/stat`, "latin1");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    cpu.push(((Number(fields[11]) + Number(fields[12])) * 1000) / ticks);
    const status = readFileSync(`/proc/${idle.pid}/status`, "latin1");
    rss.push(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN));
    const gone = new Promise<void>((done) => idle.once("exit", () => done()));
    idle.stdin.end();
    await gone;
  }
  return {
    starts,
    spawnCallMs: spread(spawnCall),
    startToExitMs: spread(toExit),
    bootCpuMs: spread(cpu),
    rssKiB: spread(rss),
    // "+<pgid>\n" when a test starts and "-<pgid>\n" when it is gone; pids have up to 7 digits.
    bytesPerTest: 2 * "+4194304\n".length,
  };
}

function summarize(ending: Ending, runs: readonly SurvivorRun[]): EndingRow {
  const expected = EXPECTED_EXIT[ending];
  const asDocumented = (r: SurvivorRun): boolean =>
    expected === undefined || (r.code === expected.code && r.signal === expected.signal);
  const failures: string[] = [];
  for (const r of runs) {
    if (!asDocumented(r)) {
      failures.push(
        // The last lines of whittle's stderr, not just the last: a crash's stack ends in Node's version.
        `after ${r.delayMs} ms: exit ${r.code ?? r.signal}; ${r.stderr.trim().split("\n").slice(-12).join(" ⏎ ")}`,
      );
    }
    if (r.survivors.length) failures.push(`after ${r.delayMs} ms: survivors ${r.survivors.join(" ")}`);
    if (r.leftovers.length) failures.push(`after ${r.delayMs} ms: left ${r.leftovers.join(" ")}`);
  }
  return {
    ending,
    runs: runs.length,
    exitAsDocumented: runs.filter(asDocumented).length,
    expectedExit:
      expected === undefined
        ? "not observable: the shell is gone"
        : expected.code !== null
          ? String(expected.code)
          : `killed by ${expected.signal}`,
    testsRunning: runs.filter((r) => r.aliveBefore > 0).length,
    survivors: runs.reduce((n, r) => n + r.survivors.length, 0),
    runsWithSurvivors: runs.filter((r) => r.survivors.length > 0).length,
    leftovers: runs.reduce((n, r) => n + r.leftovers.length, 0),
    runsWithLeftovers: runs.filter((r) => r.leftovers.length > 0).length,
    cleanMs: spread(runs.flatMap((r) => (r.cleanMs === undefined ? [] : [r.cleanMs]))),
    spawned: spread(runs.map((r) => r.spawned)),
    delays: runs.map((r) => r.delayMs),
    failures,
  };
}

async function run(ctx: BenchContext): Promise<SurvivorsData> {
  const runsPerEnding = ctx.quick ? 4 : 20;
  progress(`watchdog start-up, ${ctx.quick ? 5 : 20} starts`);
  const watchdog = await measureWatchdog(ctx.quick ? 5 : 20);
  const rows: EndingRow[] = [];
  const endings: Ending[] = hasTmux() ? [...ENDINGS, "hangup"] : [...ENDINGS];
  if (!hasTmux()) progress("tmux is not installed: no runs in a real terminal (hangup)");
  for (const ending of endings) {
    progress(`${ending}: ${runsPerEnding} runs, ended at random moments`);
    const delays = Array.from({ length: runsPerEnding }, () => Math.round(Math.random() * MAX_DELAY_MS));
    // Two runs at a time, as two users would: the machine is loaded, as in real life.
    const runs = await pool(delays, 2, (delay) =>
      endWhittle(ending, delay, { limitMs: LIMIT_MS, pollMs: POLL_MS }),
    );
    const row = summarize(ending, runs);
    rows.push(row);
    progress(
      `${ending}: ${row.exitAsDocumented}/${row.runs} documented exit, ${row.survivors} survivors, ${row.leftovers} leftovers, clean after ${spreadText(row.cleanMs, 0)} ms`,
    );
  }
  progress(`Ctrl-Z: ${runsPerEnding} runs, stopped at random moments, CPU measured while stopped`);
  const stopDelays = Array.from({ length: runsPerEnding }, () => Math.round(Math.random() * MAX_DELAY_MS));
  const stoppedRuns = await pool(stopDelays, 2, (delay) => stopWhittle(delay));
  progress(
    `Ctrl-Z: CPU ticks while stopped per run ${stoppedRuns.map((r) => r.ticks).join(" ")}; ` +
      `${stoppedRuns.filter((r) => r.code === 0 && r.resultRight).length}/${stoppedRuns.length} finished right after fg`,
  );
  const writeKills = await measureWriteKills(ctx.quick ? 4 : 20);
  return {
    runsPerEnding,
    limitMs: LIMIT_MS,
    rows,
    watchdog,
    stopped: { settleMs: STOPPED_SETTLE_MS, windowMs: STOPPED_WINDOW_MS, runs: stoppedRuns },
    writeKills,
  };
}

function renderStopped(d: NonNullable<SurvivorsData["stopped"]>): string[] {
  const runs = d.runs;
  const lines = [
    "",
    `**Ctrl-Z** (${runs.length} runs, two at a time): whittle on a 16-line input, a test that sleeps 0.3 s, two jobs, started in a process group of its own as a shell starts a job, and stopped at a random moment 0–${MAX_DELAY_MS / 1000} s after its first test started (then as soon as a test process was alive) by SIGTSTP to its group, as the terminal sends Ctrl-Z. ${d.settleMs} ms after whittle was stopped, the CPU time of every process of the run (whittle, its bash workers and their watchers, the watchdog, the tests) was summed over ${d.windowMs / 1000} s (/proc, 10 ms ticks; 0 expected); then SIGCONT (fg), and the run had to finish with exit 0, the right result, and nothing left 2 s later.`,
    "",
    table(
      [
        "run",
        "stopped after",
        "whittle stopped",
        "CPU ticks while stopped",
        "processes (in state T, bash workers and watchers)",
        "after fg",
        "survivors",
        "leftovers",
      ],
      runs.map((r, i) => [
        i + 1,
        `${r.delayMs} ms`,
        r.stopped ? "yes" : "no",
        r.ticks,
        `${r.processes} (${r.inStateT}, ${r.workers})`,
        `exit ${r.code ?? r.signal}, result ${r.resultRight ? "right" : "wrong"}`,
        r.survivors,
        r.leftovers,
      ]),
    ),
  ];
  const failures = runs.flatMap((r, i) => [
    ...(r.stopped ? [] : [`- run ${i + 1}: whittle was not stopped within 5 s`]),
    ...r.busy.map((b) => `- run ${i + 1}: used CPU while stopped: ${b}`),
    ...(r.code === 0 && r.resultRight
      ? []
      : [
          `- run ${i + 1}: after fg, exit ${r.code ?? r.signal}, result ${r.resultRight ? "right" : "wrong"}`,
        ]),
    ...(r.survivors || r.leftovers
      ? [`- run ${i + 1}: ${r.survivors} survivors, ${r.leftovers} leftovers`]
      : []),
  ]);
  if (failures.length) lines.push("", "**Ctrl-Z failures:**", "", ...failures);
  return lines;
}

function render(d: SurvivorsData): string {
  const w = d.watchdog;
  const lines = [
    `Each ending ${d.runsPerEnding} times, at a random moment 0–${MAX_DELAY_MS / 1000} s after the first test started, then as soon as a test process is alive (crashes: ${0.5}–${0.5 + MAX_DELAY_MS / 1000} s into the run, wherever that falls), two runs at a time. "hangup": whittle typed into bash in a tmux terminal, and the tmux server killed. Every test sleeps 0.3 s and leaves a grandchild that ignores SIGTERM; two jobs. "Survivors": processes of the run (tests, grandchildren, the watchdog) alive ${d.limitMs / 1000} s after whittle ended; "leftovers": entries in the run's TMPDIR then. "Clean after": from whittle's end until nothing was left, polled every ${POLL_MS} ms, median (min–max).`,
    "",
    table(
      [
        "ending",
        "exit as documented",
        "tests running at the end",
        "survivors (runs)",
        "leftovers (runs)",
        "clean after",
        "test processes per run",
      ],
      d.rows.map((r) => [
        r.ending,
        `${r.exitAsDocumented}/${r.runs} (${r.expectedExit})`,
        `${r.testsRunning}/${r.runs}`,
        `${r.survivors} (${r.runsWithSurvivors})`,
        `${r.leftovers} (${r.runsWithLeftovers})`,
        `${spreadText(r.cleanMs, 0)} ms`,
        spreadText(r.spawned, 0),
      ]),
    ),
  ];
  const failures = d.rows.flatMap((r) => r.failures.map((f) => `- ${r.ending} ${f}`));
  if (failures.length) lines.push("", "**Failures:**", "", ...failures);
  if (d.stopped) lines.push(...renderStopped(d.stopped));
  const wk = d.writeKills;
  if (wk) {
    lines.push(
      "",
      `SIGKILL during an output write: whittle on a ${wk.inputMiB} MiB input with -o, killed 0–${wk.maxAfterMs} ms after its temporary output file appeared, during the first write (no output yet) or a later one (over an earlier result). "Leftovers": temporary files beside the output ${d.limitMs / 1000} s after the kill; "clean after": from the kill until none was left. Runs in which whittle had finished the write before the kill are not counted.`,
      "",
      table(
        [
          "write",
          "killed while writing",
          "temporary file at the kill",
          "leftovers (runs)",
          "clean after",
          "output then",
        ],
        wk.rows.map((r) => [
          r.write,
          `${r.caught}/${r.runs}`,
          `${spreadText(r.tempMiB, 1)} MiB`,
          `${r.leftovers} (${r.runsWithLeftovers})`,
          `${spreadText(r.cleanMs, 0)} ms`,
          Object.entries<number>(r.outputs)
            .filter(([, n]) => n > 0)
            .map(([kind, n]) => `${kind} ${n}`)
            .join(", "),
        ]),
      ),
    );
  }
  lines.push(
    "",
    `Watchdog (${w.starts} starts): spawn() call in whittle ${spreadText(w.spawnCallMs, 2)} ms; start to exit with its pipe closed at once ${spreadText(w.startToExitMs, 0)} ms; CPU to boot ${spreadText(w.bootCpuMs, 0)} ms (10 ms ticks); idle RSS ${spreadText(w.rssKiB, 0, 1 / 1024)} MiB; ${w.bytesPerTest} bytes on its pipe per test at most. Its start-up runs beside whittle's own (it is not waited for); whittle's wall time pays only the spawn() call (${ms(w.spawnCallMs.median)}).`,
  );
  return lines.join("\n") + "\n";
}

export const survivorsSection: Section<SurvivorsData> = {
  id: "survivors",
  title:
    "7. Nothing left behind: whittle ended by each signal or a crash; nothing runs while stopped (Ctrl-Z)",
  run,
  render: (data) => render(data),
};
