/**
 * Section `large` (issue 23): whittle against C-Vise over minutes on big inputs — the two ~130 KB
 * JavaScript cases and the memory section's csmith program (~580 KiB of C, grep oracle). Each
 * reducer runs with 2 jobs under a 10-minute cap (quick: 2 minutes, one JavaScript case), the two
 * alternating (whittle case 1, C-Vise case 1, whittle case 2, …) so that the machine's load meets
 * both alike. Per run: the non-whitespace characters of the best so far at 1, 2, 5 and 10 minutes
 * and at the end (whittle's `-o` file and C-Vise's working copy, polled every second), tests, wall,
 * timeouts, the load at the start, whittle's per-pass statistics, and the case's oracle on the
 * result. Then issue 23's goals.
 */
import { readFileSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { nonWhitespaceChars } from "../lib/anchors.js";
import type { BenchContext, Section } from "../lib/context.js";
import { ensureCvise, startCvise } from "../lib/cvise.js";
import { bytes, ms, table } from "../lib/format.js";
import { progress } from "../lib/log.js";
import { shellOracle } from "../lib/oracles.js";
import { SizePoller, sizeAt, type SizeSample } from "../lib/size-poll.js";
import { MINUTE, runWhittle } from "../lib/whittle-cli.js";
import { csmithC } from "./memory.js";

/** The JavaScript goal: at most this many non-ws chars after 10 minutes (issue 23). */
export const JS_GOAL_CHARS = 5_000;
/** whittle's best at least this many times smaller than C-Vise's at the same minute. */
export const CVISE_FACTOR = 3;
const MARKER = "marker_600k";

export type Tool = "whittle" | "cvise";

export interface PassRow {
  tests: number;
  bytesRemoved: number;
  ms: number;
  timeouts: number;
  timeoutMs: number;
  /** Candidates taken for timeouts without a test (absent from older builds' statistics). */
  timeoutSkips?: number;
}

export interface LargeCase {
  case: string;
  inputName: string;
  inputBytes: number;
  inputNonWs: number;
  language: "javascript" | "c";
  /** How the input was made (csmith's options) or where it is from. */
  origin: string;
}

export interface LargeRun {
  case: string;
  tool: Tool;
  argv: string[];
  capMs: number;
  /** 1-minute load average when the run started. */
  loadBefore: number;
  /** Non-ws chars of the best so far at each of `minutes` (null: no sample yet). */
  at: (number | null)[];
  finalNonWs: number;
  finalBytes: number;
  wallMs: number;
  tests: number;
  /** Tests that hit the per-test limit, and their time (whittle only; C-Vise does not say). */
  timedOut: number | null;
  timeoutTotalMs: number | null;
  /** whittle's stats result (done, limit, …) or C-Vise's exit. */
  status: string;
  exitCode: number | null;
  stoppedAtCap: boolean;
  /** The case's oracle on the final result. */
  interesting: boolean | null;
  /** Per pass, whittle only (--stats), in pipeline order. */
  passes: Record<string, PassRow> | null;
  series: SizeSample[];
  stderr: string;
}

export interface LargeData {
  capMs: number;
  minutes: number[];
  cases: LargeCase[];
  runs: LargeRun[];
  cvise: string | null;
  notes: string[];
}

/** The minutes at which sizes are reported: 1, 2, 5, 10 up to the cap. */
export function milestones(capMs: number): number[] {
  return [1, 2, 5, 10].filter((m) => m * MINUTE <= capMs);
}

/** Whether `whittle` is at least `factor` times smaller than `cvise`, where both are known. */
export function smallerBy(whittle: number | null, cvise: number | null, factor: number): boolean | null {
  if (whittle === null || cvise === null) return null;
  return whittle * factor <= cvise;
}

interface Stats {
  result: string;
  tests: number;
  timedOutRuns: number;
  timeoutTotalMs: number;
  pipeline: string[];
  passes: Record<string, PassRow>;
}

function interestingOf(c: LargeCase, oracle: string, content: Buffer): Promise<boolean> {
  const check = shellOracle(
    {
      name: c.case,
      source: "shared",
      input: new Uint8Array(0),
      inputName: c.inputName,
      oraclePath: oracle,
      lines: 0,
      chars: 0,
    },
    [oracle, "{}"],
  );
  return Promise.resolve(check(content, new AbortController().signal)).then((o) => o === "interesting");
}

async function runWhittleOn(
  ctx: BenchContext,
  c: LargeCase,
  input: string,
  oracle: string,
  capMs: number,
  minutes: readonly number[],
): Promise<LargeRun> {
  const dir = join(ctx.tmpDir, "large", c.case, "whittle");
  const loadBefore = loadavg()[0]!;
  const poller = new SizePoller(join(dir, `out-${c.inputName}`), c.inputNonWs);
  const r = await runWhittle(ctx, {
    section: "large",
    caseName: c.case,
    variant: "whittle",
    label: "whittle -j 2",
    input,
    inputName: c.inputName,
    oracle,
    args: ["-j", "2", "--max-time", `${capMs / 1000}s`],
    // --max-time stops it (exit 4, best result kept); the budget is a safety net.
    budgetMs: capMs + 2 * MINUTE,
    dir,
    zeroConfig: true,
  });
  poller.stop();
  const statsPath = join(dir, "stats.json");
  let s: Stats | undefined;
  try {
    s = JSON.parse(readFileSync(statsPath, "utf8")) as Stats;
  } catch {
    s = undefined;
  }
  const end = { ms: r.wallMs, nonWs: r.nonWsChars };
  const passes = s
    ? Object.fromEntries(
        s.pipeline
          .filter((p) => s.passes[p] !== undefined)
          .map((p) => {
            const x = s.passes[p]!;
            return [
              p,
              {
                tests: x.tests,
                bytesRemoved: x.bytesRemoved,
                ms: x.ms,
                timeouts: x.timeouts,
                timeoutMs: x.timeoutMs,
                timeoutSkips: x.timeoutSkips ?? 0,
              },
            ];
          }),
      )
    : null;
  return {
    case: c.case,
    tool: "whittle",
    argv: r.argv,
    capMs,
    loadBefore,
    at: minutes.map((m) => sizeAt(poller.series, m * MINUTE, end)),
    finalNonWs: r.nonWsChars,
    finalBytes: r.outputBytes,
    wallMs: r.wallMs,
    tests: r.tests,
    timedOut: s?.timedOutRuns ?? null,
    timeoutTotalMs: s?.timeoutTotalMs ?? null,
    status: r.result,
    exitCode: r.exitCode,
    stoppedAtCap: r.exitCode === 4 || r.stoppedAtBudget,
    interesting: r.interesting,
    passes,
    series: poller.series,
    stderr: r.stderr,
  };
}

async function runCviseOn(
  ctx: BenchContext,
  c: LargeCase,
  input: string,
  oracle: string,
  capMs: number,
  minutes: readonly number[],
): Promise<LargeRun> {
  const dir = join(ctx.tmpDir, "large", c.case, "cvise");
  const loadBefore = loadavg()[0]!;
  const p = startCvise({
    input,
    inputName: c.inputName,
    oracle,
    notC: c.language !== "c",
    capMs,
    dir,
  });
  const poller = new SizePoller(p.file, c.inputNonWs);
  const done = await p.done;
  poller.stop();
  const output = readFileSync(p.file);
  const finalNonWs = nonWhitespaceChars(output);
  const end = { ms: done.wallMs, nonWs: finalNonWs };
  const interesting = await interestingOf(c, oracle, output);
  const run: LargeRun = {
    case: c.case,
    tool: "cvise",
    argv: p.argv,
    capMs,
    loadBefore,
    at: minutes.map((m) => sizeAt(poller.series, m * MINUTE, end)),
    finalNonWs,
    finalBytes: output.length,
    wallMs: done.wallMs,
    tests: p.tests(),
    timedOut: null,
    timeoutTotalMs: null,
    status: done.stoppedAtCap ? "stopped at cap" : done.exitCode === 0 ? "done" : `exit ${done.exitCode}`,
    exitCode: done.exitCode,
    stoppedAtCap: done.stoppedAtCap,
    interesting,
    passes: null,
    series: poller.series,
    stderr: done.stderr.slice(-1000),
  };
  // C-Vise's copies of the input (one per test folder) are large: free the space now.
  rmSync(join(dir, "tmp"), { recursive: true, force: true });
  return run;
}

function summary(r: LargeRun): string {
  return `${r.status}, ${r.finalNonWs} non-ws chars, ${r.tests} tests, ${ms(r.wallMs)}, load ${r.loadBefore.toFixed(1)}${r.interesting === false ? ", RESULT NOT INTERESTING" : ""}`;
}

async function run(ctx: BenchContext): Promise<LargeData> {
  const capMs = (ctx.quick ? 2 : 10) * MINUTE;
  const minutes = milestones(capMs);
  const notes: string[] = [];
  const plans: { c: LargeCase; input: string; oracle: string }[] = [];
  const jsNames = ctx.quick ? ["js-yaml-flow-error"] : ["js-yaml-flow-error", "js-esquery-syntax-error"];
  for (const name of jsNames.filter((n) => ctx.wants(n))) {
    const c = ctx.sharedCase(name);
    if (!c?.oraclePath) {
      notes.push(`${name}: not among the shared cases, left out`);
      continue;
    }
    plans.push({
      c: {
        case: name,
        inputName: c.inputName,
        inputBytes: c.input.length,
        inputNonWs: nonWhitespaceChars(c.input),
        language: "javascript",
        origin: "shared case",
      },
      input: join(ctx.sharedDir, "bench", "cases", name, c.inputName),
      oracle: c.oraclePath,
    });
  }
  const csmith = ctx.wants("csmith-c")
    ? csmithC(join(ctx.tmpDir, "large", "csmith-input"), MARKER, "large")
    : null;
  if (csmith === null) notes.push("csmith-c: not among --cases, left out");
  else if (csmith) {
    const content = readFileSync(csmith.input);
    plans.push({
      c: {
        case: "csmith-c",
        inputName: "input.c",
        inputBytes: content.length,
        inputNonWs: nonWhitespaceChars(content),
        language: "c",
        origin: `${csmith.generator}; the memory section's grep oracle`,
      },
      input: csmith.input,
      oracle: csmith.oracle,
    });
  } else
    notes.push(
      "csmith is not installed and could not be (Debian's csmith package): the C program is left out",
    );

  const cv = ensureCvise();
  const cvise = "version" in cv ? `${cv.version}${cv.installed ? " (installed by this run)" : ""}` : null;
  if ("missing" in cv) {
    notes.push(`C-Vise runs skipped: ${cv.missing}`);
    progress(`large: ${cv.missing}; C-Vise runs skipped`);
  }

  const runs: LargeRun[] = [];
  for (const { c, input, oracle } of plans) {
    const w = await runWhittleOn(ctx, c, input, oracle, capMs, minutes);
    runs.push(w);
    progress(`large: ${c.case} whittle: ${summary(w)}`);
    if (cvise !== null) {
      const v = await runCviseOn(ctx, c, input, oracle, capMs, minutes);
      runs.push(v);
      progress(`large: ${c.case} cvise: ${summary(v)}`);
    }
  }
  return { capMs, minutes, cases: plans.map((p) => p.c), runs, cvise, notes };
}

const count = (n: number | null): string => (n === null ? "–" : n.toLocaleString("en-US"));
const mark = (ok: boolean | null): string => (ok === null ? "–" : ok ? "✓" : "✗");

/** Issue 23's goals, one line each, with ✓/✗. */
export function goalLines(data: LargeData): string[] {
  const lines: string[] = [];
  const ten = data.minutes.indexOf(10);
  for (const c of data.cases.filter((x) => x.language === "javascript")) {
    const w = data.runs.find((r) => r.case === c.case && r.tool === "whittle");
    const size = w && ten >= 0 ? w.at[ten]! : null;
    const ok = size === null ? null : size <= JS_GOAL_CHARS && w!.interesting === true;
    lines.push(
      `- ${mark(ok)} ${c.case}: ≤ ${count(JS_GOAL_CHARS)} non-ws chars after 10 minutes — whittle ${ten >= 0 ? count(size) : "not run for 10 minutes (quick mode)"}`,
    );
  }
  for (const c of data.cases) {
    const w = data.runs.find((r) => r.case === c.case && r.tool === "whittle");
    const v = data.runs.find((r) => r.case === c.case && r.tool === "cvise");
    if (!w || !v) continue;
    const each = data.minutes.map((m, i) => {
      const [a, b] = [w.at[i] ?? null, v.at[i] ?? null];
      const ok = smallerBy(a, b, CVISE_FACTOR);
      const ratio = a !== null && a > 0 && b !== null ? (b / a).toFixed(1) : "–";
      return { ok, text: `${m} min ${ratio}×` };
    });
    const all = each.every((e) => e.ok === true) ? true : each.some((e) => e.ok === false) ? false : null;
    lines.push(
      `- ${mark(all)} ${c.case}: whittle ≥ ${CVISE_FACTOR}× smaller than C-Vise at every minute — C-Vise/whittle: ${each.map((e) => `${e.text} ${mark(e.ok)}`).join(", ")}`,
    );
  }
  return lines;
}

function render(data: LargeData): string {
  const parts: string[] = [];
  const cap = ms(data.capMs);
  parts.push(
    `Each run is capped at ${cap}: whittle \`-j 2 --max-time ${data.capMs / 1000}s\` (its default otherwise: language from the extension, adaptive per-test limit; exit 4 = limit reached, best result kept) and C-Vise (${data.cvise ?? "not available"}) \`--n 2\` (\`--not-c\` on JavaScript), whose process group gets SIGINT at the cap. The runs alternate — whittle on a case, then C-Vise on it, then the next case — so the machine's load meets both alike; the 1-minute load average at each run's start is given. Sizes are non-whitespace characters of the best so far, polled every second (whittle's \`-o\` file, C-Vise's working copy); a run that ended earlier keeps its final size. Tests: whittle's from \`--stats\` (cache hits and the initial check excluded); C-Vise's counted by the wrapper that calls the case's oracle. The last column runs the case's oracle on the final result.`,
    "",
    table(
      ["case", "input", "bytes", "non-ws chars", "origin"],
      data.cases.map((c) => [c.case, c.inputName, bytes(c.inputBytes), count(c.inputNonWs), c.origin]),
    ),
    "",
  );
  for (const c of data.cases) {
    const runs = data.runs.filter((r) => r.case === c.case);
    parts.push(
      `### ${c.case}\n`,
      table(
        [
          "reducer",
          "load at start",
          ...data.minutes.map((m) => `${m} min`),
          "end (bytes)",
          "tests",
          "wall",
          "timeouts",
          "status",
          "oracle on result",
        ],
        runs.map((r) => [
          r.tool === "whittle" ? "whittle -j 2" : "C-Vise --n 2",
          r.loadBefore.toFixed(1),
          ...r.at.map(count),
          `${count(r.finalNonWs)} (${count(r.finalBytes)})`,
          count(r.tests),
          ms(r.wallMs),
          r.timedOut === null ? "–" : `${r.timedOut}${r.timeoutTotalMs ? ` (${ms(r.timeoutTotalMs)})` : ""}`,
          `${r.status}${r.exitCode === null ? "" : ` (exit ${r.exitCode})`}`,
          r.interesting === null ? "no output" : r.interesting ? "interesting" : "**NOT interesting**",
        ]),
      ),
      "",
    );
    const w = runs.find((r) => r.tool === "whittle");
    if (w?.passes) {
      parts.push(
        `whittle's passes on ${c.case} (\`--stats\`; time: from a pass's start to its last event):\n`,
        table(
          ["pass", "tests", "bytes removed", "time", "timeouts (time)", "taken for timeouts untested"],
          Object.entries(w.passes).map(([name, p]) => [
            name,
            count(p.tests),
            bytes(p.bytesRemoved),
            ms(p.ms),
            p.timeouts ? `${p.timeouts} (${ms(p.timeoutMs)})` : "0",
            count(p.timeoutSkips ?? 0),
          ]),
        ),
        "",
      );
    }
    for (const r of runs.filter((x) => x.interesting === false || (!x.stoppedAtCap && x.status !== "done")))
      parts.push(
        `- ${r.tool}: ${r.status}; \`${r.argv.join(" ")}\`; stderr: \`${r.stderr.split("\n")[0]}\``,
        "",
      );
  }
  parts.push("**Goals (issue 23):**", "", ...goalLines(data), "");
  parts.push(...data.runs.map((r) => `- ${r.case} ${r.tool}: \`${r.argv.join(" ")}\``), "");
  if (data.notes.length) parts.push(...data.notes.map((n) => `- ${n}`), "");
  return parts.join("\n");
}

export const largeSection: Section<LargeData> = {
  id: "large",
  title: "Large inputs: whittle against C-Vise over minutes",
  run,
  render,
};
