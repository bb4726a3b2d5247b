/**
 * The round-trip test of a shared input with its shared grammar: the parse renders back to the
 * input byte for byte. The two 130 KB JavaScript inputs take a minute each to parse with ANTLR's
 * interpreter (more on a busy machine), so each has a test file of its own, within the per-file limit.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { loadAntlrGrammar, type AntlrGrammar } from "../../src/grammar/antlr/index.js";
import { renderUntouched, sharedGrammar, sharedInput, sharedPresent, tokens } from "./helpers.js";

export interface RoundTripCase {
  readonly grammar: keyof typeof sharedGrammar;
  readonly start?: string;
  readonly input: string;
  /** The input has syntax errors: parsed with ANTLR's error recovery. */
  readonly errors?: boolean;
}

/** Registers the round-trip test of `c`, with grammars loaded through `grammar`. */
export function roundTripTest(
  c: RoundTripCase,
  grammar: (name: keyof typeof sharedGrammar, start?: string) => Promise<AntlrGrammar>,
): void {
  test(`round trip: ${c.input}${c.errors ? " (with error recovery)" : ""}`, async (t) => {
    if (!sharedPresent) return t.skip("../shared not found");
    const g = await grammar(c.grammar, c.start);
    const input = sharedInput(c.input);
    const result = g.parse(input, { start: c.start ?? g.startRule, allowSyntaxErrors: c.errors ?? false });
    if (c.errors) assert.ok(result.syntaxErrors > 0);
    else assert.equal(result.syntaxErrors, 0);
    assert.deepEqual(renderUntouched(g, input, result.root), input);
    assert.ok(tokens(result.root).length > 10);
  });
}

/** A grammar of ../shared, loaded without a cache. */
export function loadShared(name: keyof typeof sharedGrammar, start?: string): Promise<AntlrGrammar> {
  return loadAntlrGrammar({
    grammarFiles: sharedGrammar[name],
    cacheDir: false,
    ...(start ? { start } : {}),
  });
}
