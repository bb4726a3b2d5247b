import { OPTION_LIST, type ResolvedOptions } from "../reduce/options.js";
import type { ReductionStats } from "../reduce/stats.js";
import type { QueueStatus } from "../queue/client.js";
import { readFile, stat } from "node:fs/promises";
import { writeAtomic, writeInPlace, type FifoWait } from "./files.js";
import type { VerdictSummary } from "./verdict.js";
import type { ScheduleRecord } from "./schedule-view.js";

/** The per-test timeout of a run and what the tests that hit it cost. */
export interface TimeoutSummary {
  /** "fixed" by --timeout, or "adaptive" (timeout-policy.ts). */
  mode: "fixed" | "adaptive";
  /** The limit at the end, in ms (undefined: none). */
  limitMs: number | undefined;
  /** Test runs that timed out, re-tests included, and the time they took. */
  runs: number;
  totalMs: number;
  /** Timed-out candidates tested again after the adaptive limit rose. */
  retests: number;
}

/** What `--stats` records, on every way a run can end after the options were accepted. */
export interface StatsSummary {
  result: "done" | "interrupted" | "limit" | "failed" | "not-interesting";
  /** With "limit": the option whose limit stopped the run. */
  limit?: "--max-time" | "--max-tests";
  /** With "failed": what went wrong. */
  error?: string;
  /** The empty input was interesting (the test probably does not check the failure). */
  emptyIsInteresting?: boolean;
  inputBytes: number;
  /** The passes of the run, by name, in order. */
  pipeline: string[];
  /** The default schedule's steps and which ran (schedule-view.ts); absent with --phase. */
  schedule?: ScheduleRecord[];
  initialCheckMs: number;
  /** Tests run at once: -j, or its default (default-jobs.ts; absent when the run ended at the initial check). */
  jobs?: number;
  /** The per-test timeouts (absent when the run ended at the initial check). */
  timeouts?: TimeoutSummary;
  wallMs: number;
  /** The reduction's counts (absent when the run ended at the initial check). */
  stats?: ReductionStats;
  outputBytes?: number;
  /** The repeated runs (--repeat/--need) and the final re-test (absent: one run per candidate, none made). */
  verdict?: VerdictSummary;
  /** With --queue: the workers and the jobs of the run (queue/client.ts). */
  queue?: QueueStatus & { url: string };
}

/** The version of the statistics file's format, in its `whittle.stats` field. */
const STATS_FORMAT = 1;

/** No statistics file is this large: a larger file is not read to find out. */
const STATS_SIZE_LIMIT = 1 << 20;

/**
 * Whether `--stats` may write to `path`: no file is there, or an empty one, or a statistics file
 * whittle wrote (a JSON object marked `"whittle": {"stats": N}`). Any other file might be the only
 * copy of something.
 */
export async function mayHoldStats(path: string): Promise<boolean> {
  let size: number;
  try {
    const s = await stat(path);
    if (!s.isFile()) return true;
    size = s.size;
  } catch {
    return true;
  }
  if (size === 0) return true;
  if (size > STATS_SIZE_LIMIT) return false;
  try {
    const json = JSON.parse(await readFile(path, "utf8")) as { whittle?: { stats?: unknown } } | null;
    return typeof json?.whittle?.stats === "number";
  } catch {
    return false;
  }
}

/**
 * Writes the JSON summary atomically (a reader never sees half of it); into a device or FIFO as it
 * is (a rename would replace the node: /dev/null itself), waiting for a FIFO's reader as `fifo` says.
 */
export async function writeStats(
  path: string,
  summary: StatsSummary,
  options: Partial<ResolvedOptions>,
  fifo?: FifoWait,
): Promise<void> {
  const s = summary.stats;
  const json = {
    // The mark by which whittle knows a file it may overwrite with new statistics (mayHoldStats).
    whittle: { stats: STATS_FORMAT },
    result: summary.result,
    ...(summary.error !== undefined ? { error: summary.error } : {}),
    ...(summary.limit !== undefined ? { limit: summary.limit } : {}),
    ...(summary.emptyIsInteresting ? { emptyIsInteresting: true } : {}),
    tests: s?.tests ?? 0,
    checks: (s?.checks ?? 0) + 1, // the initial check is made by the command itself
    cacheHits: s?.cacheHits ?? 0,
    syntaxSkips: s?.syntaxSkips ?? 0,
    timeoutSkips: s?.timeoutSkips ?? 0,
    iterations: s?.iterations ?? 0,
    timeouts: s?.timeouts ?? 0,
    killed: s?.killed ?? 0,
    cancelled: s?.cancelled ?? 0,
    inputBytes: summary.inputBytes,
    pipeline: summary.pipeline,
    schedule: summary.schedule ?? null,
    outputBytes: summary.outputBytes ?? null,
    wallMs: summary.wallMs,
    initialCheckMs: summary.initialCheckMs,
    jobs: summary.jobs ?? null,
    timeoutMs: summary.timeouts?.limitMs ?? null,
    timeoutMode: summary.timeouts?.mode ?? null,
    timedOutRuns: summary.timeouts?.runs ?? 0,
    timeoutTotalMs: Math.round(summary.timeouts?.totalMs ?? 0),
    retests: summary.timeouts?.retests ?? 0,
    // Flaky tests: --repeat M --need K, what the repeated runs cost and how often they disagreed, and
    // the final re-test (null when not reached): repeatable or not, and what the output holds.
    repeat: summary.verdict?.repeat ?? 1,
    need: summary.verdict?.need ?? 1,
    extraRuns: summary.verdict?.extraRuns ?? 0,
    disagreements: summary.verdict?.disagreements ?? 0,
    finalCheck: summary.verdict?.finalCheck ?? null,
    cache: s?.cache ?? null,
    passes: Object.fromEntries(
      Object.entries(s?.passes ?? {}).map(([name, pass]) => [
        name,
        { ...pass, ms: Math.round(pass.ms), timeoutMs: Math.round(pass.timeoutMs) },
      ]),
    ),
    options: optionsJson(options),
    ...(summary.queue !== undefined ? { queue: summary.queue } : {}),
  };
  const bytes = new TextEncoder().encode(JSON.stringify(json, null, 2) + "\n");
  const special = await stat(path).then(
    (s) => !s.isFile(),
    () => false,
  );
  if (special) await writeInPlace(path, bytes, fifo);
  else await writeAtomic(path, bytes);
}

/** The options of the reduction, in the table's order; null for one left to its computed default (-j). */
export function optionsJson(
  options: Partial<ResolvedOptions>,
): Record<string, string | number | boolean | null> {
  return Object.fromEntries(
    OPTION_LIST.map(([name, spec]) => {
      const value = options[name];
      return [name, value === undefined ? null : spec.show ? spec.show(value) : value];
    }),
  );
}
