/**
 * Section 5: whittle's overhead per test. A 2,000-line input and a trivial oracle (a shell script
 * that greps one line): whittle's tests per second (jobs 1, through its command oracle) against a
 * plain loop that runs the same script on the same candidates, one after another, from Node (write
 * the candidate file, spawn, wait) — alternating, repeated. And whittle's own CPU time per test:
 * process.cpuUsage() of this process during reduce() (children excluded), divided by tests — with
 * the command oracle (includes spawning) and with an in-process oracle (the reducer alone).
 */
import { spawn } from "node:child_process";
import { chmodSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { CommandOracle } from "../../src/oracle/command.js";
import type { Oracle } from "../../src/reduce/evaluator.js";
import { reduce } from "../../src/reduce/reduce.js";
import type { BenchContext, Section } from "../lib/context.js";
import { fixed, ms, percentSpread, spreadText, table } from "../lib/format.js";
import { linesInput } from "../lib/generated.js";
import { progress } from "../lib/log.js";
import { ratioSpread, spread, type Spread } from "../lib/stats.js";
import { alternate, withCpu } from "../lib/timing.js";
import { describeDefaults } from "../lib/defaults.js";

export interface OverheadData {
  lines: number;
  inputBytes: number;
  script: string;
  settings: string;
  /** Reductions per measurement (so that one measurement has enough tests to time). */
  reductionsPerMeasurement: number;
  testsPerReduction: number;
  whittle: { rate: Spread; cpuPerTestMs: Spread; msPerTest: Spread };
  loop: { rate: Spread; cpuPerTestMs: Spread; msPerTest: Spread };
  /** whittle rate / loop rate, per repetition. */
  rateRatio: Spread;
  /** Whittle's CPU per test minus the loop's, per repetition: what whittle adds around a spawn. */
  extraCpuPerTestMs: Spread;
  inProcess: { tests: number; cpuPerTestUs: Spread; wallPerTestUs: Spread };
  targets: { rate: number; cpuPerTestMs: number };
}

async function runScript(script: string, file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(script, [file], { stdio: "ignore" });
    child.once("error", reject);
    child.once("exit", (code) => resolve(code ?? -1));
  });
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

/** The measurement itself (in the child process). */
export async function measureOverhead(ctx: {
  tmpDir: string;
  quick: boolean;
  reps: number;
}): Promise<OverheadData> {
  const lines = 2000;
  const { input, markers } = linesInput(lines, 1);
  const marker = markers[0]!;
  const script = join(ctx.tmpDir, "grep-one-line.sh");
  writeFileSync(script, `#!/bin/sh\nexec grep -q '${marker}' "$1"\n`);
  chmodSync(script, 0o755);
  const command = new CommandOracle({ command: [script, "{}"], fileName: "input.txt", captureOutput: false });
  const options = { atom: "line" as const, jobs: 1, assumeInteresting: true };

  // A warm-up run that records the candidates, for the plain loop to replay.
  const candidates: Uint8Array[] = [];
  const recording: Oracle = (c, s) => {
    candidates.push(c.slice());
    return command.test(c, s);
  };
  const warm = await reduce(input, recording, options);
  const testsPerReduction = warm.stats.tests;
  const reductions = Math.max(1, Math.ceil((ctx.quick ? 80 : 200) / testsPerReduction));
  const reps = ctx.quick ? ctx.reps : ctx.reps + 2;
  progress(
    `overhead: ${testsPerReduction} tests per reduction; ${reductions} reductions per measurement, ${reps} repetitions`,
  );

  const loopFile = join(ctx.tmpDir, "loop-candidate.txt");
  const oracle: Oracle = (c, s) => command.test(c, s);
  const [w, l] = await alternate(["whittle", "loop"] as const, reps, async (which) => {
    if (which === "whittle") {
      let tests = 0;
      const m = await withCpu(async () => {
        for (let i = 0; i < reductions; i++) tests += (await reduce(input, oracle, options)).stats.tests;
      });
      return { ...m, tests };
    }
    let tests = 0;
    const m = await withCpu(async () => {
      for (let i = 0; i < reductions; i++) {
        for (const c of candidates) {
          await writeFile(loopFile, c);
          await runScript(script, loopFile);
          tests++;
        }
      }
    });
    return { ...m, tests };
  });
  const rate = (xs: typeof w) => xs!.map((x) => (x.tests / x.ms) * 1000);
  const cpuPer = (xs: typeof w) => xs!.map((x) => x.cpuMs / x.tests);
  const msPer = (xs: typeof w) => xs!.map((x) => x.ms / x.tests);

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

  const whittleRate = rate(w);
  const loopRate = rate(l);
  return {
    lines,
    inputBytes: input.length,
    script: `#!/bin/sh; exec grep -q '${marker}' "$1"`,
    settings: `atom line, jobs 1, other options at whittle's defaults (${describeDefaults()}); measured in a fresh Node process`,
    reductionsPerMeasurement: reductions,
    testsPerReduction,
    whittle: { rate: spread(whittleRate), cpuPerTestMs: spread(cpuPer(w)), msPerTest: spread(msPer(w)) },
    loop: { rate: spread(loopRate), cpuPerTestMs: spread(cpuPer(l)), msPerTest: spread(msPer(l)) },
    rateRatio: ratioSpread(whittleRate, loopRate),
    extraCpuPerTestMs: spread(cpuPer(w).map((c, i) => c - cpuPer(l)[i]!)),
    inProcess: {
      tests: inProc[0]!.tests / 20,
      cpuPerTestUs: spread(inProc.map((x) => x.cpu)),
      wallPerTestUs: spread(inProc.map((x) => x.wall)),
    },
    targets: { rate: 0.9, cpuPerTestMs: 0.5 },
  };
}

function render(d: OverheadData): string {
  const verdict = (ok: boolean): string => (ok ? "met" : "**not met**");
  return [
    `Input: ${d.lines} lines (${d.inputBytes} bytes), one of which the oracle needs. Oracle: \`${d.script}\`. Settings: ${d.settings}. One measurement = ${d.reductionsPerMeasurement} reduction(s) of ${d.testsPerReduction} tests; ${d.whittle.rate.n} repetitions, alternating whittle and the plain loop (which replays the same candidates: write the file, spawn the script, wait).`,
    "",
    table(
      ["", "tests / s", "wall per test", "CPU of this process per test"],
      [
        [
          "whittle (command oracle)",
          spreadText(d.whittle.rate, 1),
          `${spreadText(d.whittle.msPerTest, 2)} ms`,
          `${spreadText(d.whittle.cpuPerTestMs, 3)} ms`,
        ],
        [
          "plain loop",
          spreadText(d.loop.rate, 1),
          `${spreadText(d.loop.msPerTest, 2)} ms`,
          `${spreadText(d.loop.cpuPerTestMs, 3)} ms`,
        ],
        [
          "whittle, in-process oracle",
          "–",
          `${spreadText(d.inProcess.wallPerTestUs, 1)} µs`,
          `${spreadText(d.inProcess.cpuPerTestUs, 1)} µs`,
        ],
      ],
    ),
    `- Rate of whittle / rate of the plain loop: **${percentSpread(d.rateRatio)}** (target ≥ ${d.targets.rate * 100} %: ${verdict(d.rateRatio.median >= d.targets.rate)}).`,
    `- Whittle's CPU per test with the command oracle: **${fixed(d.whittle.cpuPerTestMs.median, 3)} ms** (spawning included; the plain loop's spawn alone costs ${fixed(d.loop.cpuPerTestMs.median, 3)} ms, so whittle adds ${spreadText(d.extraCpuPerTestMs, 3)} ms). The reducer itself (in-process oracle): **${fixed(d.inProcess.cpuPerTestUs.median / 1000, 4)} ms** per test. Target well under ${d.targets.cpuPerTestMs} ms: ${verdict(d.inProcess.cpuPerTestUs.median / 1000 < d.targets.cpuPerTestMs && d.extraCpuPerTestMs.median < d.targets.cpuPerTestMs)} (reducer alone and what whittle adds around a spawn; the spawn itself is the same in any test runner).`,
    `- Wall time per whittle test: ${ms(d.whittle.msPerTest.median)}, of the plain loop: ${ms(d.loop.msPerTest.median)}.`,
    "",
  ].join("\n");
}

export const overheadSection: Section<OverheadData> = {
  id: "overhead",
  title: "5. Overhead per test",
  run,
  render: (data) => render(data),
};
