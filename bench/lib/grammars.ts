/**
 * The shared ANTLR grammars (`../shared/grammars`) as the sections that run the whittle command use
 * them: which files and start rule, the command's options, and which shared cases each one parses.
 */
import { join } from "node:path";
import { AntlrFrontEnd } from "../../src/grammar/front-end.js";
import { ALL_TRANSFORMS } from "../../src/tree/tree.js";
import type { BenchContext } from "./context.js";
import { xdgCacheHome } from "./whittle-cli.js";

export type GrammarId = "json" | "c" | "javascript";

export interface GrammarSpec {
  readonly id: GrammarId;
  readonly files: readonly string[];
  readonly start: string;
}

export const GRAMMARS: Readonly<Record<GrammarId, GrammarSpec>> = {
  json: { id: "json", files: ["json/JSON.g4"], start: "json" },
  c: { id: "c", files: ["c/C.g4"], start: "compilationUnit" },
  javascript: {
    id: "javascript",
    files: ["javascript/JavaScriptLexer.g4", "javascript/JavaScriptParser.g4"],
    start: "program",
  },
};

/**
 * The shared cases with a shared grammar. `recovery`: the grammar parses the input only with error
 * recovery, so whittle needs `--allow-syntax-errors` — the invalid-JSON cases (their oracles want
 * invalid JSON) and hello-world-big-c (preprocessed glibc headers: `__restrict`, `__extension__`,
 * `__asm__` … are not in the C11 grammar).
 */
export const CASE_GRAMMARS: Readonly<Record<string, { grammar: GrammarId; recovery: boolean }>> = {
  "json-obj-arr-87": { grammar: "json", recovery: false },
  "json-invalid-escape": { grammar: "json", recovery: true },
  "json-extra-comma": { grammar: "json", recovery: true },
  "zeller-bug-c": { grammar: "c", recovery: false },
  "cvise-blocksort-c": { grammar: "c", recovery: false },
  "creduce-file2-c": { grammar: "c", recovery: false },
  "hello-world-big-c": { grammar: "c", recovery: true },
  "js-esquery-syntax-error": { grammar: "javascript", recovery: false },
  "js-yaml-flow-error": { grammar: "javascript", recovery: false },
};

export function grammarsDir(ctx: BenchContext): string {
  return join(ctx.sharedDir, "grammars");
}

/** The whittle options that select grammar `g` (its files and start rule). */
export function grammarArgs(ctx: BenchContext, g: GrammarSpec): string[] {
  return [...g.files.flatMap((x) => ["--grammar", join(grammarsDir(ctx), x)]), "--start", g.start];
}

/** The whittle options for `caseName` with its shared grammar: the grammar, and recovery if it needs it. */
export function caseGrammarArgs(ctx: BenchContext, caseName: string): string[] {
  const entry = CASE_GRAMMARS[caseName];
  if (entry === undefined) throw new Error(`${caseName} has no shared grammar`);
  return [...grammarArgs(ctx, GRAMMARS[entry.grammar]), ...(entry.recovery ? ["--allow-syntax-errors"] : [])];
}

/**
 * Loads each grammar once per run; loading also fills the grammar cache the whittle commands read
 * (same XDG_CACHE_HOME), so that their wall times do not include antlr-ng processing the `.g4` files.
 */
export function grammarLoader(ctx: BenchContext): (g: GrammarSpec) => Promise<AntlrFrontEnd> {
  const frontEnds = new Map<GrammarId, Promise<AntlrFrontEnd>>();
  return (g) => {
    let f = frontEnds.get(g.id);
    if (!f) {
      f = AntlrFrontEnd.load({
        grammarFiles: g.files.map((x) => join(grammarsDir(ctx), x)),
        start: g.start,
        cacheDir: join(xdgCacheHome(ctx), "whittle"),
        transforms: ALL_TRANSFORMS,
      });
      frontEnds.set(g.id, f);
    }
    return f;
  };
}
