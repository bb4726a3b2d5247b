/**
 * Section 6: scale. Line reduction of generated inputs of 1,000 / 10,000 / 100,000 lines of ~100
 * bytes (10 MB at 100,000), of which 5 lines must stay, with an in-process oracle (so the figures are
 * whittle's own cost); and character-level reduction of one line of 5 / 25 / 100 MB to the marker it
 * holds (issue 7: memory per atom, time to the first test). Each run is a child process, so its peak
 * RSS is the reduction's.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import type { BenchContext, Section } from "../lib/context.js";
import { bytes, fixed, ms, table } from "../lib/format.js";
import { progress } from "../lib/log.js";
import { spread, type Spread } from "../lib/stats.js";
import type { ScaleCharChildResult, ScaleChildResult } from "./scale-child.js";
import { describeDefaults } from "../lib/defaults.js";

const run$ = promisify(execFile);

export interface ScaleRow {
  lines: number;
  inputBytes: number;
  cache: string;
  tests: number;
  outputLines: number;
  ok: boolean;
  wall: Spread;
  cpu: Spread;
  maxRss: Spread;
  rssBefore: number;
  peakCacheBytes: number;
  /** Wall time per test, median. */
  msPerTest: number;
  /** The defaults the child processes ran with. */
  defaults: string[];
}

export interface ScaleCharRow {
  megabytes: number;
  inputBytes: number;
  atoms: number;
  jobs: number;
  tests: number;
  stopped: boolean;
  outputBytes: number;
  ok: boolean;
  firstTest: Spread;
  wall: Spread;
  maxRss: Spread;
  rssBefore: number;
  /** (peak RSS − RSS before) / atoms, per run. */
  bytesPerAtom: Spread;
}

export interface ScaleData {
  settings: string;
  /** Character level: one line of N MB; absent in results of older runs. */
  chars?: {
    settings: string;
    budgetMs: number;
    rows: ScaleCharRow[];
    target: { bytesPerAtom: number; met: boolean };
  };
  oracle: string;
  rows: ScaleRow[];
  /** Growth of the median wall time between consecutive sizes (×10 lines each). */
  growth: { from: number; to: number; timeFactor: number; testsFactor: number }[];
  target: { maxRssMB: number; met: boolean; largest: number };
}

async function child(ctx: BenchContext, lines: number, cache: string): Promise<ScaleChildResult> {
  const script = join(ctx.repoRoot, "dist", "bench", "sections", "scale-child.js");
  const { stdout } = await run$(process.execPath, [script, String(lines), cache], {
    maxBuffer: 1 << 20,
    timeout: 600_000,
  });
  return JSON.parse(stdout.trim().split("\n").pop()!) as ScaleChildResult;
}

const CHAR_BUDGET_MS = 300_000;

async function charChild(ctx: BenchContext, megabytes: number, jobs: number): Promise<ScaleCharChildResult> {
  const script = join(ctx.repoRoot, "dist", "bench", "sections", "scale-child.js");
  const { stdout } = await run$(
    process.execPath,
    [script, "char", String(megabytes), String(jobs), String(CHAR_BUDGET_MS)],
    { maxBuffer: 1 << 20, timeout: CHAR_BUDGET_MS + 120_000 },
  );
  return JSON.parse(stdout.trim().split("\n").pop()!) as ScaleCharChildResult;
}

async function runChars(ctx: BenchContext): Promise<NonNullable<ScaleData["chars"]>> {
  const plan = ctx.quick
    ? [
        { megabytes: 5, jobs: 1 },
        { megabytes: 25, jobs: 1 },
      ]
    : [
        { megabytes: 5, jobs: 1 },
        { megabytes: 25, jobs: 1 },
        { megabytes: 100, jobs: 1 },
        { megabytes: 100, jobs: 8 },
      ];
  const rows: ScaleCharRow[] = [];
  for (const p of plan) {
    const runs: ScaleCharChildResult[] = [];
    for (let i = 0; i < ctx.reps; i++) {
      const r = await charChild(ctx, p.megabytes, p.jobs);
      runs.push(r);
      progress(
        `scale: one line of ${p.megabytes} MB, characters, jobs ${p.jobs}: ${r.tests} tests, first test after ${ms(r.firstTestMs)}, ${ms(r.wallMs)}, peak RSS ${bytes(r.maxRssBytes)}, ${fixed(r.bytesPerAtom, 1)} B/atom`,
      );
    }
    const first = runs[0]!;
    rows.push({
      megabytes: p.megabytes,
      inputBytes: first.inputBytes,
      atoms: first.atoms,
      jobs: p.jobs,
      tests: first.tests,
      stopped: runs.some((r) => r.stopped),
      outputBytes: first.outputBytes,
      ok: runs.every((r) => r.ok),
      firstTest: spread(runs.map((r) => r.firstTestMs)),
      wall: spread(runs.map((r) => r.wallMs)),
      maxRss: spread(runs.map((r) => r.maxRssBytes)),
      rssBefore: first.rssBeforeBytes,
      bytesPerAtom: spread(runs.map((r) => r.bytesPerAtom)),
    });
  }
  const target = 16;
  return {
    settings: `atom char, whittle's defaults otherwise (${describeDefaults()}); one line of words, no newline, ASCII (every byte an atom); time budget ${CHAR_BUDGET_MS / 1000} s per run`,
    budgetMs: CHAR_BUDGET_MS,
    rows,
    target: { bytesPerAtom: target, met: rows.every((r) => r.bytesPerAtom.max <= target) },
  };
}

async function run(ctx: BenchContext): Promise<ScaleData> {
  const sizes = ctx.quick ? [1000, 10_000] : [1000, 10_000, 100_000];
  const reps = ctx.reps;
  const plan: { lines: number; cache: string; reps: number }[] = sizes.map((lines) => ({
    lines,
    cache: "content-hash",
    reps,
  }));
  if (!ctx.quick) plan.push({ lines: 100_000, cache: "content", reps: 1 });
  const rows: ScaleRow[] = [];
  for (const p of plan) {
    const runs: ScaleChildResult[] = [];
    for (let i = 0; i < p.reps; i++) {
      const r = await child(ctx, p.lines, p.cache);
      runs.push(r);
      progress(
        `scale: ${p.lines} lines, ${p.cache}: ${r.tests} tests, ${ms(r.wallMs)}, peak RSS ${bytes(r.maxRssBytes)}`,
      );
    }
    const first = runs[0]!;
    const wall = spread(runs.map((r) => r.wallMs));
    rows.push({
      lines: p.lines,
      inputBytes: first.inputBytes,
      cache: p.cache,
      tests: first.tests,
      outputLines: first.outputLines,
      ok: runs.every((r) => r.ok),
      wall,
      cpu: spread(runs.map((r) => r.cpuMs)),
      maxRss: spread(runs.map((r) => r.maxRssBytes)),
      rssBefore: first.rssBeforeBytes,
      peakCacheBytes: first.peakCacheBytes,
      msPerTest: wall.median / Math.max(first.tests, 1),
      defaults: [...new Set(runs.map((r) => r.defaults))],
    });
  }
  const main = rows.filter((r) => r.cache === "content-hash");
  const growth = main.slice(1).map((r, i) => ({
    from: main[i]!.lines,
    to: r.lines,
    timeFactor: r.wall.median / main[i]!.wall.median,
    testsFactor: r.tests / main[i]!.tests,
  }));
  const largest = main[main.length - 1]!;
  const chars = await runChars(ctx);
  return {
    chars,
    settings: `atom line, jobs 1, whittle's defaults otherwise (${describeDefaults()}); the content-hash row is the default cache`,
    oracle: "in-process: the candidate still contains the 5 marker lines KEEP-1 … KEEP-5 (Buffer.includes)",
    rows,
    growth,
    target: { maxRssMB: 300, met: largest.maxRss.max < 300 * 2 ** 20, largest: largest.lines },
  };
}

function render(d: ScaleData): string {
  return [
    `Settings: ${d.settings}. Oracle: ${d.oracle}. Each run is a separate Node process; peak RSS is its getrusage maxRSS (Node itself and the generated input included; "RSS before" is the process after generating the input). Wall and CPU time: median (min–max) over runs.`,
    "",
    table(
      [
        "lines",
        "input",
        "cache",
        "tests",
        "result lines",
        "wall time",
        "per test",
        "CPU",
        "peak RSS",
        "RSS before",
        "cache peak (accounting)",
      ],
      d.rows.map((r) => [
        r.lines,
        bytes(r.inputBytes),
        r.cache,
        r.tests,
        `${r.outputLines}${r.ok ? "" : " (NOT interesting!)"}`,
        `${ms(r.wall.median)} (${ms(r.wall.min)}–${ms(r.wall.max)})`,
        ms(r.msPerTest),
        ms(r.cpu.median),
        r.maxRss.n > 1 ? `${bytes(r.maxRss.median)} (max ${bytes(r.maxRss.max)})` : bytes(r.maxRss.median),
        bytes(r.rssBefore),
        bytes(r.peakCacheBytes),
      ]),
    ),
    `Growth (content-hash): ${d.growth.map((g) => `${g.from} → ${g.to} lines: time ×${fixed(g.timeFactor, 1)}, tests ×${fixed(g.testsFactor, 2)}`).join("; ")}.`,
    "",
    `Peak RSS at ${d.target.largest} lines under ${d.target.maxRssMB} MB: ${d.target.met ? "met" : "**not met**"}.`,
    "",
    ...(d.chars ? renderChars(d.chars) : []),
    ...(new Set(d.rows.flatMap((r) => r.defaults)).size > 1
      ? [
          "**Warning:** the library's defaults changed while this section ran (the sources were rebuilt); rows differ in settings.",
        ]
      : []),
    "",
  ].join("\n");
}

function renderChars(c: NonNullable<ScaleData["chars"]>): string[] {
  return [
    `**Character level, one line.** Settings: ${c.settings}. Oracle: in-process, the candidate still contains \`MARKER-7f3a\` (placed at 37 % of the input; Buffer.includes). Bytes per atom = (peak RSS − RSS before) / atoms, where "RSS before" is the process after generating the input (Node and the input itself). First test: from the call of reduce() to the first test-start event (splitting into atoms, joining and hashing the first candidate). Median (min–max) over runs.`,
    "",
    table(
      [
        "input",
        "atoms",
        "jobs",
        "tests",
        "result",
        "first test",
        "wall time",
        "peak RSS",
        "RSS before",
        "bytes per atom at peak",
      ],
      c.rows.map((r) => [
        bytes(r.inputBytes),
        r.atoms,
        r.jobs,
        `${r.tests}${r.stopped ? " (stopped by the time budget)" : ""}`,
        `${r.outputBytes} B${r.ok ? "" : " (NOT interesting!)"}`,
        `${ms(r.firstTest.median)} (${ms(r.firstTest.min)}–${ms(r.firstTest.max)})`,
        `${ms(r.wall.median)} (${ms(r.wall.min)}–${ms(r.wall.max)})`,
        r.maxRss.n > 1 ? `${bytes(r.maxRss.median)} (max ${bytes(r.maxRss.max)})` : bytes(r.maxRss.median),
        bytes(r.rssBefore),
        `${fixed(r.bytesPerAtom.median, 2)} (${fixed(r.bytesPerAtom.min, 2)}–${fixed(r.bytesPerAtom.max, 2)})`,
      ]),
    ),
    `At most ${c.target.bytesPerAtom} bytes per atom at peak in every run: ${c.target.met ? "met" : "**not met**"}.`,
    "",
  ];
}

export const scaleSection: Section<ScaleData> = {
  id: "scale",
  title: "6. Scale (10 MB of lines, 100 MB of characters)",
  run,
  render: (data) => render(data),
};
