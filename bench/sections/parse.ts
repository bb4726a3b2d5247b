/**
 * Section `parse`: the ANTLR front-end (issue 8). Per shared grammar: load time in a fresh process,
 * cold (antlr-ng processes the .g4 files) and from the grammar cache; then per shared input with a
 * grammar, parse time, tokens, syntax errors and the process's peak RSS (each parse in its own child
 * with the cached grammar, so the figures are that parse's), a generated 600 KB C file (full mode;
 * quick: 100 KB) and, when csmith is installed (full mode), the memory section's csmith program.
 * Each input is parsed three ways (parse-child.ts's variants): as whittle does, without the bound on
 * the lookahead DFAs, and as whittle did with antlr4ng's own DFA (look-up by hash alone). Parses are
 * not repeated: the JavaScript ones take tens of seconds.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import type { BenchContext, Section } from "../lib/context.js";
import { bytes, ms, spreadText, table } from "../lib/format.js";
import { progress } from "../lib/log.js";
import { spread, type Spread } from "../lib/stats.js";
import { MAX_DFA_CONFIGURATIONS } from "../../src/grammar/antlr/interpreters.js";
import { LARGE_PARSE_BYTES, PARSE_HEAP_GROWING_PERCENT } from "../../src/tree/reclaim.js";
import { csmithC } from "./memory.js";
import type { ParseChildResult } from "./parse-child.js";
import { PARSE_VARIANTS, type ParseVariant } from "./parse-variants.js";

const run$ = promisify(execFile);

interface GrammarSpec {
  readonly id: string;
  readonly files: readonly string[];
  readonly start: string | null;
  /** Shared cases (folder names) whose input this grammar parses. */
  readonly cases: readonly string[];
}

const GRAMMARS: readonly GrammarSpec[] = [
  { id: "json", files: ["json/JSON.g4"], start: null, cases: ["json-obj-arr-87"] },
  {
    id: "c",
    files: ["c/C.g4"],
    start: "compilationUnit",
    cases: ["creduce-file2-c", "cvise-blocksort-c", "hello-world-big-c", "zeller-bug-c"],
  },
  {
    id: "javascript",
    files: ["javascript/JavaScriptLexer.g4", "javascript/JavaScriptParser.g4"],
    start: null,
    cases: ["js-esquery-syntax-error", "js-yaml-flow-error"],
  },
];

export interface ParseLoadRow {
  grammar: string;
  coldMs: Spread;
  cachedMs: Spread;
  coldRuns: number[];
  cachedRuns: number[];
}

export interface ParseInputRow {
  grammar: string;
  case: string;
  variant: ParseVariant;
  inputBytes: number;
  tokens: number;
  syntaxErrors: number;
  parseMs: number;
  rssAfterLoadBytes: number;
  maxRssBytes: number;
}

export interface ParseData {
  loads: ParseLoadRow[];
  inputs: ParseInputRow[];
  note: string | null;
}

/**
 * A C file of about `size` bytes: functions with declarations, loops, a switch, calls and sizeof, each
 * different by its numbers (generated here rather than by csmith, so nothing needs installing).
 */
export function generatedC(size: number): string {
  let src = "";
  for (let i = 0; src.length < size; i++) {
    src +=
      `static int f${i}(int a, int *p, struct s${i % 7} *q) {\n` +
      `  int x = a * ${i} + (p[${i % 5}] >> 2);\n` +
      `  for (int k = 0; k < a; k++) { x += q->v[k] ? k : -k; if (x > ${i}) break; }\n` +
      `  while (x-- > 0) { p[x % 4] ^= x; }\n` +
      `  switch (a) { case 1: return x; default: x = f${Math.max(0, i - 1)}(x, p, 0); }\n` +
      `  return x + sizeof(struct s${i % 7});\n}\n`;
  }
  return src;
}

async function child(ctx: BenchContext, args: readonly string[]): Promise<ParseChildResult> {
  const script = join(ctx.repoRoot, "dist", "bench", "sections", "parse-child.js");
  const { stdout } = await run$(process.execPath, [script, ...args], {
    maxBuffer: 1 << 20,
    timeout: 900_000,
  });
  return JSON.parse(stdout.trim().split("\n").pop()!) as ParseChildResult;
}

async function run(ctx: BenchContext): Promise<ParseData> {
  const grammarsDir = join(ctx.sharedDir, "grammars");
  if (!existsSync(grammarsDir)) return { loads: [], inputs: [], note: `${grammarsDir} not found` };
  const cacheDir = join(ctx.tmpDir, "grammar-cache");
  mkdirSync(cacheDir, { recursive: true });
  const loads: ParseLoadRow[] = [];
  const inputs: ParseInputRow[] = [];
  const todo: { grammar: GrammarSpec; name: string; input: string }[] = [];
  for (const g of GRAMMARS) {
    const files = g.files.map((f) => join(grammarsDir, f));
    const start = g.start ?? "-";
    const coldRuns: number[] = [];
    const cachedRuns: number[] = [];
    for (let rep = 0; rep < ctx.reps; rep++) {
      const cold = await child(ctx, ["default", "-", start, "-", ...files]);
      coldRuns.push(cold.loadMs);
      // The first cached run fills the cache; it is timed as a cold load would be, so skip its time.
      if (rep === 0) await child(ctx, ["default", cacheDir, start, "-", ...files]);
      const cached = await child(ctx, ["default", cacheDir, start, "-", ...files]);
      if (cached.source !== "cache") throw new Error(`grammar ${g.id} was not read from the cache`);
      cachedRuns.push(cached.loadMs);
    }
    loads.push({
      grammar: g.id,
      coldMs: spread(coldRuns),
      cachedMs: spread(cachedRuns),
      coldRuns,
      cachedRuns,
    });
    progress(
      `parse: ${g.id} load cold ${ms(spread(coldRuns).median)}, cached ${ms(spread(cachedRuns).median)}`,
    );
    for (const name of g.cases) {
      const c = ctx.sharedCase(name);
      if (c) todo.push({ grammar: g, name, input: join(ctx.sharedDir, "bench", "cases", name, c.inputName) });
    }
  }
  const size = ctx.quick ? 100_000 : 600_000;
  const generated = join(ctx.tmpDir, "generated.c");
  writeFileSync(generated, generatedC(size));
  const c = GRAMMARS.find((g) => g.id === "c")!;
  todo.push({ grammar: c, name: `generated ${size / 1000} KB`, input: generated });
  const csmith = ctx.quick ? undefined : csmithC(join(ctx.tmpDir, "parse-csmith"), "whittle_marker", "parse");
  if (csmith) todo.push({ grammar: c, name: "csmith (memory section's)", input: csmith.input });
  for (const t of todo) {
    const files = t.grammar.files.map((f) => join(grammarsDir, f));
    for (const variant of PARSE_VARIANTS) {
      const r = await child(ctx, [variant, cacheDir, t.grammar.start ?? "-", t.input, ...files]);
      inputs.push({
        grammar: t.grammar.id,
        case: t.name,
        variant,
        inputBytes: statSync(t.input).size,
        tokens: r.tokens ?? 0,
        syntaxErrors: r.syntaxErrors ?? 0,
        parseMs: r.parseMs ?? 0,
        rssAfterLoadBytes: r.rssAfterLoadBytes,
        maxRssBytes: r.maxRssBytes,
      });
      progress(`parse: ${t.name} (${variant}) ${ms(r.parseMs ?? 0)}, peak RSS ${bytes(r.maxRssBytes)}`);
    }
  }
  return { loads, inputs, note: null };
}

const VARIANT_NAMES: Record<ParseVariant, string> = {
  default: "exact, bounded",
  unbounded: "exact, unbounded",
  antlr4ng: "antlr4ng",
};

function render(data: ParseData): string {
  if (data.note) return `Skipped: ${data.note}.\n`;
  const loadTable = table(
    ["grammar", "load, cold (antlr-ng), ms", "load, from the grammar cache, ms"],
    data.loads.map((r) => [r.grammar, spreadText(r.coldMs, 0), spreadText(r.cachedMs, 0)]),
  );
  const inputTable = table(
    ["grammar", "case", "DFA", "input", "tokens", "syntax errors", "parse", "RSS after load", "peak RSS"],
    data.inputs.map((r) => [
      r.grammar,
      r.case,
      VARIANT_NAMES[r.variant],
      bytes(r.inputBytes),
      r.tokens,
      r.syntaxErrors,
      ms(r.parseMs),
      bytes(r.rssAfterLoadBytes),
      bytes(r.maxRssBytes),
    ]),
  );
  return [
    "Grammar load in a fresh Node process (import of the front-end included), median (min–max):",
    "",
    loadTable,
    `Parse of each input with its grammar (one run each, in its own process, grammar from the cache; error recovery on). DFA: *exact, bounded* is how whittle parses (DFA states found by their configurations, each decision's DFA started afresh past ${MAX_DFA_CONFIGURATIONS.toLocaleString("en-US")} configurations, V8's heap growth held to ${PARSE_HEAP_GROWING_PERCENT} % during a parse of ${LARGE_PARSE_BYTES / 1024} KiB or more); *exact, unbounded* the same without the bound; *antlr4ng* how whittle parsed before (antlr4ng's DFA, which finds states by a 32-bit hash alone, unbounded, V8's own heap growth). A DFA is a cache: the three parse the same unless antlr4ng's look-up returns the state of another configuration set, which shows as syntax errors in valid input.`,
    "",
    inputTable,
  ].join("\n");
}

export const parseSection: Section<ParseData> = {
  id: "parse",
  title: "ANTLR front-end: grammar load and parse",
  run,
  render,
};
