/**
 * Section `efficiency` (issue 22): whittle's zero-config default — `whittle INPUT -o OUT --stats S
 * -- oracle.sh {}`, no language, no `-j`, no `--timeout`, as a user types it — on every shared case
 * with an oracle, side by side with another build of whittle (the previous default), whose main.js
 * the environment variable WHITTLE_BASELINE_MAIN names.
 *
 * The machine is shared and noisy, so the two builds run one after the other on each case, the order
 * alternating from case to case. Per run: size (non-whitespace characters, bytes), tests, wall time,
 * timed-out tests and their time, syntax skips, oracle.sh on the result, and per pass its tests and
 * the bytes it removed (`--stats`). Then the current default against the smallest anchor
 * (`../shared/bench/anchors.md`) and against issue 22's goals, and the share of tests spent after the
 * tree phases.
 */
import { existsSync, readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { nonWhitespaceChars, parseAnchors, type AnchorRow } from "../lib/anchors.js";
import type { BenchCase } from "../lib/cases.js";
import type { BenchContext, Section } from "../lib/context.js";
import { bytes, ms, percent, table } from "../lib/format.js";
import { progress } from "../lib/log.js";
import { gitState } from "../lib/machine.js";
import { findRepoRoot } from "../lib/paths.js";
import {
  MINUTE,
  oddRunNotes,
  runStatus,
  runSummary,
  runWhittle,
  type WhittleRun,
} from "../lib/whittle-cli.js";

/** Inputs larger than this (the two 130 KB JavaScript cases) are the `large` section's. */
export const MAX_INPUT_BYTES = 64 * 1024;

/** A safety net only: no case should come near it (a stopped run says so in the report). */
const BUDGET_MS = 10 * MINUTE;

export type Build = "current" | "baseline";

/** Issue 22's goals for the zero-config default: no larger than `chars`, in no more than `tests`. */
export interface Goal {
  readonly case: string;
  readonly chars: number;
  readonly tests: number;
}

export const GOALS: readonly Goal[] = [
  { case: "zeller-bug-c", chars: 73, tests: 451 },
  { case: "mozilla-select-html", chars: 8, tests: 72 },
  { case: "cvise-blocksort-c", chars: 13, tests: 205 },
  { case: "hello-world-big-c", chars: 31, tests: 431 },
  { case: "creduce-file2-c", chars: 112, tests: 987 },
  { case: "json-obj-arr-87", chars: 6, tests: 26 },
];

/** What a goal needs of a run: it finished, oracle.sh accepts its result, and its size and tests. */
export type GoalRun = Pick<WhittleRun, "result" | "stoppedAtBudget" | "interesting" | "nonWsChars" | "tests">;

/** Whether a run meets a goal: done (not stopped), an interesting result, no larger, no more tests. */
export function goalMet(goal: Goal, run: GoalRun | undefined): boolean {
  return (
    run !== undefined &&
    run.result === "done" &&
    !run.stoppedAtBudget &&
    run.interesting === true &&
    run.nonWsChars <= goal.chars &&
    run.tests <= goal.tests
  );
}

/** The anchor to beat: the fewest non-ws chars, and among rows of that size the fewest oracle runs. */
export function smallestAnchor(rows: readonly AnchorRow[]): AnchorRow | undefined {
  let best: AnchorRow | undefined;
  for (const r of rows) {
    if (
      !best ||
      r.nonWsChars < best.nonWsChars ||
      (r.nonWsChars === best.nonWsChars && r.oracleRuns < best.oracleRuns)
    )
      best = r;
  }
  return best;
}

export interface PassFigures {
  tests: number;
  bytesRemoved: number;
}

/** A pass over the tree (HDD and its variants) by its name in --stats. */
export function isTreePass(name: string): boolean {
  return name.startsWith("hdd:");
}

/** Tests of the tree phases, of the passes after them, and the latter's share of all tests. */
export function afterTreeShare(passes: Readonly<Record<string, PassFigures>>): {
  tree: number;
  after: number;
  share: number;
} {
  let tree = 0;
  let after = 0;
  for (const [name, p] of Object.entries(passes)) {
    if (isTreePass(name)) tree += p.tests;
    else after += p.tests;
  }
  return { tree, after, share: tree + after === 0 ? NaN : after / (tree + after) };
}

/**
 * Two pipelines as one list in order: `a` as it is, each pass only in `b` placed after the pass
 * before it in `b` (at the start when none is), so the per-pass table reads in running order.
 */
export function mergePipelines(a: readonly string[], b: readonly string[]): string[] {
  const out = [...a];
  let after = -1; // index in `out` of the last pass of `b` placed so far
  for (const name of b) {
    const at = out.indexOf(name);
    if (at >= 0) after = at;
    else {
      out.splice(after + 1, 0, name);
      after++;
    }
  }
  return out;
}

export interface Totals {
  runs: number;
  nonWsChars: number;
  tests: number;
  wallMs: number;
}

export function totals(runs: readonly Pick<WhittleRun, "nonWsChars" | "tests" | "wallMs">[]): Totals {
  return runs.reduce<Totals>(
    (t, r) => ({
      runs: t.runs + 1,
      nonWsChars: t.nonWsChars + r.nonWsChars,
      tests: t.tests + r.tests,
      wallMs: t.wallMs + r.wallMs,
    }),
    { runs: 0, nonWsChars: 0, tests: 0, wallMs: 0 },
  );
}

export interface EfficiencyCase {
  case: string;
  inputName: string;
  inputBytes: number;
  inputNonWs: number;
}

export interface EfficiencyRun extends WhittleRun {
  build: Build;
  /** Ran first of the two builds on its case. */
  first: boolean;
  /** Time spent in tests that hit the per-test limit (--stats timeoutTotalMs). */
  timeoutTotalMs: number;
  /** The per-test limit at the end and how it was set (--stats timeoutMs, timeoutMode). */
  timeoutMs: number | null;
  timeoutMode: string | null;
  /** Per pass: tests and the bytes its improvements removed. */
  passStats: Record<string, PassFigures>;
  /** whittle's notice on how it reduces the input (the language, or lines and characters). */
  notice: string | null;
  /** The 1-minute load average when the run started. */
  loadBefore: number;
}

export interface EfficiencyData {
  baseline: { main: string; commit: string } | null;
  current: { commit: string };
  /** What whittle's default -j comes to here. */
  availableParallelism: number;
  budgetMs: number;
  cases: EfficiencyCase[];
  skipped: { case: string; reason: string }[];
  runs: EfficiencyRun[];
  anchors: { case: string; smallest: AnchorRow | null }[];
  anchorsNote: string | null;
  goals: readonly Goal[];
  load: { before: number; after: number };
}

interface StatsExtra {
  timeoutTotalMs?: number;
  timeoutMs?: number | null;
  timeoutMode?: string | null;
  passes?: Record<string, { tests: number; bytesRemoved: number }>;
}

function readNotice(stderr: string): string | null {
  const line = stderr
    .split("\n")
    .map((l) => l.replace(/^whittle: /, ""))
    .find((l) => /: reducing (along its syntax|lines and characters)/.test(l));
  return line ?? null;
}

async function runBuild(
  ctx: BenchContext,
  c: BenchCase,
  build: Build,
  first: boolean,
  main: string | undefined,
): Promise<EfficiencyRun> {
  const dir = join(ctx.tmpDir, "efficiency", c.name, build);
  const loadBefore = loadavg()[0]!;
  const r = await runWhittle(ctx, {
    section: "efficiency",
    caseName: c.name,
    variant: build,
    label: build === "current" ? "current default" : "previous default",
    input: join(ctx.sharedDir, "bench", "cases", c.name, c.inputName),
    inputName: c.inputName,
    oracle: c.oraclePath!,
    args: [],
    budgetMs: BUDGET_MS,
    dir,
    quiet: false,
    zeroConfig: true,
    ...(main === undefined ? {} : { main }),
  });
  const statsPath = join(dir, "stats.json");
  const s: StatsExtra = existsSync(statsPath)
    ? (JSON.parse(readFileSync(statsPath, "utf8")) as StatsExtra)
    : {};
  const passStats = Object.fromEntries(
    Object.entries(s.passes ?? {}).map(([k, v]) => [k, { tests: v.tests, bytesRemoved: v.bytesRemoved }]),
  );
  progress(`efficiency: ${c.name} ${build}: ${runSummary(r)}`);
  return {
    ...r,
    build,
    first,
    timeoutTotalMs: s.timeoutTotalMs ?? 0,
    timeoutMs: s.timeoutMs ?? null,
    timeoutMode: s.timeoutMode ?? null,
    passStats,
    notice: readNotice(r.stderr),
    loadBefore,
  };
}

async function run(ctx: BenchContext): Promise<EfficiencyData> {
  const baselineMain = process.env.WHITTLE_BASELINE_MAIN || undefined;
  if (baselineMain !== undefined && !existsSync(baselineMain))
    throw new Error(`WHITTLE_BASELINE_MAIN: ${baselineMain} not found`);
  const baseline =
    baselineMain === undefined
      ? null
      : { main: baselineMain, commit: gitState(findRepoRoot(dirname(baselineMain))) };
  if (baseline === null) progress("efficiency: WHITTLE_BASELINE_MAIN not set: the current build only");

  const cases: EfficiencyCase[] = [];
  const skipped: EfficiencyData["skipped"] = [];
  const chosen: BenchCase[] = [];
  for (const c of ctx.shared.cases) {
    if (c.oraclePath === undefined) continue;
    if (c.name.startsWith("mock-")) {
      skipped.push({ case: c.name, reason: "a mock example" });
      continue;
    }
    if (c.input.length > MAX_INPUT_BYTES) {
      skipped.push({ case: c.name, reason: `${bytes(c.input.length)}, over 64 KiB` });
      continue;
    }
    chosen.push(c);
    cases.push({
      case: c.name,
      inputName: c.inputName,
      inputBytes: c.input.length,
      inputNonWs: nonWhitespaceChars(c.input),
    });
  }

  const load = { before: loadavg()[0]!, after: NaN };
  const runs: EfficiencyRun[] = [];
  for (const [i, c] of chosen.entries()) {
    // Alternate which build goes first, so that neither always meets the same moment of the load.
    const order: Build[] =
      baseline === null ? ["current"] : i % 2 === 0 ? ["current", "baseline"] : ["baseline", "current"];
    for (const [k, build] of order.entries())
      runs.push(await runBuild(ctx, c, build, k === 0, build === "baseline" ? baseline!.main : undefined));
  }
  load.after = loadavg()[0]!;

  const anchorsPath = join(ctx.sharedDir, "bench", "anchors.md");
  const anchors: EfficiencyData["anchors"] = [];
  let anchorsNote: string | null = null;
  if (existsSync(anchorsPath)) {
    const byCase = parseAnchors(readFileSync(anchorsPath, "utf8"));
    for (const c of cases)
      anchors.push({ case: c.case, smallest: smallestAnchor(byCase.get(c.case) ?? []) ?? null });
  } else anchorsNote = `${anchorsPath} not found`;

  return {
    baseline,
    current: { commit: gitState(ctx.repoRoot) },
    availableParallelism: availableParallelism(),
    budgetMs: BUDGET_MS,
    cases,
    skipped,
    runs,
    anchors,
    anchorsNote,
    goals: GOALS,
    load,
  };
}

/** 1234 → "1,234" */
function count(n: number): string {
  return n.toLocaleString("en-US");
}

function buildName(data: EfficiencyData, build: Build): string {
  // The short commit only; the intro gives git's full state (changed files, if any).
  const commit = (state: string | undefined): string => state?.split(" ")[0] ?? "–";
  return build === "current"
    ? `current (${commit(data.current.commit)})`
    : `previous (${commit(data.baseline?.commit)})`;
}

/** Size, marked when the run stopped at its budget or oracle.sh refuses its result. */
function marks(r: EfficiencyRun): string {
  return `${r.stoppedAtBudget ? " ⏱" : ""}${r.interesting === false ? " ✗" : ""}`;
}

function render(data: EfficiencyData): string {
  const builds: Build[] = data.baseline === null ? ["current"] : ["current", "baseline"];
  const find = (c: string, b: Build): EfficiencyRun | undefined =>
    data.runs.find((r) => r.case === c && r.build === b);
  const parts: string[] = [
    `Current build: git state ${data.current.commit}. Each run is the **zero-config default** as a user types it: \`whittle INPUT -o OUT --stats S.json -- oracle.sh {}\` — no \`--language\`, no \`-j\` (whittle's default: available parallelism, ${data.availableParallelism} here), no \`--timeout\` (adaptive) — with the case's real \`oracle.sh\`, one run per case and build (quick mode changes nothing here). ${
      data.baseline === null
        ? "**WHITTLE_BASELINE_MAIN was not set: the current build only, no previous default.**"
        : `Beside it the **previous default**, the same command with \`${data.baseline.main}\` (git state of its tree: ${data.baseline.commit}); on each case the two builds run one after the other, the order alternating from case to case (the machine is shared).`
    } Sizes are non-whitespace characters (the papers' metric); wall time is the whittle process from spawn to exit; every result is given to \`oracle.sh\` once more. A run has a ${ms(data.budgetMs)} budget as a safety net (⏱: stopped there). 1-minute load average ${data.load.before.toFixed(2)} at the start, ${data.load.after.toFixed(2)} at the end.`,
    "",
  ];
  if (data.skipped.length)
    parts.push(
      `Not run: ${data.skipped.map((s) => `${s.case} (${s.reason})`).join(", ")}. The mock examples are Table 3(a)'s; the inputs over 64 KiB (the two JavaScript cases of about 130 KB) belong to a later \`large\` section.`,
      "",
    );

  parts.push(
    "### Per case and build\n",
    "Timed out: tests that hit the per-test limit, and the time they took. ✗ `oracle.sh` refuses the result.",
    "",
    table(
      [
        "case (input non-ws)",
        "build",
        "ran",
        "non-ws chars",
        "bytes",
        "tests",
        "wall",
        "timed out",
        "syntax skips",
        "re-check",
        "status",
      ],
      [
        ...data.cases.flatMap((c) =>
          builds.flatMap((b) => {
            const r = find(c.case, b);
            if (r === undefined) return [];
            return [
              [
                `${c.case} (${count(c.inputNonWs)})`,
                buildName(data, b),
                r.first ? "1st" : "2nd",
                `${count(r.nonWsChars)}${marks(r)}`,
                count(r.outputBytes),
                count(r.tests),
                ms(r.wallMs),
                r.timedOut ? `${r.timedOut} (${ms(r.timeoutTotalMs)})` : "0",
                count(r.syntaxSkips),
                r.interesting === null ? "no output" : r.interesting ? "interesting" : "**NOT interesting**",
                runStatus(r),
              ],
            ];
          }),
        ),
        ...builds.map((b) => {
          const t = totals(data.runs.filter((r) => r.build === b));
          return [
            `**total** (${t.runs} cases)`,
            buildName(data, b),
            "",
            count(t.nonWsChars),
            "",
            count(t.tests),
            ms(t.wallMs),
            "",
            "",
            "",
            "",
          ];
        }),
      ],
    ),
  );
  parts.push(...oddRunNotes(data.runs));

  parts.push(
    "### Current default against the smallest anchor\n",
    "The anchor is the row of `anchors.md` with the fewest non-ws chars, and among rows of that size the fewest oracle runs.",
    "",
  );
  if (data.anchorsNote) parts.push(`- ${data.anchorsNote}`, "");
  parts.push(
    table(
      [
        "case",
        "current chars",
        "anchor chars",
        "current tests",
        "anchor tests",
        "smallest anchor",
        "≤ in both",
      ],
      data.cases.map((c) => {
        const r = find(c.case, "current");
        const a = data.anchors.find((x) => x.case === c.case)?.smallest ?? null;
        if (a === null)
          return [
            c.case,
            r ? count(r.nonWsChars) : "–",
            "–",
            r ? count(r.tests) : "–",
            "–",
            "no anchor",
            "–",
          ];
        const ok =
          r !== undefined &&
          r.interesting === true &&
          r.nonWsChars <= a.nonWsChars &&
          r.tests <= a.oracleRuns;
        return [
          c.case,
          r ? `${count(r.nonWsChars)}${marks(r)}` : "–",
          count(a.nonWsChars),
          r ? count(r.tests) : "–",
          count(a.oracleRuns),
          a.reducer,
          ok ? "✓" : "✗",
        ];
      }),
    ),
  );

  parts.push(
    "### Issue 22's goals\n",
    "The zero-config default no larger than the goal and in no more tests, its result accepted by `oracle.sh`.",
    "",
    table(
      [
        "case",
        "goal chars / tests",
        ...builds.map((b) => `${buildName(data, b)} chars / tests`),
        ...builds.map((b) => (b === "current" ? "✓/✗" : "previous ✓/✗")),
      ],
      data.goals.map((g) => {
        const rs = builds.map((b) => find(g.case, b));
        return [
          g.case,
          `${g.chars} / ${count(g.tests)}`,
          ...rs.map((r) => (r ? `${count(r.nonWsChars)}${marks(r)} / ${count(r.tests)}` : "not run")),
          ...rs.map((r) => (goalMet(g, r) ? "✓" : "✗")),
        ];
      }),
    ),
    `Met by the current default: ${data.goals.filter((g) => goalMet(g, find(g.case, "current"))).length} of ${data.goals.length}${
      data.baseline === null
        ? ""
        : `; by the previous default: ${data.goals.filter((g) => goalMet(g, find(g.case, "baseline"))).length} of ${data.goals.length}`
    }.`,
    "",
  );

  parts.push(
    "### Tests after the tree phases (current build)\n",
    "Tree phases: the passes named `hdd:*`; after them: every other pass (token, rename, literal, glyph, blank…).",
    "",
    table(
      ["case", "tree-phase tests", "tests after them", "share after"],
      data.cases.map((c) => {
        const r = find(c.case, "current");
        if (r === undefined) return [c.case, "–", "–", "–"];
        const s = afterTreeShare(r.passStats);
        return [c.case, count(s.tree), count(s.after), percent(s.share)];
      }),
    ),
  );

  parts.push(
    "### Per pass\n",
    "Tests / bytes removed per pass, in running order; – the pass is not in that build's pipeline.",
    "",
  );
  for (const c of data.cases) {
    const rs = builds.map((b) => find(c.case, b));
    const order = rs.reduce<string[]>((acc, r) => mergePipelines(acc, r ? r.pipeline : []), []);
    const notices = [...new Set(rs.map((r) => r?.notice ?? "no notice"))];
    const said =
      notices.length === 1
        ? notices[0]
        : rs
            .map((r, k) => `${builds[k] === "current" ? "current" : "previous"}: ${r?.notice ?? "no notice"}`)
            .join("; ");
    parts.push(`**${c.case}** — ${said}`, "");
    parts.push(
      table(
        ["pass", ...builds.map((b) => buildName(data, b))],
        [
          ...order.map((p) => [
            p,
            ...rs.map((r) => {
              if (r === undefined || !r.pipeline.includes(p)) return "–";
              const f = r.passStats[p] ?? { tests: 0, bytesRemoved: 0 };
              return `${count(f.tests)} / ${count(f.bytesRemoved)} B`;
            }),
          ]),
          [
            "**all**",
            ...rs.map((r) => (r ? `${count(r.tests)} / ${count(c.inputBytes - r.outputBytes)} B` : "–")),
          ],
        ],
      ),
    );
  }
  return parts.join("\n");
}

export const efficiencySection: Section<EfficiencyData> = {
  id: "efficiency",
  title: "Efficiency: the zero-config default against the previous default and the anchors",
  run,
  render,
};
