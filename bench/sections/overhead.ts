/**
 * Section 5: whittle's overhead per test. A 2,000-line input, `--jobs 1 --atom line`, and two oracles
 * (shell scripts that grep one line): one of about 2 ms and one of about 20 ms (it sleeps first).
 * For each, alternating within one run:
 *
 * - whittle: reduce() through its command oracle (the default runner: the bash co-process);
 * - the plain shell loop: a bash script that runs the same oracle on the same candidates (written to
 *   files beforehand), one after another — `for f in "$dir"/*; do "$oracle" "$f"; done` — timed as a
 *   whole. This is the speed of the machine: what any test runner must at least pay per test;
 * - the worker-shaped loop: the same candidates, each in a directory of its own, run by one bash
 *   script the way whittle's bash worker runs a test — job control (`set -m`) so that the test has a
 *   process group of its own, `cd` into the test's directory, the two environment variables, stdin
 *   and output redirected, the `S`/`E` report lines, `wait -f` — and nothing else: no Node, no
 *   candidate written. What the bash co-process design can reach at best, with everything whittle
 *   must keep per test (process-group kill, the per-test directory, the environment);
 * - whittle's worker alone: the bash script whittle's shell runner runs (`workerScript`), fed all its
 *   `r` lines at once down its stdin pipe, over the same candidates in the worker-shaped loop's
 *   directories: whittle's own per-test path in bash, with no Node behind it. The gap from here to
 *   whittle is what talking to Node costs (reading the answers, writing candidates and lines, one
 *   round trip per reduction for the check of the empty input);
 * - for context, a bare Node spawn loop (write the candidate, child_process.spawn, wait) and whittle
 *   with the spawn runner.
 *
 * Rates are tests per second; ratios are computed per repetition. Targets: whittle's rate ≥ 0.90 of
 * the shell loop's with the 2 ms oracle, ≥ 0.98 with the 20 ms one. Plus whittle's own CPU per test
 * with an in-process oracle (the reducer alone).
 */
import { spawn } from "node:child_process";
import { chmodSync, closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { join } from "node:path";
import { CommandOracle } from "../../src/oracle/command.js";
import { findBash, workerScript } from "../../src/oracle/shell.js";
import type { Oracle } from "../../src/reduce/evaluator.js";
import { reduce } from "../../src/reduce/reduce.js";
import type { BenchContext, Section } from "../lib/context.js";
import { fixed, ms, percentSpread, spreadText, table } from "../lib/format.js";
import { linesInput } from "../lib/generated.js";
import { progress } from "../lib/log.js";
import { ratioSpread, spread, type Spread } from "../lib/stats.js";
import { alternate, withCpu } from "../lib/timing.js";
import { describeDefaults } from "../lib/defaults.js";

const VARIANTS = [
  "whittle",
  "shell loop",
  "worker-shaped loop",
  "whittle's worker alone",
  "node spawn loop",
  "whittle (spawn runner)",
] as const;
type Variant = (typeof VARIANTS)[number];

export interface OracleFigures {
  /** "2 ms" or "20 ms": the nominal duration. */
  name: string;
  script: string;
  testsPerReduction: number;
  reductionsPerMeasurement: number;
  /** Of whittle's (default runner's) test runs, in all repetitions: how many, and how many the bash worker started as follow-ups. */
  runs: number;
  followUps: number;
  /** Tests per second, per variant. */
  rate: Record<Variant, Spread>;
  /** Wall ms per test, per variant. */
  msPerTest: Record<Variant, Spread>;
  /** CPU of the measuring Node process per test (children excluded), per variant. */
  cpuPerTestMs: Record<Variant, Spread>;
  /** The 1-minute load average before and after the measurement (others' work shows here). */
  load: [number, number];
  /** Rate of each variant / rate of the shell loop, per repetition. */
  ratioToShell: Record<Variant, Spread>;
  /** Rate of whittle / rate of whittle's worker alone, per repetition. */
  ratioToWorker: Spread;
  target: number;
}

export interface OverheadData {
  lines: number;
  inputBytes: number;
  settings: string;
  repetitions: number;
  oracles: OracleFigures[];
  inProcess: { tests: number; cpuPerTestUs: Spread; wallPerTestUs: Spread };
}

/**
 * The section runs the measurement in a fresh child process (overhead-child.ts): Node's spawn costs
 * the parent CPU in proportion to its memory (fork copies its page tables), and the harness has grown
 * by this point (the cache section's tries), which would be charged to whittle.
 */
async function run(ctx: BenchContext): Promise<OverheadData> {
  const script = join(ctx.repoRoot, "dist", "bench", "sections", "overhead-child.js");
  const child = spawn(process.execPath, [script, ctx.tmpDir, ctx.quick ? "1" : "0", String(ctx.reps)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", resolve);
  });
  if (code !== 0) throw new Error(`overhead child exited with ${code}`);
  return JSON.parse(out.trim().split("\n").pop()!) as OverheadData;
}

async function runScript(script: string, file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(script, [file], { stdio: "ignore" });
    child.once("error", reject);
    child.once("exit", (code) => resolve(code ?? -1));
  });
}

/** Runs `bash loop.sh` and resolves when it exits. */
async function runShellLoop(loop: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", [loop], { stdio: "ignore" });
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`shell loop exited ${code}`))));
  });
}

/**
 * Runs whittle's worker script in `root` on `lines` and resolves when it has run them all and
 * exited. Everything goes down its stdin pipe at once (a few KB: the pipe holds it all), so Node has
 * nothing more to do; like whittle's, the worker reads the pipe one byte per system call, and its fd 3
 * is a pipe that stays open until the end. Its report lines go to `report` (a file: writing it wakes
 * no one), whose E lines must number `tests`.
 */
async function runWorkerAlone(
  bash: string,
  root: string,
  lines: string,
  report: string,
  tests: number,
): Promise<void> {
  const out = openSync(report, "w");
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(bash, ["--norc", "--noprofile"], {
        cwd: root,
        env: { ...process.env, PWD: root },
        stdio: ["pipe", out, "inherit", "pipe"],
      });
      child.once("error", reject);
      child.once("exit", () => {
        child.stdio[3]?.destroy();
        resolve();
      });
      child.stdin?.end(lines);
    });
  } finally {
    closeSync(out);
  }
  const ended = readFileSync(report, "utf8")
    .split("\n")
    .filter((line) => line.startsWith("E ")).length;
  if (ended !== tests) throw new Error(`whittle's worker alone ran ${ended} tests, not ${tests}`);
}

/** The measurement itself (in the child process). */
export async function measureOverhead(ctx: {
  tmpDir: string;
  quick: boolean;
  reps: number;
}): Promise<OverheadData> {
  const lines = 2000;
  const { input, markers } = linesInput(lines, 1);
  const marker = markers[0]!;
  const options = { atom: "line" as const, jobs: 1, assumeInteresting: true };
  const reps = ctx.quick ? ctx.reps : ctx.reps + 2;
  // The machine is shared, and its load moves within seconds: short measurements, many of them,
  // alternating, so that each ratio compares variants measured moments apart.
  const alternations = ctx.quick ? 6 : 25;
  const oracles: OracleFigures[] = [];

  // The 20 ms oracle sleeps 17 ms: with the start of sh, sleep and grep it takes about 20 ms.
  for (const [name, sleep, target] of [
    ["2 ms", "", 0.9],
    ["20 ms", "sleep 0.017\n", 0.98],
  ] as const) {
    const dir = join(ctx.tmpDir, `overhead-${name.replace(" ", "")}`);
    mkdirSync(dir, { recursive: true });
    const script = join(dir, "oracle.sh");
    writeFileSync(script, `#!/bin/sh\n${sleep}exec grep -q '${marker}' "$1"\n`);
    chmodSync(script, 0o755);

    // A warm-up run that records the candidates, for the loops to replay.
    const candidates: Uint8Array[] = [];
    {
      const oracle = new CommandOracle({
        command: [script, "{}"],
        fileName: "input.txt",
        captureOutput: false,
        recycleDirectories: true,
      });
      await reduce(
        input,
        (c, s) => {
          candidates.push(c.slice());
          return oracle.test(c, s);
        },
        options,
      );
      await oracle.close();
    }
    const testsPerReduction = candidates.length;
    // Enough oracle runs per measurement that starting the oracle (its bash worker) is spread thin.
    const wanted = name === "2 ms" ? 200 : 60;
    const reductions = Math.max(1, Math.ceil(wanted / testsPerReduction));
    progress(
      `overhead ${name}: ${testsPerReduction} tests per reduction; ${reductions} reductions per measurement, ${alternations} repetitions`,
    );
    // The shell loop's candidates, as files, and its script (written once; writing is not timed).
    const candDir = join(dir, "candidates");
    mkdirSync(candDir, { recursive: true });
    candidates.forEach((c, i) => writeFileSync(join(candDir, `c${String(i).padStart(6, "0")}.txt`), c));
    const loop = join(dir, "loop.sh");
    writeFileSync(
      loop,
      `for r in $(seq ${reductions}); do for f in '${candDir}'/*.txt; do '${script}' "$f"; done; done\n`,
    );
    // The worker-shaped loop's candidates: one directory each, under the input's name. Whittle's
    // worker alone runs in the same directories.
    const shapedDir = join(dir, "shaped");
    const shapedName = (i: number): string => `d${String(i).padStart(6, "0")}`;
    const shapedFile = "input.txt";
    candidates.forEach((c, i) => {
      const d = join(shapedDir, shapedName(i));
      mkdirSync(d, { recursive: true });
      writeFileSync(join(d, shapedFile), c);
    });
    const shaped = join(dir, "shaped.sh");
    writeFileSync(
      shaped,
      [
        "set -m",
        `for r in $(seq ${reductions}); do for d in '${shapedDir}'/d*; do`,
        `  { cd -- "$d" && WHITTLE_CANDIDATE="$PWD/input.txt" WHITTLE_TMPDIR=$PWD exec '${script}' "$PWD/input.txt" </dev/null >/dev/null 2>&1; } &`,
        '  p=$!; echo "S 1 $p"; wait -f "$p"; s=$?; echo "E 1 $s"',
        "done; done",
        "",
      ].join("\n"),
    );
    // Whittle's worker alone: its script, then one `r` line per test, over the shaped directories.
    const bash = findBash();
    if (bash === null) throw new Error("the overhead section needs bash");
    const lines = [workerScript([script, "{}"], shapedFile)];
    for (let r = 0, id = 1; r < reductions; r++) {
      candidates.forEach((_, i) => lines.push(`r ${id++} ${shapedName(i)} -\n`));
    }
    const workerLines = lines.join("");
    const loopFile = join(dir, "loop-candidate.txt");

    let runs = 0;
    let followUps = 0;
    const whittle = async (runner: "auto" | "spawn"): Promise<number> => {
      const command = new CommandOracle({
        command: [script, "{}"],
        fileName: "input.txt",
        captureOutput: false,
        recycleDirectories: true,
        runner,
      });
      // As the command line wires it: candidates are written ahead of their test (prepare).
      const oracle: Oracle = command.toOracle();
      let tests = 0;
      // Every oracle run counts: the reduction's tests and its check of the empty input, which the
      // loops replay too (the warm-up recorded every call).
      for (let i = 0; i < reductions; i++) {
        const { stats } = await reduce(input, oracle, options);
        tests += stats.tests + stats.checks;
      }
      await command.close();
      if (runner === "auto") {
        runs += command.counters.runs;
        followUps += command.counters.followUps;
      }
      return tests;
    };
    const loadBefore = loadavg()[0]!;
    const results = await alternate(VARIANTS, alternations, async (which) => {
      let tests = 0;
      const m = await withCpu(async () => {
        switch (which) {
          case "whittle":
            tests = await whittle("auto");
            break;
          case "whittle (spawn runner)":
            tests = await whittle("spawn");
            break;
          case "shell loop":
            await runShellLoop(loop);
            tests = reductions * candidates.length;
            break;
          case "worker-shaped loop":
            await runShellLoop(shaped);
            tests = reductions * candidates.length;
            break;
          case "whittle's worker alone":
            tests = reductions * candidates.length;
            await runWorkerAlone(bash, shapedDir, workerLines, join(dir, "worker-report.txt"), tests);
            break;
          case "node spawn loop":
            for (let i = 0; i < reductions; i++) {
              for (const c of candidates) {
                await writeFile(loopFile, c);
                await runScript(script, loopFile);
                tests++;
              }
            }
            break;
        }
      });
      return { ...m, tests };
    });
    const per = <T>(f: (x: { ms: number; cpuMs: number; tests: number }) => T) =>
      Object.fromEntries(VARIANTS.map((v, i) => [v, results[i]!.map(f)])) as Record<Variant, T[]>;
    const rates = per((x) => (x.tests / x.ms) * 1000);
    const mapSpread = (values: Record<Variant, number[]>) =>
      Object.fromEntries(VARIANTS.map((v) => [v, spread(values[v])])) as Record<Variant, Spread>;
    oracles.push({
      name,
      script: `#!/bin/sh; ${sleep.trim() ? `${sleep.trim()}; ` : ""}exec grep -q '${marker}' "$1"`,
      testsPerReduction,
      runs,
      followUps,
      reductionsPerMeasurement: reductions,
      load: [loadBefore, loadavg()[0]!],
      rate: mapSpread(rates),
      msPerTest: mapSpread(per((x) => x.ms / x.tests)),
      cpuPerTestMs: mapSpread(per((x) => x.cpuMs / x.tests)),
      ratioToShell: Object.fromEntries(
        VARIANTS.map((v) => [v, ratioSpread(rates[v], rates["shell loop"])]),
      ) as Record<Variant, Spread>,
      ratioToWorker: ratioSpread(rates.whittle, rates["whittle's worker alone"]),
      target,
    });
  }

  // The reducer alone: the same reduction with an in-process oracle.
  const inProcessOracle: Oracle = (c) => Buffer.from(c.buffer, c.byteOffset, c.length).includes(marker);
  const inProc: { cpu: number; wall: number; tests: number }[] = [];
  for (let i = 0; i < reps; i++) {
    let tests = 0;
    const m = await withCpu(async () => {
      for (let k = 0; k < 20; k++) tests += (await reduce(input, inProcessOracle, options)).stats.tests;
    });
    inProc.push({ cpu: (m.cpuMs * 1000) / tests, wall: (m.ms * 1000) / tests, tests });
  }

  return {
    lines,
    inputBytes: input.length,
    settings: `atom line, jobs 1, other options at whittle's defaults (${describeDefaults()}); measured in a fresh Node process`,
    repetitions: alternations,
    oracles,
    inProcess: {
      tests: inProc[0]!.tests / 20,
      cpuPerTestUs: spread(inProc.map((x) => x.cpu)),
      wallPerTestUs: spread(inProc.map((x) => x.wall)),
    },
  };
}

function render(d: OverheadData): string {
  const verdict = (ok: boolean): string => (ok ? "met" : "**not met**");
  const out = [
    `Input: ${d.lines} lines (${d.inputBytes} bytes), one of which the oracle needs. Settings: ${d.settings}. ${d.repetitions} repetitions, alternating the six variants: whittle (default runner: the bash co-process), the plain shell loop (\`for f in …; do ./oracle.sh "$f"; done\` over the same candidates, written to files beforehand, timed as a whole), the worker-shaped loop (the same candidates, each in its own directory, run by bash as whittle's worker runs a test: \`set -m\` for a process group of its own, \`cd\`, the environment, redirections, the report lines, \`wait -f\`; no Node), whittle's worker alone (the script of whittle's bash worker, given all its \`r\` lines at once down its stdin pipe, over the worker-shaped loop's directories: whittle's per-test path in bash with no Node behind it), a bare Node spawn loop (write the file, spawn the script, wait) and whittle with the spawn runner.`,
    "",
  ];
  for (const o of d.oracles) {
    out.push(
      `**${o.name} oracle** (\`${o.script}\`): one measurement = ${o.reductionsPerMeasurement} reduction(s) of ${o.testsPerReduction} tests. Load average (1 min) ${fixed(o.load[0], 2)} before, ${fixed(o.load[1], 2)} after.`,
      "",
      table(
        ["", "tests / s", "wall per test", "rate / shell loop", "CPU of this process per test"],
        VARIANTS.map((v) => [
          v,
          spreadText(o.rate[v], 1),
          `${spreadText(o.msPerTest[v], 2)} ms`,
          percentSpread(o.ratioToShell[v]),
          `${spreadText(o.cpuPerTestMs[v], 3)} ms`,
        ]),
      ),
      `- whittle / shell loop: **${percentSpread(o.ratioToShell.whittle)}** (target ≥ ${o.target * 100} %: ${verdict(o.ratioToShell.whittle.median >= o.target)}). The worker-shaped loop (a test's own process group, directory and environment, run by bash alone, no Node): ${percentSpread(o.ratioToShell["worker-shaped loop"])} of the shell loop — the most a bash co-process that keeps these can reach. Whittle's own worker with no Node: ${percentSpread(o.ratioToShell["whittle's worker alone"])}; whittle / its worker alone: ${percentSpread(o.ratioToWorker)} (what talking to Node costs).`,
      `- Follow-ups: ${o.followUps} of whittle's ${o.runs} test runs (${fixed((100 * o.followUps) / o.runs, 1)} %) were started by the bash worker the moment the test before them ended; ${o.runs - o.followUps} were started by Node, in ${o.reductionsPerMeasurement * d.repetitions} reductions.`,
      `- Wall time per test, medians: whittle ${ms(o.msPerTest.whittle.median)}, shell loop ${ms(o.msPerTest["shell loop"].median)} (whittle adds ${ms(o.msPerTest.whittle.median - o.msPerTest["shell loop"].median)}); whittle with the spawn runner ${ms(o.msPerTest["whittle (spawn runner)"].median)}.`,
      "",
    );
  }
  out.push(
    `The reducer alone (in-process oracle, ${d.inProcess.tests} tests per reduction): ${spreadText(d.inProcess.cpuPerTestUs, 1)} µs of CPU and ${spreadText(d.inProcess.wallPerTestUs, 1)} µs of wall time per test. Wall per test of whittle with the 2 ms oracle: ${ms(d.oracles[0]?.msPerTest.whittle.median ?? NaN)}; its CPU per test ${fixed(d.oracles[0]?.cpuPerTestMs.whittle.median ?? NaN, 3)} ms.`,
    "",
  );
  return out.join("\n");
}

export const overheadSection: Section<OverheadData> = {
  id: "overhead",
  title: "5. Overhead per test",
  run,
  render: (data) => render(data),
};
