/**
 * Section 3: outcome caches (Vince, Hodován & Kiss, "Cache optimizations for test case reduction",
 * Table III). For each case, the same reduction with: the plain content cache storing every outcome
 * and never evicting (the baseline), + passing outcomes only (Proposal 1), + eviction of entries
 * larger than each new interesting candidate (Proposal 2), + fixed-size hashes (Proposal 3); and the
 * configuration trie cache, and no cache. Peak entries and bytes (whittle's own accounting: key bytes
 * plus a per-entry overhead), tests, wall time, and whether output and test count are identical.
 */
import type { AtomMode } from "../../src/atoms/atoms.js";
import type { CacheKind } from "../../src/cache/index.js";
import type { Oracle } from "../../src/reduce/evaluator.js";
import { reduce } from "../../src/reduce/reduce.js";
import type { BenchCase } from "../lib/cases.js";
import type { BenchContext, Section } from "../lib/context.js";
import { bytes, ms, percent, spreadText, table } from "../lib/format.js";
import { jsonCase } from "../lib/generated.js";
import { progress } from "../lib/log.js";
import { spread, ratioSpread, geomean, type Spread } from "../lib/stats.js";
import { alternate } from "../lib/timing.js";
import { describeDefaults } from "../lib/defaults.js";

export interface CacheConfig {
  id: string;
  label: string;
  cache: CacheKind;
  cacheFail: boolean;
  cacheEvict: boolean;
}

export const CONFIGS: readonly CacheConfig[] = [
  {
    id: "baseline",
    label: "content, all outcomes, no eviction (baseline)",
    cache: "content",
    cacheFail: true,
    cacheEvict: false,
  },
  { id: "p1", label: "+ passing outcomes only (P1)", cache: "content", cacheFail: false, cacheEvict: false },
  { id: "p2", label: "+ eviction (P1+P2)", cache: "content", cacheFail: false, cacheEvict: true },
  {
    id: "p3",
    label: "+ SHA-256 hash keys (P1+P2+P3)",
    cache: "content-hash",
    cacheFail: false,
    cacheEvict: true,
  },
  {
    id: "config",
    label: "config trie, all outcomes, no eviction",
    cache: "config",
    cacheFail: true,
    cacheEvict: false,
  },
  { id: "config-p12", label: "config trie + P1 + P2", cache: "config", cacheFail: false, cacheEvict: true },
  { id: "none", label: "no cache", cache: "none", cacheFail: false, cacheEvict: false },
];
/** The figures of Table III compare these four, incrementally. */
const CONTENT_CHAIN = ["baseline", "p1", "p2", "p3"];

export interface CacheRow {
  config: string;
  label: string;
  tests: number;
  cacheHits: number;
  lookups: number;
  peakEntries: number;
  peakBytes: number;
  outputBytes: number;
  /** Same output bytes and same test count as the baseline. */
  identical: boolean;
  sameOutput: boolean;
  /** Wall time of the reduction with an in-process oracle (mirror or replay), over repetitions. */
  time: Spread;
  /** Wall time relative to the baseline, per repetition. */
  timeVsBaseline: Spread;
}

export interface CacheCase {
  case: string;
  atom: AtomMode;
  inputBytes: number;
  oracle: string;
  /** Executions of oracle.sh this section needed to record the answers it replays (earlier sections may have recorded most of them already). */
  shellCalls?: number;
  replayMisses: number;
  rows: CacheRow[];
}

export interface CacheData {
  settings: string;
  cases: CacheCase[];
  notes: string[];
  /** Geometric means over cases of peak bytes relative to the baseline. */
  bytesRatio: Record<string, number>;
  entriesRatio: Record<string, number>;
  timeRatio: Record<string, number>;
}

interface Plan {
  c: BenchCase;
  atom: AtomMode;
  oracle: Oracle;
  describe: string;
  /** For shell oracles: a replay built after the first real run. */
  replay?: boolean;
}

function plans(ctx: BenchContext, notes: string[]): Plan[] {
  const out: Plan[] = [];
  for (const name of ["json-obj-arr-87", "json-invalid-escape", "json-extra-comma"]) {
    const c = ctx.sharedCase(name);
    const mirror = c ? ctx.oracleFor(c).mirror : undefined;
    if (c && mirror)
      out.push({
        c,
        atom: "char",
        oracle: (b) => mirror.test(b),
        describe: `in-process mirror (${mirror.what})`,
      });
  }
  // Quick: a 1 KB document (the configuration trie's eviction is slow on 4 KB, see the report).
  const gen = jsonCase(ctx.quick ? 1024 : 4096);
  out.push({
    c: gen.benchCase,
    atom: "char",
    oracle: (b) => gen.test(b),
    describe: `generated, in-process (${gen.what})`,
  });
  const zeller = ctx.sharedCase("zeller-bug-c");
  if (zeller) {
    out.push({
      c: zeller,
      atom: ctx.quick ? "both" : "char",
      oracle: ctx.oracleFor(zeller).oracle,
      describe: "oracle.sh (gcc), then replayed in-process",
      replay: true,
    });
    if (ctx.quick)
      notes.push(
        "quick: zeller-bug-c runs lines then characters of the line result (atom both) instead of characters from the start, to stay within a minute.",
      );
  }
  if (!ctx.quick) {
    for (const name of ["cvise-blocksort-c", "creduce-file2-c", "hello-world-big-c"]) {
      const c = ctx.sharedCase(name);
      if (c)
        out.push({
          c,
          atom: "line",
          oracle: ctx.oracleFor(c).oracle,
          describe: "oracle.sh (gcc), then replayed in-process",
          replay: true,
        });
    }
    notes.push(
      "The 18–35 KB C cases run with line atoms: character atoms from the start would need tens of thousands of gcc runs each. Their line-level keys are still up to 35 KB, which is where the content cache's memory goes.",
    );
  }
  if (ctx.shared.cases.length === 0)
    notes.push("shared cases absent: only the generated JSON case is measured.");
  return out;
}

async function run(ctx: BenchContext): Promise<CacheData> {
  const notes: string[] = [];
  // whittle's defaults (as they are when the benchmark runs), sequential; only the cache options vary.
  const common = { jobs: 1, assumeInteresting: true };
  const cases: CacheCase[] = [];
  for (const plan of plans(ctx, notes)) {
    const options = (cfg: CacheConfig) => ({
      ...common,
      atom: plan.atom,
      cache: cfg.cache,
      cacheFail: cfg.cacheFail,
      cacheEvict: cfg.cacheEvict,
    });
    let oracle = plan.oracle;
    let shellCalls: number | undefined;
    let misses = (): number => 0;
    if (plan.replay) {
      // One real run per cache kind that can change which candidates reach the oracle (content,
      // config, none); every answer is remembered, and the timed runs replay them in-process.
      const caseOracle = ctx.oracleFor(plan.c);
      const memo = caseOracle.memo;
      const before = caseOracle.shellCalls;
      for (const cfg of [CONFIGS[0]!, CONFIGS[4]!, CONFIGS[6]!]) {
        const t0 = performance.now();
        await reduce(plan.c.input, plan.oracle, options(cfg));
        progress(`cache: ${plan.c.name} recording run (${cfg.cache}): ${ms(performance.now() - t0)}`);
      }
      shellCalls = caseOracle.shellCalls - before;
      const replay = memo.replay(plan.oracle);
      oracle = replay.oracle;
      misses = replay.misses;
    }
    // A configuration whose first run is very slow is not repeated (its spread then has n = 1).
    const slowMs = ctx.quick ? 1000 : 10_000;
    const results = await alternate(
      CONFIGS,
      ctx.reps,
      async (cfg) => {
        const t0 = performance.now();
        const result = await reduce(plan.c.input, oracle, options(cfg));
        const took = performance.now() - t0;
        if (took > slowMs) progress(`cache: ${plan.c.name} ${cfg.id} took ${ms(took)} (not repeated)`);
        return { ms: took, result };
      },
      (_cfg, done) => done[0]!.ms > slowMs,
    );
    const base = results[0]!;
    const baseOut = Buffer.from(base[0]!.result.output);
    const rows: CacheRow[] = CONFIGS.map((cfg, i) => {
      const runs = results[i]!;
      const r = runs[0]!.result;
      const s = r.stats;
      const sameOutput =
        baseOut.equals(Buffer.from(r.output)) &&
        runs.every((x) => baseOut.equals(Buffer.from(x.result.output)));
      return {
        config: cfg.id,
        label: cfg.label,
        tests: s.tests,
        cacheHits: s.cacheHits,
        lookups: s.cache.lookups,
        peakEntries: s.cache.peakEntries,
        peakBytes: s.cache.peakBytes,
        outputBytes: r.output.length,
        sameOutput,
        identical: sameOutput && s.tests === base[0]!.result.stats.tests,
        time: spread(runs.map((x) => x.ms)),
        timeVsBaseline: ratioSpread(
          runs.map((x) => x.ms),
          base.map((x) => x.ms),
        ),
      };
    });
    cases.push({
      case: plan.c.name,
      atom: plan.atom,
      inputBytes: plan.c.input.length,
      oracle: plan.describe,
      ...(shellCalls === undefined ? {} : { shellCalls }),
      replayMisses: misses(),
      rows,
    });
    const p3 = rows.find((r) => r.config === "p3")!;
    progress(
      `cache: ${plan.c.name} (${plan.atom}): baseline ${bytes(rows[0]!.peakBytes)} → P1+P2+P3 ${bytes(p3.peakBytes)}; identical: ${rows.slice(0, 4).every((r) => r.identical)}`,
    );
  }
  const ratioOf = (f: (r: CacheRow) => number): Record<string, number> =>
    Object.fromEntries(
      CONFIGS.filter((c) => c.id !== "none").map((cfg) => [
        cfg.id,
        geomean(
          cases.map(
            (c) => Math.max(f(c.rows.find((r) => r.config === cfg.id)!), 1) / Math.max(f(c.rows[0]!), 1),
          ),
        ),
      ]),
    );
  return {
    settings: `whittle's defaults (${describeDefaults()}), jobs 1; the atoms and the cache options vary`,
    cases,
    notes,
    bytesRatio: ratioOf((r) => r.peakBytes),
    entriesRatio: ratioOf((r) => r.peakEntries),
    timeRatio: Object.fromEntries(
      CONFIGS.map((cfg) => [
        cfg.id,
        geomean(cases.map((c) => c.rows.find((r) => r.config === cfg.id)!.timeVsBaseline.median)),
      ]),
    ),
  };
}

function render(data: CacheData): string {
  const out: string[] = [`Settings: ${data.settings}.`, ""];
  for (const note of data.notes) out.push(`- ${note}`);
  if (data.notes.length) out.push("");
  out.push(
    "Peak bytes are whittle's own accounting of what each cache holds (key bytes plus an estimated per-entry overhead: 48 B per content entry, 96 B per hash entry, 96 B per trie node). Wall times run the oracle in-process (a mirror, or a replay of the real oracle's recorded answers), so they show the cache's own cost; ratios are per repetition against the baseline, median (min–max).",
    "",
    "### Table III: peak bytes of the content cache, proposals applied incrementally",
    "",
  );
  out.push(
    table(
      [
        "case",
        "atoms",
        "input",
        "baseline",
        "P1",
        "P1+P2",
        "P1+P2+P3",
        "difference",
        "identical output and tests",
      ],
      data.cases.map((c) => {
        const get = (id: string): CacheRow => c.rows.find((r) => r.config === id)!;
        const b = get("baseline").peakBytes;
        const last = get("p3").peakBytes;
        return [
          c.case,
          c.atom,
          bytes(c.inputBytes),
          bytes(b),
          bytes(get("p1").peakBytes),
          bytes(get("p2").peakBytes),
          bytes(last),
          percent(last / b - 1),
          CONTENT_CHAIN.every((id) => get(id).identical) ? "yes" : "**NO**",
        ];
      }),
    ),
  );
  out.push(
    `Geometric mean over cases, relative to the baseline — peak bytes: ${CONTENT_CHAIN.map((id) => `${id} ${percent(data.bytesRatio[id]!, 1)}`).join(", ")}, config trie ${percent(data.bytesRatio["config"]!, 1)}, config trie + P1 + P2 ${percent(data.bytesRatio["config-p12"]!, 1)}; peak entries: ${CONTENT_CHAIN.map((id) => `${id} ${percent(data.entriesRatio[id]!, 1)}`).join(", ")}; wall time: ${Object.entries(
      data.timeRatio,
    )
      .map(([id, r]) => `${id} ${r.toFixed(3)}`)
      .join(", ")}.`,
    "",
  );
  for (const c of data.cases) {
    out.push(
      `### ${c.case} (${c.atom} atoms, ${bytes(c.inputBytes)}; ${c.oracle}${c.shellCalls !== undefined ? `; ${c.shellCalls} oracle.sh runs in this section, the rest recorded by earlier sections` : ""}${c.replayMisses ? `; ${c.replayMisses} replay misses` : ""})`,
      "",
    );
    out.push(
      table(
        [
          "cache",
          "tests",
          "cache hits",
          "peak entries",
          "peak bytes",
          "output bytes",
          "same as baseline",
          "wall time",
          "time / baseline",
        ],
        c.rows.map((r) => [
          r.label,
          r.tests,
          r.cacheHits,
          r.peakEntries,
          bytes(r.peakBytes),
          r.outputBytes,
          r.identical ? "yes" : r.sameOutput ? "output yes, tests differ" : "**no**",
          r.time.n === 1
            ? `${ms(r.time.median)} (1 run: slow, not repeated)`
            : `${ms(r.time.median)} (${ms(r.time.min)}–${ms(r.time.max)})`,
          r.timeVsBaseline.n === 1 ? r.timeVsBaseline.median.toFixed(3) : spreadText(r.timeVsBaseline, 3),
        ]),
      ),
    );
  }
  return out.join("\n");
}

export const cacheSection: Section<CacheData> = {
  id: "cache",
  title: "3. Caches (cache paper, Table III)",
  run,
  render: (data) => render(data),
};
