/**
 * Section `algorithms`: ddmin against ProbDD (probabilistic delta debugging, Wang et al. 2021) as
 * the algorithm that reduces each list of units (`--algorithm`), everything else at the defaults:
 *
 * - flat: ddmin over lines, then characters (`--atom both`), on every shared case with an exact
 *   in-process mirror of its oracle, and on zeller-bug-c (precheck, then gcc);
 * - tree: the default grammar pipeline's phases (hoisting, HDDH*, the polish) with the shared JSON
 *   and C grammars, on the JSON cases and zeller-bug-c.
 *
 * jobs 1 (ProbDD runs its tests one at a time; ddmin at jobs 1 is the sequential algorithm), so test
 * counts are deterministic and measured once. Sizes in non-whitespace characters (the papers' metric).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { AntlrFrontEnd } from "../../src/grammar/front-end.js";
import { buildPipeline, DEFAULT_TREE_PHASES } from "../../src/cli/pipeline.js";
import type { Algorithm } from "../../src/ddmin/minimize.js";
import { reduce } from "../../src/reduce/reduce.js";
import { nonWhitespaceChars } from "../lib/anchors.js";
import type { BenchCase } from "../lib/cases.js";
import type { BenchContext, Section } from "../lib/context.js";
import { fixed, ms, table } from "../lib/format.js";
import { progress } from "../lib/log.js";
import { geomean } from "../lib/stats.js";
import { describeDefaults } from "../lib/defaults.js";

const ALGORITHMS: readonly Algorithm[] = ["ddmin", "probdd"];

/** The grammar of a case, by the extension of its input: the shared JSON and C grammars. */
const GRAMMARS: Readonly<Record<string, { files: string[]; start: string }>> = {
  json: { files: ["json/JSON.g4"], start: "json" },
  c: { files: ["c/C.g4"], start: "compilationUnit" },
};

export interface AlgorithmRun {
  case: string;
  mode: "flat" | "tree";
  algorithm: Algorithm;
  tests: number;
  nonWsChars: number;
  bytes: number;
  wallMs: number;
  output: string;
}

export interface AlgorithmsData {
  settings: string;
  runs: AlgorithmRun[];
  skipped: string[];
}

function extensionOf(c: BenchCase): string {
  return c.inputName.slice(c.inputName.lastIndexOf(".") + 1);
}

async function run(ctx: BenchContext): Promise<AlgorithmsData> {
  const runs: AlgorithmRun[] = [];
  const skipped: string[] = [];
  const grammarsDir = join(ctx.sharedDir, "grammars");
  const frontEnds = new Map<string, AntlrFrontEnd>();
  const frontEndFor = async (ext: string): Promise<AntlrFrontEnd | undefined> => {
    const g = GRAMMARS[ext];
    if (g === undefined) return undefined;
    const files = g.files.map((f) => join(grammarsDir, f));
    if (!files.every((f) => existsSync(f))) return undefined;
    let fe = frontEnds.get(ext);
    if (!fe) {
      fe = await AntlrFrontEnd.load({ grammarFiles: files, start: g.start });
      frontEnds.set(ext, fe);
    }
    return fe;
  };

  for (const c of ctx.shared.cases) {
    const oracle = ctx.oracleFor(c);
    const mirrored = oracle.mirror?.kind === "exact";
    const zeller = c.name === "zeller-bug-c";
    if (!mirrored && !zeller) {
      skipped.push(`${c.name}: no exact mirror of its oracle (each test would run oracle.sh)`);
      continue;
    }
    if (ctx.quick && !c.name.startsWith("json") && !c.name.startsWith("mock")) continue;
    const ext = extensionOf(c);
    const frontEnd = ext in GRAMMARS ? await frontEndFor(ext) : undefined;
    for (const mode of ["flat", "tree"] as const) {
      if (mode === "tree" && frontEnd === undefined) continue;
      for (const algorithm of ALGORITHMS) {
        const started = performance.now();
        const result = await reduce(c.input, oracle.oracle, {
          algorithm,
          jobs: 1,
          assumeInteresting: true,
          ...(mode === "tree" ? { pipeline: buildPipeline([], "both", frontEnd) } : {}),
        });
        const wallMs = performance.now() - started;
        const r: AlgorithmRun = {
          case: c.name,
          mode,
          algorithm,
          tests: result.stats.tests,
          nonWsChars: nonWhitespaceChars(result.output),
          bytes: result.output.length,
          wallMs,
          output: Buffer.from(result.output).toString("utf8").slice(0, 200),
        };
        runs.push(r);
        progress(
          `algorithms: ${c.name} ${mode} ${algorithm}: ${r.nonWsChars} non-ws chars, ${r.tests} tests`,
        );
      }
    }
  }
  return { settings: `${describeDefaults()}, jobs 1`, runs, skipped };
}

function render(data: AlgorithmsData): string {
  const out: string[] = [];
  out.push(
    `Each list of units (a pass's atoms, the tokens, one tree level) reduced by ddmin or by ProbDD, jobs 1, other options at the defaults (${data.settings}). Sizes in non-whitespace characters; tests exclude the initial check.`,
    "",
  );
  for (const mode of ["flat", "tree"] as const) {
    const rows: string[][] = [];
    const ratiosTests: number[] = [];
    const ratiosSize: number[] = [];
    const cases = [...new Set(data.runs.filter((r) => r.mode === mode).map((r) => r.case))];
    for (const name of cases) {
      const d = data.runs.find((r) => r.case === name && r.mode === mode && r.algorithm === "ddmin");
      const p = data.runs.find((r) => r.case === name && r.mode === mode && r.algorithm === "probdd");
      if (!d || !p) continue;
      if (d.tests > 0 && p.tests > 0) ratiosTests.push(p.tests / d.tests);
      if (d.nonWsChars > 0 && p.nonWsChars > 0) ratiosSize.push(p.nonWsChars / d.nonWsChars);
      rows.push([
        name,
        String(d.nonWsChars),
        String(d.tests),
        String(p.nonWsChars),
        String(p.tests),
        fixed(p.tests / Math.max(1, d.tests), 2),
        ms(d.wallMs),
        ms(p.wallMs),
      ]);
    }
    if (rows.length === 0) continue;
    out.push(
      `### ${mode === "flat" ? "Lines, then characters (--atom both)" : `Default grammar pipeline's phases (${DEFAULT_TREE_PHASES.join(", ")})`}`,
      "",
      table(
        [
          "case",
          "ddmin size",
          "ddmin tests",
          "ProbDD size",
          "ProbDD tests",
          "tests ratio",
          "ddmin wall",
          "ProbDD wall",
        ],
        rows,
      ),
      "",
      `Geometric means, ProbDD / ddmin: tests ${fixed(geomean(ratiosTests), 2)}, size ${fixed(geomean(ratiosSize), 2)} (${rows.length} cases; wall times include the in-process oracle and are not comparable across cases).`,
      "",
    );
  }
  if (data.skipped.length > 0) out.push("Not run: " + data.skipped.join("; ") + ".", "");
  return out.join("\n");
}

export const algorithmsSection: Section<AlgorithmsData> = {
  id: "algorithms",
  title: "ddmin or ProbDD for each list of units",
  run,
  render,
};
