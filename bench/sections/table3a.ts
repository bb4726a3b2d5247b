/**
 * Section 1: Table 3(a) (and the sizes of Table 2) of Hodován & Kiss, "Practical improvements to the
 * minimizing Delta Debugging algorithm": the mock examples A–D under the three reduce-step strategies,
 * sequential, ν = 2, forward order, content cache, no DD*.
 */
import { reduce } from "../../src/reduce/reduce.js";
import { STRATEGIES, type Strategy } from "../../src/ddmin/order.js";
import type { Oracle } from "../../src/reduce/evaluator.js";
import { MOCKS, mockInput, mockOracle, TABLE3A_SETTING } from "../../test/helpers/mock.js";
import type { BenchContext, Section } from "../lib/context.js";
import { table } from "../lib/format.js";
import { progress } from "../lib/log.js";
import { CaseOracle } from "../lib/oracles.js";

export interface Counts {
  tests: number;
  hits: number;
  iterations: number;
  size: number;
}

export interface Table3aRow {
  example: string;
  strategy: Strategy;
  paper: Counts;
  whittle: Counts;
  match: boolean;
  /** The same run with the shared case's oracle.sh instead of the in-process mock oracle. */
  sharedOracle?: Counts & { match: boolean };
}

export interface Table3aData {
  settings: string;
  rows: Table3aRow[];
  allMatch: boolean;
  sharedNote?: string;
}

const lineCount = (b: Uint8Array): number => Buffer.from(b).toString().split("\n").filter(Boolean).length;

async function counts(input: Uint8Array, oracle: Oracle, strategy: Strategy): Promise<Counts> {
  const result = await reduce(input, oracle, { ...TABLE3A_SETTING, strategy });
  const s = result.stats;
  return { tests: s.tests, hits: s.cacheHits, iterations: s.iterations, size: lineCount(result.output) };
}

const same = (a: Counts, b: Counts): boolean =>
  a.tests === b.tests && a.hits === b.hits && a.iterations === b.iterations && a.size === b.size;

async function run(ctx: BenchContext): Promise<Table3aData> {
  const rows: Table3aRow[] = [];
  let sharedNote: string | undefined;
  for (const mock of MOCKS) {
    const shared = ctx.sharedCase(`mock-${mock.name.toLowerCase()}`);
    if (!shared) sharedNote = "shared mock cases not found: the oracle.sh column is empty";
    for (const strategy of STRATEGIES) {
      const p = mock.table3a[strategy];
      const paper: Counts = { tests: p.tests, hits: p.hits, iterations: p.iterations, size: mock.size };
      const whittle = await counts(mockInput(mock), mockOracle(mock), strategy);
      const row: Table3aRow = { example: mock.name, strategy, paper, whittle, match: same(paper, whittle) };
      if (shared) {
        // The real oracle.sh (through the command oracle), memoized: counts must not change.
        const viaShell = await counts(shared.input, sharedShell(ctx, shared.name)!, strategy);
        row.sharedOracle = { ...viaShell, match: same(paper, viaShell) };
      }
      rows.push(row);
      progress(
        `table3a: example ${mock.name} ${strategy}: ${whittle.tests} (+${whittle.hits}) [${whittle.iterations}] ${row.match ? "match" : "MISMATCH"}`,
      );
    }
  }
  return {
    settings:
      "atom line, ν = 2, subsets and complements forward, content cache, no DD*, jobs 1, assumeInteresting",
    rows,
    allMatch: rows.every((r) => r.match && (r.sharedOracle?.match ?? true)),
    ...(sharedNote ? { sharedNote } : {}),
  };
}

/** The mocks' oracle.sh without in-process mirrors: this column exists to exercise the real scripts. */
const shells = new Map<string, Oracle>();
function sharedShell(ctx: BenchContext, name: string): Oracle | undefined {
  const c = ctx.sharedCase(name);
  if (!c) return undefined;
  let o = shells.get(name);
  if (!o) {
    o = new CaseOracle(c, false).oracle;
    shells.set(name, o);
  }
  return o;
}

function render(data: Table3aData): string {
  const fmt = (c: Counts): string => `${c.tests} (+${c.hits}) [${c.iterations}] → ${c.size}`;
  const rows = data.rows.map((r) => [
    r.example,
    r.strategy,
    fmt(r.paper),
    fmt(r.whittle),
    r.match ? "match" : "**MISMATCH**",
    r.sharedOracle ? `${fmt(r.sharedOracle)} ${r.sharedOracle.match ? "match" : "**MISMATCH**"}` : "–",
  ]);
  return [
    `Settings: ${data.settings}. Cells: tests (+cache hits) [iterations] → size of the result in lines (Table 2).`,
    "The last column runs the same reduction with the shared case's real `oracle.sh` (through the command oracle) instead of the in-process mock.",
    "",
    table(["example", "strategy", "paper", "whittle (in-process)", "match", "whittle with oracle.sh"], rows),
    `**All figures match the paper: ${data.allMatch ? "yes" : "NO"}.**` +
      (data.sharedNote ? ` (${data.sharedNote})` : ""),
    "",
  ].join("\n");
}

export const table3aSection: Section<Table3aData> = {
  id: "table3a",
  title: "1. Table 3(a): mock examples A–D × strategies",
  run,
  render: (data) => render(data),
};
