/**
 * Child process of the parse section: loads an ANTLR grammar (from the grammar cache when `cacheDir`
 * holds it, else with the antlr-ng tool) and optionally parses one input, then prints one JSON line
 * of figures. Run alone so that the load is cold (nothing imported yet) and maxRSS is this parse's.
 *
 *   node dist/bench/sections/parse-child.js <variant> <cacheDir|-> <start|-> <input|-> <grammar.g4>...
 *
 * The variant is how ANTLR's lookahead DFAs and V8's heap are run (src/grammar/antlr/dfa.ts,
 * src/tree/reclaim.ts): `default`, as whittle parses (exact DFA look-up, the default bound on each
 * decision's DFA, the heap's growth held during a large parse); `unbounded`, the same without the
 * bound; `antlr4ng`, as whittle parsed before (antlr4ng's own DFA look-up by hash alone, no bound,
 * V8's own heap growth).
 */
import { readFileSync } from "node:fs";
import { DFA } from "antlr4ng";
import { ExactDFA } from "../../src/grammar/antlr/dfa.js";
import { loadAntlrGrammar } from "../../src/grammar/antlr/index.js";
import { parseWithTightHeap } from "../../src/tree/reclaim.js";
import { PARSE_VARIANTS, type ParseVariant } from "./parse-variants.js";

/** Gives ExactDFA antlr4ng's own look-up back (the DFA class's methods over its hash-keyed map). */
function useAntlr4ngDfaLookup(): void {
  const base = DFA.prototype as unknown as Record<string, unknown>;
  const exact = ExactDFA.prototype as unknown as Record<string, unknown>;
  for (const method of ["getState", "getStateForConfigs", "addState", "getStates"]) {
    exact[method] = base[method];
  }
  Object.defineProperty(
    ExactDFA.prototype,
    "length",
    Object.getOwnPropertyDescriptor(DFA.prototype, "length")!,
  );
}

export interface ParseChildResult {
  source: "cache" | "tool";
  /** Importing whittle's front-end plus loadAntlrGrammar(). */
  loadMs: number;
  parseMs: number | null;
  tokens: number | null;
  syntaxErrors: number | null;
  /** RSS after the grammar was loaded. */
  rssAfterLoadBytes: number;
  /** Peak RSS of the process (getrusage), in bytes. */
  maxRssBytes: number;
}

async function main(): Promise<void> {
  const [variantArg, cacheDir, start, input, ...grammarFiles] = process.argv.slice(2);
  const variant = variantArg as ParseVariant;
  if (!PARSE_VARIANTS.includes(variant)) throw new Error(`unknown parse variant ${variantArg}`);
  if (variant === "antlr4ng") useAntlr4ngDfaLookup();
  const t0 = performance.now();
  const grammar = await loadAntlrGrammar({
    grammarFiles,
    cacheDir: !cacheDir || cacheDir === "-" ? false : cacheDir,
    ...(start && start !== "-" ? { start } : {}),
    ...(variant === "default" ? {} : { maxDfaConfigurations: Infinity }),
  });
  const loadMs = performance.now() - t0;
  const rssAfterLoadBytes = process.memoryUsage.rss();
  let parseMs: number | null = null;
  let tokens: number | null = null;
  let syntaxErrors: number | null = null;
  if (input && input !== "-") {
    const bytes = readFileSync(input);
    const t1 = performance.now();
    const parse = (): ReturnType<typeof grammar.parse> => grammar.parse(bytes, { allowSyntaxErrors: true });
    const result = variant === "antlr4ng" ? parse() : parseWithTightHeap(bytes.length, parse);
    parseMs = performance.now() - t1;
    syntaxErrors = result.syntaxErrors;
    let count = 0;
    const stack = result.root ? [result.root] : [];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (node.token) count++;
      stack.push(...node.children);
    }
    tokens = count;
  }
  const result: ParseChildResult = {
    source: grammar.source,
    loadMs,
    parseMs,
    tokens,
    syntaxErrors,
    rssAfterLoadBytes,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
  };
  console.log(JSON.stringify(result));
}

await main();
