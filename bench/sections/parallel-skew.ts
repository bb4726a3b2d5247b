/**
 * Part of section 4 (issue 7): does deterministic mode cost time where it can? A deterministic round
 * waits for every candidate before the first interesting one, so a slow candidate early in a round
 * holds it up, while first-wins commits whatever interesting candidate finishes first. That can only
 * show when test durations differ from candidate to candidate, so here they do: an in-process oracle
 * over a few hundred lines whose duration is derived from a hash of the candidate (most 5–10 ms, one
 * in ten 50–200 ms), whittle's defaults, jobs 2, 4 and 8, the two modes alternating.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { reduce } from "../../src/reduce/reduce.js";
import type { Oracle } from "../../src/reduce/evaluator.js";
import type { BenchContext } from "../lib/context.js";
import { describeDefaults } from "../lib/defaults.js";
import { ms, spreadText, table } from "../lib/format.js";
import { progress } from "../lib/log.js";
import { pairRatios, spread, type Spread } from "../lib/stats.js";
import { alternate } from "../lib/timing.js";

const LINES = 300;
/** Lines i with i % 37 = 5 must stay (8 of 300). */
const REQUIRED = Array.from({ length: LINES }, (_, i) => i).filter((i) => i % 37 === 5);

export interface SkewRow {
  jobs: number;
  mode: "deterministic" | "first-wins";
  time: Spread;
  tests: number[];
  cancelled: number[];
  /** Size of the result in bytes (the defaults reduce lines, then characters). */
  resultBytes: number[];
  /** Summed oracle sleep of the tests that ran to the end, per repetition (ms). */
  testTime: number[];
}

export interface SkewData {
  settings: string;
  oracle: string;
  lines: number;
  rows: SkewRow[];
  /** Per jobs level: time(deterministic) / time(first-wins), per repetition. */
  ratios: { jobs: number; ratio: Spread }[];
  /** jobs 1, for scale: the sequential time. */
  sequential: { time: Spread; tests: number };
}

function fnv1a(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193);
  return h >>> 0;
}

/** The duration of a candidate's test, in ms: a function of its bytes only. */
export function skewedDuration(candidate: Uint8Array): number {
  const h = fnv1a(candidate);
  const pick = h % 100;
  const spread = (h >>> 8) % 1000;
  return pick < 10 ? 50 + (spread % 151) : 5 + (spread % 6);
}

function input(): Buffer {
  return Buffer.from(
    Array.from({ length: LINES }, (_, i) => `${String(i).padStart(3, "0")} some text on this line\n`).join(
      "",
    ),
  );
}

function oracle(stats: { slept: number }): Oracle {
  const needed = REQUIRED.map((i) => `${String(i).padStart(3, "0")} `);
  return async (c, signal) => {
    const ms = skewedDuration(c);
    await sleep(ms, undefined, { signal });
    stats.slept += ms;
    const text = Buffer.from(c).toString("latin1");
    return needed.every((n) => text.includes(n));
  };
}

interface Variant {
  jobs: number;
  firstWins: boolean;
}

export async function runSkew(ctx: BenchContext): Promise<SkewData> {
  const bytes = input();
  const list: Variant[] = [{ jobs: 1, firstWins: false }];
  for (const jobs of [2, 4, 8]) list.push({ jobs, firstWins: false }, { jobs, firstWins: true });
  // About 38 s per repetition: quick mode runs one.
  const reps = ctx.quick ? 1 : ctx.reps;
  progress(`parallel: skewed test durations, ${list.length} variants × ${reps} repetitions`);
  const results = await alternate(list, reps, async (v) => {
    const stats = { slept: 0 };
    const t0 = performance.now();
    const r = await reduce(bytes, oracle(stats), {
      jobs: v.jobs,
      firstWins: v.firstWins,
      assumeInteresting: true,
    });
    const took = performance.now() - t0;
    return {
      ms: took,
      tests: r.stats.tests,
      cancelled: r.stats.cancelled,
      resultBytes: r.output.length,
      slept: stats.slept,
    };
  });
  const rows: SkewRow[] = list.slice(1).map((v, k) => {
    const runs = results[k + 1]!;
    return {
      jobs: v.jobs,
      mode: v.firstWins ? "first-wins" : "deterministic",
      time: spread(runs.map((r) => r.ms)),
      tests: runs.map((r) => r.tests),
      cancelled: runs.map((r) => r.cancelled),
      resultBytes: runs.map((r) => r.resultBytes),
      testTime: runs.map((r) => r.slept),
    };
  });
  const ratios = [2, 4, 8].map((jobs) => {
    const i = list.findIndex((v) => v.jobs === jobs && !v.firstWins);
    const j = list.findIndex((v) => v.jobs === jobs && v.firstWins);
    const det = results[i]!.map((r) => r.ms);
    const fw = results[j]!.map((r) => r.ms);
    return { jobs, ratio: spread(pairRatios(det, fw)) };
  });
  for (const r of ratios)
    progress(`parallel: skewed, jobs ${r.jobs}: deterministic / first-wins time ${spreadText(r.ratio)}`);
  const seq = results[0]!;
  return {
    settings: `whittle's defaults (${describeDefaults()}) with the jobs and mode shown`,
    oracle: `in-process: interesting iff the ${REQUIRED.length} lines ${REQUIRED.join(", ")} remain; each test sleeps a time derived from an FNV-1a hash of the candidate: 90 % of candidates 5–10 ms, 10 % 50–200 ms`,
    lines: LINES,
    rows,
    ratios,
    sequential: { time: spread(seq.map((r) => r.ms)), tests: seq[0]!.tests },
  };
}

export function renderSkew(d: SkewData): string {
  const range = (xs: number[]): string => {
    const lo = Math.min(...xs);
    const hi = Math.max(...xs);
    return lo === hi ? String(lo) : `${lo}–${hi}`;
  };
  return [
    "### Deterministic vs first-wins with skewed test durations",
    "",
    `Input: ${d.lines} lines. Oracle: ${d.oracle}. Settings: ${d.settings}. The two modes run alternating within each repetition; the ratio is computed per repetition, median (min–max). Sequential (jobs 1) for scale: ${ms(d.sequential.time.median)} (${ms(d.sequential.time.min)}–${ms(d.sequential.time.max)}), ${d.sequential.tests} tests.`,
    "",
    table(
      ["jobs", "mode", "wall time", "tests", "cancelled", "result bytes", "slept in finished tests"],
      d.rows.map((r) => [
        r.jobs,
        r.mode,
        `${ms(r.time.median)} (${ms(r.time.min)}–${ms(r.time.max)})`,
        range(r.tests),
        range(r.cancelled),
        range(r.resultBytes),
        ms(spread(r.testTime).median),
      ]),
    ),
    table(
      ["jobs", "time deterministic / first-wins"],
      d.ratios.map((r) => [r.jobs, spreadText(r.ratio)]),
    ),
  ].join("\n");
}
