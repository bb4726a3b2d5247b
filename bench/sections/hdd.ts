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
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AntlrFrontEnd } from "../../src/grammar/front-end.js";
import { parsePhase, treePass } from "../../src/hdd/phases.js";
import { CONFIGS } from "./cache.js";
import { reduce } from "../../src/reduce/reduce.js";
import { ALL_TRANSFORMS } from "../../src/tree/tree.js";
import { nonWhitespaceChars, parseAnchors, smallestOf, type AnchorRow } from "../lib/anchors.js";
import type { BenchCase } from "../lib/cases.js";
import type { BenchContext, Section } from "../lib/context.js";
import { bytes, ms, percent, table } from "../lib/format.js";
import { progress } from "../lib/log.js";
import { shellOracle } from "../lib/oracles.js";
import { generatedC } from "./parse.js";

interface GrammarSpec {
  readonly id: "json" | "c" | "javascript";
  readonly files: readonly string[];
  readonly start: string;
}

const GRAMMARS: Readonly<Record<GrammarSpec["id"], GrammarSpec>> = {
  json: { id: "json", files: ["json/JSON.g4"], start: "json" },
  c: { id: "c", files: ["c/C.g4"], start: "compilationUnit" },
  javascript: {
    id: "javascript",
    files: ["javascript/JavaScriptLexer.g4", "javascript/JavaScriptParser.g4"],
    start: "program",
  },
};

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

interface CasePlan {
  readonly name: string;
  readonly grammar: GrammarSpec["id"];
  readonly variants: readonly string[];
  readonly budgetMs: number;
  /** Extra whittle options for this case (--allow-syntax-errors where the grammar cannot parse it). */
  readonly extra: readonly string[];
  /** Run the cache variants of Table IV on it. */
  readonly table4: boolean;
}

const MINUTE = 60_000;
const TEST_TIMEOUT_S = 30;

function casePlans(quick: boolean): CasePlan[] {
  const small = (name: string, grammar: GrammarSpec["id"]): CasePlan => ({
    name,
    grammar,
    variants: ALL,
    budgetMs: (quick ? 5 : 10) * MINUTE,
    extra: [],
    table4: true,
  });
  const plans = [
    small("json-obj-arr-87", "json"),
    // Their oracles want invalid JSON: the grammar parses them with error recovery.
    { ...small("json-invalid-escape", "json"), extra: ["--allow-syntax-errors"] },
    { ...small("json-extra-comma", "json"), extra: ["--allow-syntax-errors"] },
    small("zeller-bug-c", "c"),
  ];
  if (quick) return plans;
  return [
    ...plans,
    { ...small("cvise-blocksort-c", "c"), variants: REDUCED, budgetMs: 10 * MINUTE },
    { ...small("creduce-file2-c", "c"), variants: REDUCED, budgetMs: 10 * MINUTE },
    // Preprocessed glibc headers: __restrict, __extension__, __asm__ … are not in the C11 grammar.
    {
      ...small("hello-world-big-c", "c"),
      variants: REDUCED,
      budgetMs: 10 * MINUTE,
      extra: ["--allow-syntax-errors"],
      // Its HDD* alone needs ~1,800 gcc runs: Table IV stays with the smaller cases.
      table4: false,
    },
    {
      ...small("js-esquery-syntax-error", "javascript"),
      variants: ["default", "ddmin"],
      budgetMs: 7 * MINUTE,
      table4: false,
    },
    {
      ...small("js-yaml-flow-error", "javascript"),
      variants: ["default", "ddmin"],
      budgetMs: 7 * MINUTE,
      table4: false,
    },
  ];
}

export interface HddRun {
  case: string;
  variant: string;
  label: string;
  argv: string[];
  budgetMs: number;
  /** The stats file's result: done, interrupted, failed, not-interesting; "no stats" if none was written. */
  result: string;
  exitCode: number | null;
  stoppedAtBudget: boolean;
  tests: number;
  cacheHits: number;
  /** Tests that hit the per-test limit. */
  timedOut: number;
  cacheKind: string | null;
  cachePeakEntries: number;
  cachePeakBytes: number;
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
  stderr: string;
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
  run: HddRun;
  targetBytes: number;
}

export interface HddData {
  matrix: { case: string; variants: string[]; budgetMs: number; extra: string[] }[];
  runs: HddRun[];
  anchors: AnchorComparison[];
  anchorsNote: string | null;
  table4: Table4Case[];
  bigC: BigCRun | null;
  notes: string[];
}

/** One whittle command in its own process, under a wall-clock budget (then SIGINT). */
async function runWhittle(
  ctx: BenchContext,
  opts: {
    label: string;
    caseName: string;
    variant: Variant;
    input: string;
    inputName: string;
    oracle: string;
    grammarArgs: string[];
    budgetMs: number;
    dir: string;
  },
): Promise<HddRun> {
  const { dir } = opts;
  mkdirSync(dir, { recursive: true });
  const out = join(dir, `out-${opts.inputName}`);
  const stats = join(dir, "stats.json");
  const main = join(ctx.repoRoot, "dist", "src", "cli", "main.js");
  const hook = join(ctx.repoRoot, "dist", "bench", "sections", "hdd-rss-hook.js");
  const phaseArgs = opts.variant.phases.flatMap((p) => ["--phase", p]);
  const args = [
    opts.input,
    // Without a grammar, no built-in language either (whittle would pick one from the extension).
    ...(opts.variant.grammar ? opts.grammarArgs : ["--language", "none"]),
    ...phaseArgs,
    "-j",
    "1",
    // A fixed per-test limit: the adaptive one (from test durations, at least 0.25 s) fires now and
    // then on a loaded machine, and a timed-out candidate counts as not interesting, which would
    // make the counts depend on the load. No oracle here needs 30 s (the JavaScript ones stop at 10).
    "--timeout",
    String(TEST_TIMEOUT_S),
    "-o",
    out,
    "--stats",
    stats,
    "-q",
    "--",
    opts.oracle,
    "{}",
  ];
  const env = {
    ...process.env,
    XDG_CACHE_HOME: join(ctx.tmpDir, "xdg"),
    WHITTLE_BENCH_RSS_DIR: dir,
  };
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
    progress(`hdd: ${opts.caseName} ${opts.variant.id}: budget of ${ms(opts.budgetMs)} reached, SIGINT`);
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
  let rssSource: HddRun["rssSource"] = "sampled";
  const rssFile = join(dir, `rss-${child.pid}.json`);
  if (existsSync(rssFile)) {
    maxRssBytes = (JSON.parse(readFileSync(rssFile, "utf8")) as { maxRssBytes: number }).maxRssBytes;
    rssSource = "getrusage";
  }
  interface StatsJson {
    result: string;
    tests: number;
    cacheHits: number;
    timedOutRuns: number;
    wallMs: number;
    cache: { kind: string; peakEntries: number; peakBytes: number } | null;
    passes: Record<string, { tests: number }>;
  }
  const s = existsSync(stats) ? (JSON.parse(readFileSync(stats, "utf8")) as StatsJson) : undefined;
  const output = existsSync(out) ? readFileSync(out) : undefined;
  let interesting: boolean | null = null;
  if (output) {
    const check = shellOracle({ ...fakeCase(opts.caseName, opts.inputName), oraclePath: opts.oracle }, [
      opts.oracle,
      "{}",
    ]);
    interesting = (await check(output, new AbortController().signal)) === "interesting";
  }
  return {
    case: opts.caseName,
    variant: opts.variant.id,
    label: opts.variant.label,
    argv: ["whittle", ...args.map((a) => a.replace(dir, "."))],
    budgetMs: opts.budgetMs,
    result: s?.result ?? "no stats",
    exitCode,
    stoppedAtBudget,
    tests: s?.tests ?? 0,
    cacheHits: s?.cacheHits ?? 0,
    timedOut: s?.timedOutRuns ?? 0,
    cacheKind: s?.cache?.kind ?? null,
    cachePeakEntries: s?.cache?.peakEntries ?? 0,
    cachePeakBytes: s?.cache?.peakBytes ?? 0,
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

/** What shellOracle needs of a case: a name and the candidate's file name. */
function fakeCase(name: string, inputName: string): BenchCase {
  return { name, source: "shared", input: new Uint8Array(0), inputName, lines: 0, chars: 0 };
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

async function run(ctx: BenchContext): Promise<HddData> {
  const notes: string[] = [];
  const grammarsDir = join(ctx.sharedDir, "grammars");
  const empty: HddData = {
    matrix: [],
    runs: [],
    anchors: [],
    anchorsNote: null,
    table4: [],
    bigC: null,
    notes,
  };
  if (!existsSync(grammarsDir)) {
    notes.push(`${grammarsDir} not found: section skipped`);
    return empty;
  }
  const cacheDir = join(ctx.tmpDir, "xdg", "whittle");
  const frontEnds = new Map<string, AntlrFrontEnd>();
  const frontEnd = async (g: GrammarSpec): Promise<AntlrFrontEnd> => {
    let f = frontEnds.get(g.id);
    if (!f) {
      // Also fills the grammar cache the whittle commands read (same XDG_CACHE_HOME).
      f = await AntlrFrontEnd.load({
        grammarFiles: g.files.map((x) => join(grammarsDir, x)),
        start: g.start,
        cacheDir,
        transforms: ALL_TRANSFORMS,
      });
      frontEnds.set(g.id, f);
    }
    return f;
  };
  const grammarArgs = (g: GrammarSpec): string[] => [
    ...g.files.flatMap((x) => ["--grammar", join(grammarsDir, x)]),
    "--start",
    g.start,
  ];

  const plans = casePlans(ctx.quick).filter((p) => ctx.sharedCase(p.name));
  const matrix = plans.map((p) => ({
    case: p.name,
    variants: [...p.variants],
    budgetMs: p.budgetMs,
    extra: [...p.extra],
  }));
  const runs: HddRun[] = [];
  const table4: Table4Case[] = [];
  for (const plan of plans) {
    const c = ctx.sharedCase(plan.name)!;
    const g = GRAMMARS[plan.grammar];
    await frontEnd(g);
    for (const id of plan.variants) {
      const variant = VARIANTS.find((v) => v.id === id)!;
      const r = await runWhittle(ctx, {
        label: variant.label,
        caseName: c.name,
        variant,
        input: join(ctx.sharedDir, "bench", "cases", c.name, c.inputName),
        inputName: c.inputName,
        oracle: c.oraclePath!,
        grammarArgs: [...grammarArgs(g), ...plan.extra],
        budgetMs: plan.budgetMs,
        dir: join(ctx.tmpDir, "hdd", c.name, id.replace(/[^a-z0-9]+/g, "_")),
      });
      runs.push(r);
      progress(
        `hdd: ${c.name} ${variant.label}: ${r.result}${r.stoppedAtBudget ? " (stopped at budget)" : ""}, ${r.nonWsChars} non-ws chars, ${r.tests} tests, ${ms(r.wallMs)}, RSS ${bytes(r.maxRssBytes)}, cache ${bytes(r.cachePeakBytes)}${r.interesting === false ? ", RESULT NOT INTERESTING" : ""}`,
      );
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
      const find = (v: string): HddRun | undefined =>
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
  mkdirSync(dir, { recursive: true });
  const input = join(dir, "input.c");
  const source = markedC(size, marker);
  writeFileSync(input, source);
  const oracle = join(dir, "oracle.sh");
  writeFileSync(oracle, `#!/bin/sh\nexec grep -q ${marker} "$1"\n`, { mode: 0o755 });
  notes.push(
    "The large C input is generated by the section (as the parse section's is: functions with loops, a switch, calls and sizeof), not by csmith, so nothing is installed; one function is renamed to the marker the oracle greps for.",
  );
  const big = await runWhittle(ctx, {
    label: "HDD*",
    caseName: `generated-c-${size / 1000}k`,
    variant: VARIANTS.find((v) => v.id === "hdd*")!,
    input,
    inputName: "input.c",
    oracle,
    grammarArgs: grammarArgs(GRAMMARS.c),
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

function status(r: HddRun): string {
  const timeouts = r.timedOut ? `, ${r.timedOut} test(s) timed out` : "";
  if (r.stoppedAtBudget) return `stopped at budget (${ms(r.budgetMs)})${timeouts}`;
  if (r.result === "done") return `done${timeouts}`;
  return `${r.result} (exit ${r.exitCode})${timeouts}`;
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
          bytes(r.maxRssBytes) + (r.rssSource === "sampled" ? " (sampled)" : ""),
          `${bytes(r.cachePeakBytes)} / ${r.cachePeakEntries} entries`,
          status(r),
          r.interesting === null ? "no output" : r.interesting ? "interesting" : "**NOT interesting**",
        ]),
      ),
    );
    const odd = rows.filter((r) => (r.result !== "done" && !r.stoppedAtBudget) || r.interesting === false);
    for (const r of odd) {
      parts.push(
        `- ${r.label}: ${status(r)}; \`${r.argv.join(" ")}\`${r.stderr ? `; stderr: \`${r.stderr.split("\n")[0]}\`` : ""}`,
        "",
      );
    }
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
            status(b.run),
            b.run.tests,
            ms(b.run.wallMs),
            bytes(b.run.maxRssBytes) + (b.run.rssSource === "sampled" ? " (sampled)" : ""),
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
