/**
 * Section 2: the split factor ν of ddmin^ν (Kiss, "Generalizing the split factor of the minimizing
 * delta debugging algorithm", Tables 2, 3 and 5): tests and result size for each ν, relative to ν = 2,
 * "with subset tests" (subsets-first, forward) and "without subset tests" (complements-only, complements
 * backward), line and character atoms. Content cache, no DD*, jobs 1 — test counts are deterministic,
 * so one run each.
 *
 * Also, at ν = 2, the other choices the defaults make: complement order (forward or backward) and DD*.
 */
import { splitChars, splitLines, type AtomKind } from "../../src/atoms/atoms.js";
import type { Strategy, Order } from "../../src/ddmin/order.js";
import { reduce } from "../../src/reduce/reduce.js";
import type { BenchCase } from "../lib/cases.js";
import type { BenchContext, Section } from "../lib/context.js";
import { fixed, ms, percent, snippet, table } from "../lib/format.js";
import { jsonCase } from "../lib/generated.js";
import { progress } from "../lib/log.js";
import type { MirrorCheck } from "../lib/oracles.js";
import { geomean } from "../lib/stats.js";
import { pool } from "../lib/timing.js";
import { describeDefaults } from "../lib/defaults.js";
import { cpus } from "node:os";

export type Nu = number | "inf";
export type Variant = "with-subsets" | "without-subsets";

const VARIANTS: Readonly<
  Record<Variant, { strategy: Strategy; subsetOrder: Order; complementOrder: Order }>
> = {
  "with-subsets": { strategy: "subsets-first", subsetOrder: "forward", complementOrder: "forward" },
  "without-subsets": { strategy: "complements-only", subsetOrder: "forward", complementOrder: "backward" },
};

const FULL_NUS: readonly Nu[] = [2, 3, 4, 5, 8, 13, 16, 21, 32, "inf"];
const QUICK_NUS: readonly Nu[] = [2, 4, 8, "inf"];

export interface SfRun {
  case: string;
  atom: AtomKind;
  variant: Variant;
  nu: Nu;
  tests: number;
  hits: number;
  iterations: number;
  /** Size of the result in atoms (lines or characters). */
  size: number;
  bytes: number;
  output: string;
  /** Wall time (oracle included; memoized answers make it meaningless for comparison). */
  ms: number;
}

export interface SfCaseInfo {
  name: string;
  source: string;
  lines: number;
  chars: number;
  /** The atoms run, each with its ν values. */
  plans: { atom: AtomKind; nus: Nu[] }[];
  oracle: string;
  note?: string;
}

export interface SfSummary {
  atom: AtomKind;
  variant: Variant;
  nu: Nu;
  cases: number;
  /** Geometric mean over cases of tests(ν) / tests(ν = 2). */
  testsRatio: number;
  fewer: number;
  more: number;
  /** Geometric mean of size(ν) / size(ν = 2). */
  sizeRatio: number;
  larger: number;
  smaller: number;
}

export interface SfExtra {
  case: string;
  atom: AtomKind;
  label: string;
  tests: number;
  size: number;
}

export interface SfData {
  nus: Nu[];
  settings: string;
  cases: SfCaseInfo[];
  runs: SfRun[];
  summary: SfSummary[];
  /** ν = 2, without subset tests vs with: tests ratio per case and atom. */
  subsetsEffect: { case: string; atom: AtomKind; withSubsets: number; withoutSubsets: number }[];
  extras: SfExtra[];
  extraLabels: string[];
  /** whittle's defaults at the time of the run, in words. */
  defaults: string;
  mirrorChecks: MirrorCheck[];
  oracleCalls: { case: string; shellCalls: number; memoHits: number }[];
}

const nuValue = (nu: Nu): number => (nu === "inf" ? Infinity : nu);
const nuText = (nu: Nu): string => (nu === "inf" ? "∞" : String(nu));
const atomCount = (b: Uint8Array, atom: AtomKind): number =>
  atom === "line" ? splitLines(b).count : splitChars(b).count;

/**
 * ν values for cases whose tests run gcc (full mode): fewer, to keep the full run near 20 minutes (all
 * ten ν on these cases take about 25 minutes of the two cores). Of the 18–35 KB C cases only the
 * cheapest to reduce, cvise-blocksort-c, sweeps ν; the others run ν = 2 (for the strategy figures).
 */
const GCC_LINE_NUS: readonly Nu[] = [2, 4, 8, 16, "inf"];
const GCC_CHAR_NUS: readonly Nu[] = [2, 3, 4, 8, "inf"];
const GCC_SWEEP = new Set(["cvise-blocksort-c"]);

/** Which cases, atoms and ν to run, and why some are left out. */
function plan(ctx: BenchContext, nus: readonly Nu[]): SfCaseInfo[] {
  const infos: SfCaseInfo[] = [];
  const all: BenchCase[] = [...ctx.shared.cases, jsonCase().benchCase];
  for (const c of all) {
    if (c.input.length > MAX_FLAT_BYTES) {
      // The 130 KB JavaScript cases are for the grammar-aware sections: one plain line ddmin of one
      // of them took 20,959 oracle runs and 58 minutes (../shared/bench/anchors.md).
      infos.push({
        name: c.name,
        source: c.source,
        lines: c.lines,
        chars: c.chars,
        oracle: "oracle.sh",
        plans: [],
        note: `not run: ${c.input.length} bytes, over ${MAX_FLAT_BYTES}; a plain ddmin of it takes about an hour`,
      });
      continue;
    }
    const mirror = ctx.oracleFor(c).mirror;
    const inProcess = mirror?.kind === "exact";
    const oracle = inProcess
      ? c.source === "generated"
        ? `in-process (${mirror.what})`
        : `in-process mirror of oracle.sh (${mirror.what})`
      : mirror
        ? `oracle.sh, after an in-process precheck (${mirror.what})`
        : "oracle.sh";
    const base = { name: c.name, source: c.source, lines: c.lines, chars: c.chars, oracle };
    if (ctx.quick) {
      // Quick: small cases with in-process oracles only; characters only up to 100 of them.
      if (!inProcess || c.lines > 40 || c.source === "generated") continue;
      const plans: SfCaseInfo["plans"] = [{ atom: "line", nus: [...nus] }];
      if (c.chars <= 100) plans.push({ atom: "char", nus: [...nus] });
      infos.push({ ...base, plans, ...(c.chars > 100 ? { note: "quick: lines only" } : {}) });
    } else if (c.source === "generated") {
      infos.push({
        ...base,
        plans: [{ atom: "line", nus: [...nus] }],
        note: "lines only: with subset tests, characters at high ν take minutes (millions of cache hits, see the cache section for its character-level run)",
      });
    } else if (inProcess) {
      infos.push({
        ...base,
        plans: [
          { atom: "line", nus: [...nus] },
          { atom: "char", nus: [...nus] },
        ],
      });
    } else if (c.chars <= 1000) {
      infos.push({
        ...base,
        plans: [
          { atom: "line", nus: [...nus] },
          { atom: "char", nus: [...GCC_CHAR_NUS] },
        ],
        note: `gcc runs in (nearly) every test: characters only at ν ∈ {${GCC_CHAR_NUS.map(nuText).join(", ")}}`,
      });
    } else {
      const lineNus = GCC_SWEEP.has(c.name) ? GCC_LINE_NUS : ([2] as const);
      infos.push({
        ...base,
        plans: [{ atom: "line", nus: [...lineNus] }],
        note: `gcc runs in every test: lines only (as the paper's Table 5), ν ∈ {${lineNus.map(nuText).join(", ")}}; characters (${c.chars} of them) would take hours`,
      });
    }
  }
  return infos;
}

/** Shared cases larger than this are left out of the split-factor study (see plan()). */
const MAX_FLAT_BYTES = 64 * 1024;

interface Job {
  c: BenchCase;
  atom: AtomKind;
  label: string;
  options: Parameters<typeof reduce>[2];
}

async function runJob(ctx: BenchContext, job: Job) {
  const oracle = ctx.oracleFor(job.c).oracle;
  const t0 = performance.now();
  const result = await reduce(job.c.input, oracle, { ...job.options, assumeInteresting: true });
  return { result, ms: performance.now() - t0 };
}

async function run(ctx: BenchContext): Promise<SfData> {
  const nus = [...(ctx.quick ? QUICK_NUS : FULL_NUS)];
  const infos = plan(ctx, nus);
  const byName = new Map<string, BenchCase>(
    [...ctx.shared.cases, jsonCase().benchCase].map((c) => [c.name, c]),
  );
  const common = { cache: "content" as const, ddStar: false, jobs: 1 };

  const jobs: (Job & { variant: Variant; nu: Nu })[] = [];
  for (const info of infos) {
    const c = byName.get(info.name)!;
    for (const { atom, nus: caseNus } of info.plans) {
      for (const variant of Object.keys(VARIANTS) as Variant[]) {
        for (const nu of caseNus) {
          jobs.push({
            c,
            atom,
            variant,
            nu,
            label: `${c.name} ${atom} ${variant} ν=${nuText(nu)}`,
            options: { ...common, ...VARIANTS[variant], atom, splitFactor: nuValue(nu) },
          });
        }
      }
    }
  }
  // The slow ones (gcc in every test; characters) first, so the two workers finish together.
  const cost = (j: (typeof jobs)[number]): number =>
    (ctx.oracleFor(j.c).mirror?.kind === "exact" ? 0 : 2) + (j.atom === "char" ? 1 : 0);
  jobs.sort((a, b) => cost(b) - cost(a));
  // Reductions are independent and each is sequential (jobs 1), so two at a time use both cores
  // while gcc runs; the counts do not depend on it.
  const concurrency = Math.max(1, cpus().length);
  let done = 0;
  const runs = await pool(jobs, concurrency, async (job): Promise<SfRun> => {
    const { result, ms: took } = await runJob(ctx, job);
    done++;
    if (done % 20 === 0 || took > 5000)
      progress(
        `split-factor: ${done}/${jobs.length} (${job.label}: ${result.stats.tests} tests, ${ms(took)})`,
      );
    return {
      case: job.c.name,
      atom: job.atom,
      variant: job.variant,
      nu: job.nu,
      tests: result.stats.tests,
      hits: result.stats.cacheHits,
      iterations: result.stats.iterations,
      size: atomCount(result.output, job.atom),
      bytes: result.output.length,
      output: Buffer.from(result.output).toString("utf8").slice(0, 200),
      ms: took,
    };
  });

  // ν = 2 side variants: complement order and DD*, for the default strategy (complements-only).
  const extraLabels = [
    "complements-only, forward",
    "complements-only, backward",
    "complements-only, backward, DD*",
    "subsets-first, forward, DD*",
    "complements-first, forward, DD*",
    "atom both (lines, then chars), complements-only, backward, DD*",
    "whittle's defaults with this atom, jobs 1",
    "whittle's defaults, no DD*",
    "whittle's defaults, complements backward",
    "whittle's defaults, atom both (lines, then chars)",
  ];
  const extraJobs: (Job & { info: string })[] = [];
  for (const info of infos) {
    const c = byName.get(info.name)!;
    for (const { atom } of info.plans) {
      const base = { ...common, atom, splitFactor: 2 };
      const options = [
        { ...base, strategy: "complements-only", complementOrder: "forward" },
        { ...base, strategy: "complements-only", complementOrder: "backward" },
        { ...base, strategy: "complements-only", complementOrder: "backward", ddStar: true },
        {
          ...base,
          strategy: "subsets-first",
          subsetOrder: "forward",
          complementOrder: "forward",
          ddStar: true,
        },
        {
          ...base,
          strategy: "complements-first",
          subsetOrder: "forward",
          complementOrder: "forward",
          ddStar: true,
        },
      ] as const;
      options.forEach((o, i) =>
        extraJobs.push({ c, atom, label: extraLabels[i]!, options: o, info: info.name }),
      );
      if (atom === "char") {
        // The default atom mode: lines first, then characters of the line result.
        const both = { ...options[2], atom: "both" as const };
        extraJobs.push({ c, atom, label: extraLabels[5]!, options: both, info: info.name });
      }
      // The defaults as they are when the benchmark runs (only jobs and the atom fixed), and the
      // defaults with one choice changed: the figures that justify each default.
      extraJobs.push({ c, atom, label: extraLabels[6]!, options: { atom, jobs: 1 }, info: info.name });
      extraJobs.push({
        c,
        atom,
        label: extraLabels[7]!,
        options: { atom, jobs: 1, ddStar: false },
        info: info.name,
      });
      extraJobs.push({
        c,
        atom,
        label: extraLabels[8]!,
        options: { atom, jobs: 1, complementOrder: "backward" },
        info: info.name,
      });
      if (atom === "char") {
        extraJobs.push({
          c,
          atom,
          label: extraLabels[9]!,
          options: { atom: "both", jobs: 1 },
          info: info.name,
        });
      }
    }
  }
  progress(`split-factor: ${extraJobs.length} runs of the ν = 2 order / DD* variants`);
  const extras = await pool(extraJobs, concurrency, async (job): Promise<SfExtra> => {
    const { result } = await runJob(ctx, job);
    return {
      case: job.c.name,
      atom: job.atom,
      label: job.label,
      tests: result.stats.tests,
      size: atomCount(result.output, job.atom),
    };
  });
  extras.sort((a, b) => a.case.localeCompare(b.case) || a.atom.localeCompare(b.atom));

  const summary: SfSummary[] = [];
  for (const atom of ["line", "char"] as const) {
    for (const variant of Object.keys(VARIANTS) as Variant[]) {
      // Only the cases run at every ν, so that the rows of one table compare the same cases.
      const full = new Set(
        infos
          .filter((i) => i.plans.some((p) => p.atom === atom && p.nus.length === nus.length))
          .map((i) => i.name),
      );
      const mine = runs.filter((r) => r.atom === atom && r.variant === variant && full.has(r.case));
      const base = new Map(mine.filter((r) => r.nu === 2).map((r) => [r.case, r]));
      for (const nu of nus) {
        const rows = mine.filter((r) => r.nu === nu && base.has(r.case));
        if (!rows.length) continue;
        const tr = rows.map((r) => Math.max(r.tests, 1) / Math.max(base.get(r.case)!.tests, 1));
        const sr = rows.map((r) => Math.max(r.size, 1) / Math.max(base.get(r.case)!.size, 1));
        summary.push({
          atom,
          variant,
          nu,
          cases: rows.length,
          testsRatio: geomean(tr),
          fewer: tr.filter((x) => x < 1).length,
          more: tr.filter((x) => x > 1).length,
          sizeRatio: geomean(sr),
          larger: sr.filter((x) => x > 1).length,
          smaller: sr.filter((x) => x < 1).length,
        });
      }
    }
  }
  const subsetsEffect = infos.flatMap((info) =>
    info.plans.map(({ atom }) => {
      const find = (variant: Variant): number =>
        runs.find((r) => r.case === info.name && r.atom === atom && r.variant === variant && r.nu === 2)
          ?.tests ?? Number.NaN;
      return {
        case: info.name,
        atom,
        withSubsets: find("with-subsets"),
        withoutSubsets: find("without-subsets"),
      };
    }),
  );

  progress("split-factor: checking the in-process mirrors against oracle.sh on sampled candidates");
  const mirrorChecks: MirrorCheck[] = [];
  const oracleCalls: SfData["oracleCalls"] = [];
  for (const info of infos) {
    const o = ctx.oracleFor(byName.get(info.name)!);
    oracleCalls.push({ case: info.name, shellCalls: o.shellCalls, memoHits: o.memo.hits });
    const check = await o.verify(ctx.quick ? 20 : 60, 2 * concurrency);
    if (check) mirrorChecks.push(check);
  }

  return {
    nus,
    settings:
      "content cache, no DD*, jobs 1, assumeInteresting; with subset tests = subsets-first, subsets and complements forward; without subset tests = complements-only, complements backward",
    cases: infos,
    runs,
    summary,
    subsetsEffect,
    extras,
    extraLabels,
    defaults: describeDefaults(),
    mirrorChecks,
    oracleCalls,
  };
}

/**
 * The paper's bug.c rows (Tables 2 and 3): [ν, with-subsets steps, size, without-subsets steps, size].
 * Character rows only up to ν = 5: the extracted text of the larger rows is garbled.
 */
const PAPER_BUG_C: Readonly<
  Record<AtomKind, readonly (readonly [number, number, number, number, number])[]>
> = {
  line: [
    [2, 122, 15, 74, 15],
    [3, 144, 18, 95, 18],
    [4, 99, 15, 55, 15],
    [5, 142, 18, 66, 18],
    [8, 120, 18, 78, 18],
    [13, 121, 18, 63, 18],
    [16, 129, 18, 66, 18],
    [21, 131, 18, 68, 18],
    [32, 139, 18, 64, 18],
  ],
  char: [
    [2, 3119, 318, 2591, 317],
    [3, 2284, 269, 1688, 269],
    [4, 2204, 362, 1700, 361],
    [5, 2438, 320, 1820, 321],
  ],
};

function bugCComparison(data: SfData): string {
  const rows: (string | number)[][] = [];
  for (const atom of ["line", "char"] as const) {
    for (const [nu, pw, ps, pn, pns] of PAPER_BUG_C[atom]) {
      const get = (v: Variant): SfRun | undefined =>
        data.runs.find((r) => r.case === "zeller-bug-c" && r.atom === atom && r.variant === v && r.nu === nu);
      const w = get("with-subsets");
      const n = get("without-subsets");
      if (!w || !n) continue;
      rows.push([
        atom,
        nu,
        `${pw} → ${ps}`,
        `${w.tests} → ${w.size}`,
        `${pn} → ${pns}`,
        `${n.tests} → ${n.size}`,
      ]);
    }
  }
  if (!rows.length) return "";
  return [
    "### zeller-bug-c next to the paper's bug.c (tests → size)",
    "",
    "For orientation only: the paper's bug.c has 37 lines / 740 characters and its oracle was a substring search; zeller-bug-c has 43 lines / 755 characters and its oracle needs gcc -fsyntax-only to pass as well, so results are smaller here.",
    "",
    table(
      [
        "atoms",
        "ν",
        "paper, with subsets",
        "whittle, with subsets",
        "paper, without subsets",
        "whittle, without subsets",
      ],
      rows,
    ),
  ].join("\n");
}

function render(data: SfData): string {
  const out: string[] = [];
  out.push(`Settings: ${data.settings}. ν ∈ {${data.nus.map(nuText).join(", ")}}.`, "");
  out.push("### Cases", "");
  out.push(
    table(
      ["case", "lines", "chars", "atoms", "oracle used", "note"],
      data.cases.map((c) => [
        c.name,
        c.lines,
        c.chars,
        c.plans.map((p) => p.atom).join(", "),
        c.oracle,
        c.note ?? "",
      ]),
    ),
  );
  out.push(
    "Answers are memoized by content across all runs (an oracle is a function of the candidate), which saves time but changes no count: whittle counts its own tests.",
    "",
  );

  out.push(
    "### Summary over the cases run at every ν (geometric mean of the ratio to ν = 2)",
    "",
    "The gcc cases run at fewer ν appear in the per-case tables below, not here.",
    "",
  );
  out.push(
    table(
      [
        "atoms",
        "variant",
        "ν",
        "cases",
        "tests vs ν=2",
        "fewer / more tests",
        "size vs ν=2",
        "smaller / larger",
      ],
      data.summary.map((s) => [
        s.atom,
        s.variant,
        nuText(s.nu),
        s.cases,
        percent(s.testsRatio, 0),
        `${s.fewer} / ${s.more}`,
        percent(s.sizeRatio, 0),
        `${s.smaller} / ${s.larger}`,
      ]),
    ),
  );

  out.push("### Subset tests at ν = 2: tests without / with", "");
  out.push(
    table(
      ["case", "atoms", "with subset tests", "without subset tests", "without / with"],
      data.subsetsEffect.map((e) => [
        e.case,
        e.atom,
        e.withSubsets,
        e.withoutSubsets,
        percent(e.withoutSubsets / e.withSubsets, 0),
      ]),
    ),
  );

  for (const atom of ["line", "char"] as const) {
    const cases = data.cases.filter((c) => c.plans.some((p) => p.atom === atom));
    if (!cases.length) continue;
    out.push(
      `### ${atom === "line" ? "Line" : "Character"}-based reduction (as Tables ${atom === "line" ? "2 and 5" : "3"}): tests (% of ν = 2) and result size in ${atom}s (%)`,
      "",
    );
    const rows: (string | number)[][] = [];
    for (const c of cases) {
      for (const nu of c.plans.find((p) => p.atom === atom)!.nus) {
        const cell = (variant: Variant): [string, string] => {
          const r = data.runs.find(
            (x) => x.case === c.name && x.atom === atom && x.variant === variant && x.nu === nu,
          );
          const b = data.runs.find(
            (x) => x.case === c.name && x.atom === atom && x.variant === variant && x.nu === 2,
          );
          if (!r || !b) return ["–", "–"];
          return [
            `${r.tests} (${percent(r.tests / Math.max(b.tests, 1), 0)})`,
            `${r.size} (${percent(Math.max(r.size, 1) / Math.max(b.size, 1), 0)})`,
          ];
        };
        rows.push([nu === 2 ? c.name : "", nuText(nu), ...cell("with-subsets"), ...cell("without-subsets")]);
      }
    }
    out.push(table(["case", "ν", "with subsets: tests", "size", "without subsets: tests", "size"], rows));
  }

  const bugC = bugCComparison(data);
  if (bugC) out.push(bugC);
  out.push("### Results at ν = 2", "");
  out.push(
    table(
      ["case", "atoms", "with subset tests", "without subset tests"],
      data.cases.flatMap((c) =>
        c.plans.map(({ atom }) => {
          const get = (v: Variant): string => {
            const r = data.runs.find(
              (x) => x.case === c.name && x.atom === atom && x.variant === v && x.nu === 2,
            );
            return r ? snippet(Buffer.from(r.output), 50) : "–";
          };
          return [c.name, atom, get("with-subsets"), get("without-subsets")];
        }),
      ),
    ),
  );

  out.push("### ν = 2: strategy, complement order, DD* and atom mode (tests → size in atoms)", "");
  const keys = [...new Set(data.extras.map((e) => `${e.case}\u0000${e.atom}`))];
  const extraRows = keys.map((k) => {
    const [name, atom] = k.split("\u0000") as [string, AtomKind];
    return [
      name,
      atom,
      ...data.extraLabels.map((label) => {
        const e = data.extras.find((x) => x.case === name && x.atom === atom && x.label === label);
        return e ? `${e.tests} → ${e.size}` : "–";
      }),
    ];
  });
  out.push(table(["case", "atoms", ...data.extraLabels], extraRows));
  const totals = data.extraLabels.map((label) => {
    const es = data.extras.filter((e) => e.label === label);
    return { label, tests: es.reduce((s, e) => s + e.tests, 0), size: es.reduce((s, e) => s + e.size, 0) };
  });
  const [fwd, bwd, star, first, compFirst, both, defaults, noStar, backward, defaultsBoth] = data.extraLabels;
  // Geometric mean of f(a) / f(b) over the (case, atoms) rows that have both.
  const ratio = (a: string | undefined, b: string | undefined, f: (e: SfExtra) => number): string => {
    const xs: number[] = [];
    for (const e of data.extras.filter((x) => x.label === a)) {
      const o = data.extras.find((x) => x.label === b && x.case === e.case && x.atom === e.atom);
      if (o) xs.push(Math.max(f(e), 1) / Math.max(f(o), 1));
    }
    return `${fixed(geomean(xs))} (${xs.length} rows)`;
  };
  const tests = (e: SfExtra): number => e.tests;
  const size = (e: SfExtra): number => e.size;
  out.push(
    `Totals over all rows: ${totals.map((t) => `${t.label}: ${t.tests} tests, ${t.size} atoms`).join("; ")}.`,
    "",
    "Geometric means of the ratios:",
    "",
    `- backward / forward complement order (complements-only, no DD*): tests ${ratio(bwd, fwd, tests)}, size ${ratio(bwd, fwd, size)}`,
    `- DD* / no DD* (complements-only backward): tests ${ratio(star, bwd, tests)}, size ${ratio(star, bwd, size)}`,
    `- complements-only backward / subsets-first forward, both with DD*: tests ${ratio(star, first, tests)}, size ${ratio(star, first, size)}`,
    `- complements-only backward / complements-first forward, both with DD*: tests ${ratio(star, compFirst, tests)}, size ${ratio(star, compFirst, size)}`,
    `- complements-first / subsets-first, both forward with DD*: tests ${ratio(compFirst, first, tests)}, size ${ratio(compFirst, first, size)}`,
    `- atom both / atom char (complements-only backward, DD*; sizes in characters): tests ${ratio(both, star, tests)}, size ${ratio(both, star, size)}`,
    `- whittle's defaults (${data.defaults}) / subsets-first forward with DD*: tests ${ratio(defaults, first, tests)}, size ${ratio(defaults, first, size)}`,
    "",
    "At whittle's defaults, one choice changed at a time:",
    "",
    `- DD* / no DD*: tests ${ratio(defaults, noStar, tests)}, size ${ratio(defaults, noStar, size)}`,
    `- complements backward / forward: tests ${ratio(backward, defaults, tests)}, size ${ratio(backward, defaults, size)}`,
    `- atom both / atom char (sizes in characters): tests ${ratio(defaultsBoth, defaults, tests)}, size ${ratio(defaultsBoth, defaults, size)}`,
    "",
  );

  if (data.mirrorChecks.length) {
    out.push("### In-process mirrors checked against oracle.sh", "");
    out.push(
      table(
        ["case", "kind", "what", "sampled candidates", "agreed", "disagreements"],
        data.mirrorChecks.map((m) => [
          m.case,
          m.kind,
          m.what,
          m.checked,
          m.agreed,
          m.disagreements.slice(0, 3).join("; ") || "none",
        ]),
      ),
    );
  }
  out.push(
    `Executions of oracle.sh during the reductions (after memo and mirrors; the mirror checks add their own): ${data.oracleCalls
      .filter((o) => o.shellCalls > 0)
      .map((o) => `${o.case} ${o.shellCalls}`)
      .join(", ")}.`,
    "",
  );
  return out.join("\n");
}

export const splitFactorSection: Section<SfData> = {
  id: "split",
  title: "2. Split factor ν (split-factor paper, Tables 2, 3, 5)",
  run,
  render: (data) => render(data),
};
