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
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { WATCHDOG_SCRIPT } from "../../src/oracle/watchdog.js";
import {
  bigInput,
  endWhittle,
  ENDINGS,
  EXPECTED_EXIT,
  killDuringOutputWrite,
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
  /** Absent in results made before the write-kill runs existed. */
  writeKills?: { inputMiB: number; maxAfterMs: number; rows: WriteKillRow[] };
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
        `after ${r.delayMs} ms: exit ${r.code ?? r.signal}; ${r.stderr.trim().split("\n").pop() ?? ""}`,
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
  const writeKills = await measureWriteKills(ctx.quick ? 4 : 20);
  return { runsPerEnding, limitMs: LIMIT_MS, rows, watchdog, writeKills };
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
  title: "7. Nothing left behind: whittle ended by each signal or a crash",
  run,
  render: (data) => render(data),
};
