/**
 * Child process of the parse section: loads an ANTLR grammar (from the grammar cache when `cacheDir`
 * holds it, else with the antlr-ng tool) and optionally parses one input, then prints one JSON line
 * of figures. Run alone so that the load is cold (nothing imported yet) and maxRSS is this parse's.
 *
 *   node dist/bench/sections/parse-child.js <cacheDir|-> <start|-> <input|-> <grammar.g4>...
 */
import { readFileSync } from "node:fs";
import { loadAntlrGrammar } from "../../src/grammar/antlr/index.js";

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
  const [cacheDir, start, input, ...grammarFiles] = process.argv.slice(2);
  const t0 = performance.now();
  const grammar = await loadAntlrGrammar({
    grammarFiles,
    cacheDir: !cacheDir || cacheDir === "-" ? false : cacheDir,
    ...(start && start !== "-" ? { start } : {}),
  });
  const loadMs = performance.now() - t0;
  const rssAfterLoadBytes = process.memoryUsage.rss();
  let parseMs: number | null = null;
  let tokens: number | null = null;
  let syntaxErrors: number | null = null;
  if (input && input !== "-") {
    const bytes = readFileSync(input);
    const t1 = performance.now();
    const result = grammar.parse(bytes, { allowSyntaxErrors: true });
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
