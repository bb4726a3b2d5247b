/**
 * The whittle command as the hdd and languages sections run it: one process per configuration, with
 * the case's real oracle.sh, `-j 1` (test counts deterministic and comparable with the anchors'
 * sequential tools) and a fixed per-test timeout, statistics from `--stats`. Every run has a
 * wall-clock budget: past it whittle gets SIGINT (it then writes its best result and statistics) and
 * the run is reported as stopped at the budget with what it reached. The whittle process's own peak
 * RSS comes from rss-hook.ts (`node --import`), and oracle.sh is run once more on the result. The
 * efficiency section runs it zero-config instead (no `-j`, no `--timeout`), and another build too.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { nonWhitespaceChars } from "./anchors.js";
import type { BenchContext } from "./context.js";
import { bytes, ms } from "./format.js";
import { progress } from "./log.js";
import { shellOracle } from "./oracles.js";

export const MINUTE = 60_000;

/**
 * A fixed per-test limit: the adaptive one (from test durations, at least 0.25 s) fires now and then
 * on a loaded machine, and a timed-out candidate counts as not interesting, which would make the
 * counts depend on the load. No shared oracle needs 30 s (the JavaScript ones stop at 10).
 */
export const TEST_TIMEOUT_S = 30;

/** XDG_CACHE_HOME of the whittle commands: their grammar cache is `<this>/whittle`. */
export function xdgCacheHome(ctx: BenchContext): string {
  return join(ctx.tmpDir, "xdg");
}

export interface WhittleRunOptions {
  /** The section, named in progress lines. */
  readonly section: string;
  readonly caseName: string;
  readonly variant: string;
  readonly label: string;
  /** The input file (read by whittle, never written). */
  readonly input: string;
  /** Its file name: the output keeps it, and oracle.sh gets candidates under it. */
  readonly inputName: string;
  readonly oracle: string;
  /** What chooses the representation and pipeline: grammar or language, phases, filters. */
  readonly args: readonly string[];
  readonly budgetMs: number;
  /** A fresh folder for the run's output, statistics and RSS file. */
  readonly dir: string;
  /** Default true (`-q`); false keeps whittle's notices (which language it chose) on stderr. */
  readonly quiet?: boolean;
  /** The whittle to run (its dist/src/cli/main.js); default this repository's build. */
  readonly main?: string;
  /** No `-j 1` and no `--timeout`: jobs and the per-test limit as whittle chooses them. */
  readonly zeroConfig?: boolean;
}

export interface WhittleRun {
  case: string;
  variant: string;
  label: string;
  argv: string[];
  budgetMs: number;
  /** The stats file's result: done, interrupted, failed, not-interesting; "no stats" if none was written. */
  result: string;
  /** The stats file's error, with "failed". */
  error: string | null;
  exitCode: number | null;
  stoppedAtBudget: boolean;
  tests: number;
  cacheHits: number;
  /** Candidates the syntax filter kept from the oracle. */
  syntaxSkips: number;
  /** Tests that hit the per-test limit. */
  timedOut: number;
  cacheKind: string | null;
  cachePeakEntries: number;
  cachePeakBytes: number;
  /** The passes of the run, in order. */
  pipeline: string[];
  /** Tests per pass. */
  passes: Record<string, number>;
  outputBytes: number;
  nonWsChars: number;
  /** Wall time of the whittle process (spawn to exit), grammar load and parses included. */
  wallMs: number;
  /** whittle's own wallMs from the stats file. */
  statsWallMs: number | null;
  maxRssBytes: number;
  rssSource: "getrusage" | "sampled";
  /** oracle.sh run once more on the result. */
  interesting: boolean | null;
  /** The start of whittle's stderr. */
  stderr: string;
}

interface StatsJson {
  result: string;
  error?: string;
  tests: number;
  cacheHits: number;
  syntaxSkips: number;
  timedOutRuns: number;
  wallMs: number;
  pipeline: string[];
  cache: { kind: string; peakEntries: number; peakBytes: number } | null;
  passes: Record<string, { tests: number }>;
}

/** One whittle command in its own process, under a wall-clock budget (then SIGINT). */
export async function runWhittle(ctx: BenchContext, opts: WhittleRunOptions): Promise<WhittleRun> {
  const { dir } = opts;
  mkdirSync(dir, { recursive: true });
  const out = join(dir, `out-${opts.inputName}`);
  const stats = join(dir, "stats.json");
  const main = opts.main ?? join(ctx.repoRoot, "dist", "src", "cli", "main.js");
  const hook = join(ctx.repoRoot, "dist", "bench", "lib", "rss-hook.js");
  const args = [
    opts.input,
    ...opts.args,
    ...(opts.zeroConfig ? [] : ["-j", "1", "--timeout", String(TEST_TIMEOUT_S)]),
    "-o",
    out,
    "--stats",
    stats,
    ...(opts.quiet === false ? [] : ["-q"]),
    "--",
    opts.oracle,
    "{}",
  ];
  const env = { ...process.env, XDG_CACHE_HOME: xdgCacheHome(ctx), WHITTLE_BENCH_RSS_DIR: dir };
  const t0 = performance.now();
  const child = spawn(process.execPath, ["--import", hook, main, ...args], {
    env,
    cwd: dir,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    if (stderr.length < 4000) stderr += chunk;
  });
  // Fallback RSS: the process's high-water mark, polled (Linux), if the hook could not write.
  let sampled = 0;
  const poll = setInterval(() => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
      if (m) sampled = Math.max(sampled, Number(m[1]) * 1024);
    } catch {
      // gone, or not Linux
    }
  }, 250);
  let stoppedAtBudget = false;
  let killTimer: NodeJS.Timeout | undefined;
  const budget = setTimeout(() => {
    stoppedAtBudget = true;
    progress(
      `${opts.section}: ${opts.caseName} ${opts.variant}: budget of ${ms(opts.budgetMs)} reached, SIGINT`,
    );
    child.kill("SIGINT");
    killTimer = setTimeout(() => child.kill("SIGKILL"), 2 * MINUTE);
  }, opts.budgetMs);
  const exitCode = await new Promise<number | null>((resolve) => {
    child.on("exit", (code, signal) => resolve(code ?? (signal ? -1 : null)));
  });
  const wallMs = performance.now() - t0;
  clearTimeout(budget);
  if (killTimer) clearTimeout(killTimer);
  clearInterval(poll);

  let maxRssBytes = sampled;
  let rssSource: WhittleRun["rssSource"] = "sampled";
  const rssFile = join(dir, `rss-${child.pid}.json`);
  if (existsSync(rssFile)) {
    maxRssBytes = (JSON.parse(readFileSync(rssFile, "utf8")) as { maxRssBytes: number }).maxRssBytes;
    rssSource = "getrusage";
  }
  const s = existsSync(stats) ? (JSON.parse(readFileSync(stats, "utf8")) as StatsJson) : undefined;
  const output = existsSync(out) ? readFileSync(out) : undefined;
  let interesting: boolean | null = null;
  if (output) {
    // What shellOracle needs of a case: a name and the candidate's file name.
    const check = shellOracle(
      {
        name: opts.caseName,
        source: "shared",
        input: new Uint8Array(0),
        inputName: opts.inputName,
        oraclePath: opts.oracle,
        lines: 0,
        chars: 0,
      },
      [opts.oracle, "{}"],
    );
    interesting = (await check(output, new AbortController().signal)) === "interesting";
  }
  return {
    case: opts.caseName,
    variant: opts.variant,
    label: opts.label,
    argv: ["whittle", ...args.map((a) => a.replace(dir, "."))],
    budgetMs: opts.budgetMs,
    result: s?.result ?? "no stats",
    error: s?.error ?? null,
    exitCode,
    stoppedAtBudget,
    tests: s?.tests ?? 0,
    cacheHits: s?.cacheHits ?? 0,
    syntaxSkips: s?.syntaxSkips ?? 0,
    timedOut: s?.timedOutRuns ?? 0,
    cacheKind: s?.cache?.kind ?? null,
    cachePeakEntries: s?.cache?.peakEntries ?? 0,
    cachePeakBytes: s?.cache?.peakBytes ?? 0,
    pipeline: s?.pipeline ?? [],
    passes: Object.fromEntries(Object.entries(s?.passes ?? {}).map(([k, v]) => [k, v.tests])),
    outputBytes: output?.length ?? 0,
    nonWsChars: output ? nonWhitespaceChars(output) : 0,
    wallMs,
    statsWallMs: s?.wallMs ?? null,
    maxRssBytes,
    rssSource,
    interesting,
    stderr: stderr.trim().slice(0, 1000),
  };
}

/** One progress line for a finished run. */
export function runSummary(r: WhittleRun): string {
  return `${r.result}${r.stoppedAtBudget ? " (stopped at budget)" : ""}, ${r.nonWsChars} non-ws chars, ${r.tests} tests, ${ms(r.wallMs)}, RSS ${bytes(r.maxRssBytes)}, cache ${bytes(r.cachePeakBytes)}${r.interesting === false ? ", RESULT NOT INTERESTING" : ""}`;
}

/** How a run ended, for a table cell. */
export function runStatus(r: WhittleRun): string {
  const timeouts = r.timedOut ? `, ${r.timedOut} test(s) timed out` : "";
  if (r.stoppedAtBudget) return `stopped at budget (${ms(r.budgetMs)})${timeouts}`;
  if (r.result === "done") return `done${timeouts}`;
  return `${r.result} (exit ${r.exitCode})${timeouts}`;
}

/** Peak RSS for a table cell, saying when it was only sampled. */
export function rssCell(r: WhittleRun): string {
  return bytes(r.maxRssBytes) + (r.rssSource === "sampled" ? " (sampled)" : "");
}

/** What oracle.sh said of the result, for a table cell. */
export function oracleCell(r: WhittleRun): string {
  return r.interesting === null ? "no output" : r.interesting ? "interesting" : "**NOT interesting**";
}

/** Runs that need a word below their table: not done within the budget, or a result oracle.sh refuses. */
export function oddRunNotes(runs: readonly WhittleRun[]): string[] {
  return runs
    .filter((r) => (r.result !== "done" && !r.stoppedAtBudget) || r.interesting === false)
    .flatMap((r) => [
      `- ${r.label}: ${runStatus(r)}; \`${r.argv.join(" ")}\`${r.error ? `; error: \`${r.error.split("\n")[0]}\`` : r.stderr ? `; stderr: \`${r.stderr.split("\n")[0]}\`` : ""}`,
      "",
    ]);
}
