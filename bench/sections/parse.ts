/**
 * Section `parse`: the ANTLR front-end (issue 8). Per shared grammar: load time in a fresh process,
 * cold (antlr-ng processes the .g4 files) and from the grammar cache; then per shared input with a
 * grammar, parse time, tokens, syntax errors and the process's peak RSS (each parse in its own child
 * with the cached grammar, so the figures are that parse's), and a generated 600 KB C file (full mode;
 * quick: 100 KB). Parses are not repeated: the JavaScript ones take tens of seconds.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import type { BenchContext, Section } from "../lib/context.js";
import { bytes, ms, spreadText, table } from "../lib/format.js";
import { progress } from "../lib/log.js";
import { spread, type Spread } from "../lib/stats.js";
import type { ParseChildResult } from "./parse-child.js";

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
  for (const g of GRAMMARS) {
    const files = g.files.map((f) => join(grammarsDir, f));
    const start = g.start ?? "-";
    const coldRuns: number[] = [];
    const cachedRuns: number[] = [];
    for (let rep = 0; rep < ctx.reps; rep++) {
      const cold = await child(ctx, ["-", start, "-", ...files]);
      coldRuns.push(cold.loadMs);
      // The first cached run fills the cache; it is timed as a cold load would be, so skip its time.
      if (rep === 0) await child(ctx, [cacheDir, start, "-", ...files]);
      const cached = await child(ctx, [cacheDir, start, "-", ...files]);
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
      if (!c) continue;
      const input = join(ctx.sharedDir, "bench", "cases", name, c.inputName);
      const r = await child(ctx, [cacheDir, start, input, ...files]);
      inputs.push({
        grammar: g.id,
        case: name,
        inputBytes: c.input.length,
        tokens: r.tokens ?? 0,
        syntaxErrors: r.syntaxErrors ?? 0,
        parseMs: r.parseMs ?? 0,
        rssAfterLoadBytes: r.rssAfterLoadBytes,
        maxRssBytes: r.maxRssBytes,
      });
      progress(`parse: ${name} ${ms(r.parseMs ?? 0)}, peak RSS ${bytes(r.maxRssBytes)}`);
    }
  }
  const size = ctx.quick ? 100_000 : 600_000;
  const file = join(ctx.tmpDir, "generated.c");
  const generated = generatedC(size);
  writeFileSync(file, generated);
  const c = GRAMMARS.find((g) => g.id === "c")!;
  const r = await child(ctx, [cacheDir, c.start ?? "-", file, ...c.files.map((f) => join(grammarsDir, f))]);
  inputs.push({
    grammar: "c",
    case: `generated ${size / 1000} KB`,
    inputBytes: Buffer.byteLength(generated),
    tokens: r.tokens ?? 0,
    syntaxErrors: r.syntaxErrors ?? 0,
    parseMs: r.parseMs ?? 0,
    rssAfterLoadBytes: r.rssAfterLoadBytes,
    maxRssBytes: r.maxRssBytes,
  });
  progress(`parse: generated C ${bytes(size)} ${ms(r.parseMs ?? 0)}, peak RSS ${bytes(r.maxRssBytes)}`);
  return { loads, inputs, note: null };
}

function render(data: ParseData): string {
  if (data.note) return `Skipped: ${data.note}.\n`;
  const loadTable = table(
    ["grammar", "load, cold (antlr-ng), ms", "load, from the grammar cache, ms"],
    data.loads.map((r) => [r.grammar, spreadText(r.coldMs, 0), spreadText(r.cachedMs, 0)]),
  );
  const inputTable = table(
    ["grammar", "case", "input", "tokens", "syntax errors", "parse", "RSS after load", "peak RSS"],
    data.inputs.map((r) => [
      r.grammar,
      r.case,
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
    "Parse of each shared input with its grammar (one run each, in its own process, grammar from the cache; error recovery on):",
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
