/**
 * Section `hdd` (issue 9): whittle's tree reductions against each other, against flat ddmin and
 * against the anchors (what Picire, Picireny and C-Vise reach, `../shared/bench/anchors.md`).
 *
 * 1. The whittle command on the shared JSON, C and JavaScript cases, one configuration at a time,
 *    with the real oracle.sh and `-j 1` (test counts deterministic and comparable with the anchors'
 *    sequential tools): HDD, HDD*, coarse HDD, HDDr, HOIST*+HDD*, HDDH*, HOIST*+HDDH*, the default
 *    grammar pipeline, and ddmin over lines then characters (no grammar). Per run: the result's size
 *    in non-whitespace characters (the papers' metric) and bytes, tests, wall time, the whittle
 *    process's peak RSS (its own getrusage, through an --import hook), the cache's peak bytes and
 *    entries, and whether oracle.sh still accepts the result. Every run has a wall-clock budget; a
 *    run that exceeds it gets SIGINT (whittle then writes its best result and statistics) and is
 *    reported as stopped at the budget with what it reached.
 * 2. The shape of Table IV of the cache paper: peak cache size of HDD* (in-process, the oracle's
 *    answers memoized by content, so repeated configurations cost no gcc runs and no test count
 *    changes) with the plain content cache storing every outcome (the baseline), + passing outcomes
 *    only (P1), + eviction (P2), + hashed keys (P3), and the configuration cache for reference.
 * 3. A generated ~600 KB C file reduced with HDD* and a grep oracle: peak RSS against the 500 MB
 *    target, and whether it finished within its budget.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AntlrFrontEnd } from "../../src/grammar/front-end.js";
import { parsePhase, treePass } from "../../src/hdd/phases.js";
import { CONFIGS } from "./cache.js";
import { reduce } from "../../src/reduce/reduce.js";
import { parseAnchors, smallestOf, type AnchorRow } from "../lib/anchors.js";
import type { BenchCase } from "../lib/cases.js";
import type { BenchContext, Section } from "../lib/context.js";
import { bytes, ms, percent, table } from "../lib/format.js";
import {
  CASE_GRAMMARS,
  caseGrammarArgs,
  GRAMMARS,
  grammarArgs,
  grammarLoader,
  grammarsDir,
} from "../lib/grammars.js";
import { progress } from "../lib/log.js";
import {
  MINUTE,
  oddRunNotes,
  oracleCell,
  rssCell,
  runStatus,
  runSummary,
  runWhittle,
  TEST_TIMEOUT_S,
  type WhittleRun,
} from "../lib/whittle-cli.js";
import { generatedC } from "./parse.js";

interface Variant {
  readonly id: string;
  readonly label: string;
  /** `--phase` values; empty: the default grammar pipeline. */
  readonly phases: readonly string[];
  /** false: no grammar at all (whittle's default ddmin, lines then characters). */
  readonly grammar: boolean;
}

const VARIANTS: readonly Variant[] = [
  { id: "hdd", label: "HDD", phases: ["prune"], grammar: true },
  { id: "hdd*", label: "HDD*", phases: ["prune*"], grammar: true },
  { id: "coarse", label: "coarse HDD", phases: ["coarse"], grammar: true },
  { id: "hddr", label: "HDDr", phases: ["hddr"], grammar: true },
  { id: "hoist*+hdd*", label: "HOIST*+HDD*", phases: ["hoist*", "prune*"], grammar: true },
  { id: "hddh*", label: "HDDH*", phases: ["prune+hoist*"], grammar: true },
  { id: "hoist*+hddh*", label: "HOIST*+HDDH*", phases: ["hoist*", "prune+hoist*"], grammar: true },
  { id: "default", label: "default pipeline", phases: [], grammar: true },
  { id: "ddmin", label: "ddmin lines, then chars", phases: [], grammar: false },
];
const ALL = VARIANTS.map((v) => v.id);
const REDUCED = ["hdd*", "hoist*+hdd*", "default", "ddmin"];

/** The case's shared grammar is in CASE_GRAMMARS (with --allow-syntax-errors where it needs recovery). */
interface CasePlan {
  readonly name: string;
  readonly variants: readonly string[];
  readonly budgetMs: number;
  /** Run the cache variants of Table IV on it. */
  readonly table4: boolean;
}

function casePlans(quick: boolean): CasePlan[] {
  const small = (name: string): CasePlan => ({
    name,
    variants: ALL,
    budgetMs: (quick ? 5 : 10) * MINUTE,
    table4: true,
  });
  const plans = [
    small("json-obj-arr-87"),
    small("json-invalid-escape"),
    small("json-extra-comma"),
    small("zeller-bug-c"),
  ];
  if (quick) return plans;
  return [
    ...plans,
    { ...small("cvise-blocksort-c"), variants: REDUCED, budgetMs: 10 * MINUTE },
    { ...small("creduce-file2-c"), variants: REDUCED, budgetMs: 10 * MINUTE },
    // Its HDD* alone needs ~1,800 gcc runs: Table IV stays with the smaller cases.
    { ...small("hello-world-big-c"), variants: REDUCED, budgetMs: 10 * MINUTE, table4: false },
    {
      ...small("js-esquery-syntax-error"),
      variants: ["default", "ddmin"],
      budgetMs: 7 * MINUTE,
      table4: false,
    },
    { ...small("js-yaml-flow-error"), variants: ["default", "ddmin"], budgetMs: 7 * MINUTE, table4: false },
  ];
}

/** The whittle options of a variant: its grammar (or no language at all) and its phases. */
function variantArgs(variant: Variant, grammar: readonly string[]): string[] {
  return [
    // Without a grammar, no built-in language either (whittle would pick one from the extension).
    ...(variant.grammar ? grammar : ["--language", "none"]),
    ...variant.phases.flatMap((p) => ["--phase", p]),
  ];
}

export interface Table4Row {
  config: string;
  label: string;
  tests: number;
  cacheHits: number;
  peakEntries: number;
  peakBytes: number;
  outputBytes: number;
  sameAsBaseline: boolean;
}

export interface Table4Case {
  case: string;
  inputBytes: number;
  rows: Table4Row[];
  error?: string;
}

export interface AnchorComparison {
  case: string;
  defaultNonWs: number | null;
  defaultTests: number | null;
  defaultStopped: boolean;
  hddStarNonWs: number | null;
  hddStarTests: number | null;
  picireny: AnchorRow | null;
  picirenyHddStar: AnchorRow | null;
  cvise: AnchorRow | null;
  picireBest: AnchorRow | null;
}

export interface BigCRun {
  inputBytes: number;
  marker: string;
  run: WhittleRun;
  targetBytes: number;
}

export interface HddData {
  matrix: { case: string; variants: string[]; budgetMs: number; extra: string[] }[];
  runs: WhittleRun[];
  anchors: AnchorComparison[];
  anchorsNote: string | null;
  table4: Table4Case[];
  bigC: BigCRun | null;
  notes: string[];
}

/**
 * Table IV's variants: the cache section's baseline and its three optimizations (P1, P1+P2,
 * P1+P2+P3), and the configuration cache for reference.
 */
const TABLE4 = CONFIGS.filter((c) => ["baseline", "p1", "p2", "p3", "config"].includes(c.id));

async function table4Case(ctx: BenchContext, c: BenchCase, frontEnd: AntlrFrontEnd): Promise<Table4Case> {
  const oracle = ctx.oracleFor(c).oracle;
  const pipeline = [treePass(parsePhase("prune*"), frontEnd)];
  const rows: Table4Row[] = [];
  let base: Uint8Array | undefined;
  for (const cfg of TABLE4) {
    const t0 = performance.now();
    const r = await reduce(c.input, oracle, {
      pipeline,
      jobs: 1,
      assumeInteresting: true,
      cache: cfg.cache,
      cacheFail: cfg.cacheFail,
      cacheEvict: cfg.cacheEvict,
    });
    if (r.kind !== "done") throw new Error(`${c.name} ${cfg.id}: ${r.kind}`);
    base ??= r.output;
    rows.push({
      config: cfg.id,
      label: cfg.label,
      tests: r.stats.tests,
      cacheHits: r.stats.cacheHits,
      peakEntries: r.stats.cache.peakEntries,
      peakBytes: r.stats.cache.peakBytes,
      outputBytes: r.output.length,
      sameAsBaseline: Buffer.from(base).equals(Buffer.from(r.output)),
    });
    progress(
      `hdd: Table IV ${c.name} ${cfg.id}: ${bytes(r.stats.cache.peakBytes)}, ${r.stats.cache.peakEntries} entries, ${r.stats.tests} tests (${ms(performance.now() - t0)})`,
    );
  }
  return { case: c.name, inputBytes: c.input.length, rows };
}

/** A generated C file of about `size` bytes with one function renamed to the marker the oracle greps. */
export function markedC(size: number, marker: string): string {
  const src = generatedC(size);
  const functions = src.split("static int f").length - 1;
  const k = Math.floor(functions / 2);
  return src.replace(`static int f${k}(`, `static int ${marker}(`);
}

/**
 * Writes the large-input case into `dir`: `input.c` (markedC of `size` bytes) and `oracle.sh`, which
 * greps for the marker.
 */
export function writeMarkedC(
  dir: string,
  size: number,
  marker: string,
): { input: string; oracle: string; source: string } {
  return writeGrepCase(dir, markedC(size, marker), marker);
}

/** Writes `source` into `dir` as `input.c`, beside an `oracle.sh` that greps for `marker`. */
export function writeGrepCase(
  dir: string,
  source: string,
  marker: string,
): { input: string; oracle: string; source: string } {
  mkdirSync(dir, { recursive: true });
  const input = join(dir, "input.c");
  writeFileSync(input, source);
  const oracle = join(dir, "oracle.sh");
  writeFileSync(oracle, `#!/bin/sh\nexec grep -q ${marker} "$1"\n`, { mode: 0o755 });
  return { input, oracle, source };
}

async function run(ctx: BenchContext): Promise<HddData> {
  const notes: string[] = [];
  const empty: HddData = {
    matrix: [],
    runs: [],
    anchors: [],
    anchorsNote: null,
    table4: [],
    bigC: null,
    notes,
  };
  if (!existsSync(grammarsDir(ctx))) {
    notes.push(`${grammarsDir(ctx)} not found: section skipped`);
    return empty;
  }
  const frontEnd = grammarLoader(ctx);

  const plans = casePlans(ctx.quick).filter((p) => ctx.sharedCase(p.name));
  const matrix = plans.map((p) => ({
    case: p.name,
    variants: [...p.variants],
    budgetMs: p.budgetMs,
    extra: CASE_GRAMMARS[p.name]!.recovery ? ["--allow-syntax-errors"] : [],
  }));
  const runs: WhittleRun[] = [];
  const table4: Table4Case[] = [];
  for (const plan of plans) {
    const c = ctx.sharedCase(plan.name)!;
    const g = GRAMMARS[CASE_GRAMMARS[plan.name]!.grammar];
    await frontEnd(g);
    for (const id of plan.variants) {
      const variant = VARIANTS.find((v) => v.id === id)!;
      const r = await runWhittle(ctx, {
        section: "hdd",
        caseName: c.name,
        variant: variant.id,
        label: variant.label,
        input: join(ctx.sharedDir, "bench", "cases", c.name, c.inputName),
        inputName: c.inputName,
        oracle: c.oraclePath!,
        args: variantArgs(variant, caseGrammarArgs(ctx, c.name)),
        budgetMs: plan.budgetMs,
        dir: join(ctx.tmpDir, "hdd", c.name, id.replace(/[^a-z0-9]+/g, "_")),
      });
      runs.push(r);
      progress(`hdd: ${c.name} ${variant.label}: ${runSummary(r)}`);
    }
    if (plan.table4) {
      try {
        table4.push(await table4Case(ctx, c, await frontEnd(g)));
      } catch (error) {
        table4.push({ case: c.name, inputBytes: c.input.length, rows: [], error: String(error) });
      }
    }
  }

  // The anchors.
  const anchorsPath = join(ctx.sharedDir, "bench", "anchors.md");
  let anchorsNote: string | null = null;
  const anchors: AnchorComparison[] = [];
  if (existsSync(anchorsPath)) {
    const table = parseAnchors(readFileSync(anchorsPath, "utf8"));
    for (const plan of plans) {
      const rows = table.get(plan.name) ?? [];
      const find = (v: string): WhittleRun | undefined =>
        runs.find((r) => r.case === plan.name && r.variant === v);
      const d = find("default");
      const h = find("hdd*");
      anchors.push({
        case: plan.name,
        defaultNonWs: d ? d.nonWsChars : null,
        defaultTests: d ? d.tests : null,
        defaultStopped: d?.stoppedAtBudget ?? false,
        hddStarNonWs: h ? h.nonWsChars : null,
        hddStarTests: h ? h.tests : null,
        picireny: smallestOf(rows, "Picireny") ?? null,
        picirenyHddStar: rows.find((r) => r.reducer === "Picireny HDD*") ?? null,
        cvise: smallestOf(rows, "C-Vise") ?? null,
        picireBest: smallestOf(rows, "Picire ") ?? null,
      });
    }
  } else anchorsNote = `${anchorsPath} not found`;

  // A ~600 KB C file (quick: 100 KB), HDD*, a grep oracle.
  const size = ctx.quick ? 100_000 : 600_000;
  const marker = "marker_600k";
  const dir = join(ctx.tmpDir, "hdd", "big-c");
  const { input, oracle, source } = writeMarkedC(dir, size, marker);
  notes.push(
    "The large C input is generated by the section (as the parse section's is: functions with loops, a switch, calls and sizeof), not by csmith, so nothing is installed; one function is renamed to the marker the oracle greps for.",
  );
  const hddStar = VARIANTS.find((v) => v.id === "hdd*")!;
  const big = await runWhittle(ctx, {
    section: "hdd",
    caseName: `generated-c-${size / 1000}k`,
    variant: hddStar.id,
    label: hddStar.label,
    input,
    inputName: "input.c",
    oracle,
    args: variantArgs(hddStar, grammarArgs(ctx, GRAMMARS.c)),
    budgetMs: (ctx.quick ? 5 : 12) * MINUTE,
    dir: join(dir, "run"),
  });
  progress(
    `hdd: generated C ${bytes(source.length)}: ${big.result}${big.stoppedAtBudget ? " (stopped at budget)" : ""}, ${big.tests} tests, ${ms(big.wallMs)}, peak RSS ${bytes(big.maxRssBytes)}`,
  );
  return {
    matrix,
    runs,
    anchors,
    anchorsNote,
    table4,
    bigC: { inputBytes: Buffer.byteLength(source), marker, run: big, targetBytes: 500 * 1e6 },
    notes,
  };
}

function render(data: HddData): string {
  const parts: string[] = [];
  if (data.matrix.length === 0 && data.notes.length) return data.notes.map((n) => `- ${n}\n`).join("");
  parts.push(
    `Each configuration is one run of the whittle command (\`-j 1\`, \`--timeout ${TEST_TIMEOUT_S}\`, the real \`oracle.sh\`, grammar from a warm grammar cache), so test counts are deterministic and comparable with the anchors' sequential tools. Sizes are non-whitespace characters (the papers' metric), with bytes in parentheses. Wall time is the whittle process from spawn to exit (grammar load, parses and the initial check included); peak RSS is the whittle process's own (getrusage, its tests excluded); the cache columns are whittle's accounting of its outcome cache (content-hash with P1 and eviction unless a row says otherwise). The last column runs \`oracle.sh\` once more on the result.`,
    "",
    "Matrix:",
    "",
    table(
      ["case", "variants", "budget per run", "extra options"],
      data.matrix.map((m) => [
        m.case,
        m.variants.map((v) => VARIANTS.find((x) => x.id === v)?.label ?? v).join(", "),
        ms(m.budgetMs),
        m.extra.join(" ") || "–",
      ]),
    ),
  );
  for (const m of data.matrix) {
    const rows = data.runs.filter((r) => r.case === m.case);
    parts.push(
      `### ${m.case}\n`,
      table(
        [
          "variant",
          "non-ws chars (bytes)",
          "tests",
          "cache hits",
          "wall",
          "peak RSS",
          "cache peak",
          "status",
          "oracle.sh on result",
        ],
        rows.map((r) => [
          r.label,
          `${r.nonWsChars} (${r.outputBytes})`,
          r.tests,
          r.cacheHits,
          ms(r.wallMs),
          rssCell(r),
          `${bytes(r.cachePeakBytes)} / ${r.cachePeakEntries} entries`,
          runStatus(r),
          oracleCell(r),
        ]),
      ),
    );
    parts.push(...oddRunNotes(rows));
    const d = rows.find((r) => r.variant === "default");
    if (d && Object.keys(d.passes).length > 1)
      parts.push(
        `Default pipeline, tests per pass: ${Object.entries(d.passes)
          .map(([p, n]) => `${p} ${n}`)
          .join(", ")}.`,
        "",
      );
  }

  parts.push("### Against the anchors\n");
  if (data.anchorsNote) parts.push(`Skipped: ${data.anchorsNote}.`, "");
  else {
    const cell = (a: AnchorRow | null): string => (a ? `${a.nonWsChars} / ${a.oracleRuns}` : "–");
    parts.push(
      "Non-ws chars / oracle runs. Goal of issue 9: the default's size ≤ the smallest of Picireny and C-Vise, and fewer tests than Picireny HDD*.",
      "",
      table(
        [
          "case",
          "whittle default",
          "whittle HDD*",
          "Picireny (best)",
          "Picireny HDD*",
          "C-Vise",
          "Picire (best)",
          "size ≤ min(Picireny, C-Vise)",
          "tests < Picireny HDD*",
        ],
        data.anchors.map((a) => {
          const bound = Math.min(a.picireny?.nonWsChars ?? Infinity, a.cvise?.nonWsChars ?? Infinity);
          const def =
            a.defaultNonWs === null
              ? "–"
              : `${a.defaultNonWs} / ${a.defaultTests}${a.defaultStopped ? " (stopped)" : ""}`;
          return [
            a.case,
            def,
            a.hddStarNonWs === null ? "–" : `${a.hddStarNonWs} / ${a.hddStarTests}`,
            a.picireny ? `${cell(a.picireny)} (${a.picireny.reducer.replace("Picireny ", "")})` : "–",
            cell(a.picirenyHddStar),
            cell(a.cvise),
            a.picireBest
              ? `${cell(a.picireBest)} (${a.picireBest.reducer.replace("Picire 21.8, ", "")})`
              : "–",
            a.defaultNonWs === null || !Number.isFinite(bound)
              ? "no anchor"
              : a.defaultNonWs <= bound
                ? `yes (${a.defaultNonWs} ≤ ${bound})`
                : `**no** (${a.defaultNonWs} > ${bound})`,
            a.defaultTests === null || !a.picirenyHddStar
              ? "no anchor"
              : a.defaultTests < a.picirenyHddStar.oracleRuns
                ? `yes (${a.defaultTests} < ${a.picirenyHddStar.oracleRuns})`
                : `**no** (${a.defaultTests} ≥ ${a.picirenyHddStar.oracleRuns})`,
          ];
        }),
      ),
    );
  }

  parts.push(
    "### Table IV of the cache paper: peak cache size with HDD\n",
    "The paper's Table IV compares the content cache of Hodován et al. storing every outcome (baseline) with all three proposals combined (P1: store passing outcomes only; P2: evict entries larger than each new interesting candidate; P3: store a fixed-size hash, SHA3-256 there, of the content instead of the content); over its 32 tests the proposals are always the smallest, −25 % to −99.99 % (−63 % on average on the small JerryScript tests, −99.93 % on the large C tests). Here: HDD* (`prune*`) in-process, `-j 1`, the oracle's answers memoized by content (whittle counts its own tests, so counts are exact), each step added in turn; whittle's P3 uses SHA-256. Bytes are whittle's accounting (key bytes plus a per-entry estimate), not a heap measurement as the paper's pympler figures.",
    "",
  );
  for (const t of data.table4) {
    if (t.error) {
      parts.push(`- ${t.case}: failed: \`${t.error.split("\n")[0]}\``, "");
      continue;
    }
    const base = t.rows[0]!;
    parts.push(
      `**${t.case}** (${bytes(t.inputBytes)})\n`,
      table(
        ["cache", "peak bytes", "vs baseline", "peak entries", "tests", "cache hits", "same output"],
        t.rows.map((r) => [
          r.label,
          bytes(r.peakBytes),
          percent(r.peakBytes / base.peakBytes - 1),
          r.peakEntries,
          r.tests,
          r.cacheHits,
          r.sameAsBaseline ? "yes" : "**no**",
        ]),
      ),
    );
  }

  if (data.bigC) {
    const b = data.bigC;
    parts.push(
      `### ${bytes(b.inputBytes)} of generated C, HDD*\n`,
      `Oracle: \`grep -q ${b.marker}\`. Target: peak RSS under 500 MB.`,
      "",
      table(
        [
          "input",
          "status",
          "tests",
          "wall",
          "peak RSS",
          "under 500 MB",
          "result (non-ws chars / bytes)",
          "cache peak",
        ],
        [
          [
            bytes(b.inputBytes),
            runStatus(b.run),
            b.run.tests,
            ms(b.run.wallMs),
            rssCell(b.run),
            b.run.maxRssBytes < b.targetBytes ? "yes" : "**no**",
            `${b.run.nonWsChars} / ${b.run.outputBytes}`,
            bytes(b.run.cachePeakBytes),
          ],
        ],
      ),
    );
    if (b.run.result !== "done" && !b.run.stoppedAtBudget)
      parts.push(`\`${b.run.argv.join(" ")}\`: ${b.run.stderr.split("\n")[0] ?? ""}`, "");
  }
  if (data.notes.length) parts.push(...data.notes.map((n) => `- ${n}`), "");
  return parts.join("\n");
}

export const hddSection: Section<HddData> = {
  id: "hdd",
  title: "Tree reduction: HDD variants against ddmin and the anchors",
  run,
  render,
};
