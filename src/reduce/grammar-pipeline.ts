import { resolve } from "node:path";
import type { AtomMode } from "../atoms/atoms.js";
import { AntlrFrontEnd } from "../grammar/front-end.js";
import { TreeSitterFrontEnd } from "../grammar/tree-sitter/index.js";
import type { BuiltInLanguage } from "../grammar/tree-sitter/languages.js";
import type { Pass } from "../passes/pass.js";
import { buildPipeline } from "../passes/pipeline.js";
import type { SyntaxCheck } from "./syntax-filter.js";

/** The grammar a library reduction goes along: a built-in language, or an ANTLR grammar. */
export type GrammarChoice =
  | { readonly language: BuiltInLanguage }
  | { readonly grammar: readonly string[]; readonly start?: string | undefined };

/**
 * The command's default pipeline for `input` along `choice` (passes/pipeline.ts), and the grammar
 * as the syntax filter's check. As with the command: an original a built-in language finds syntax
 * errors in is a WhittleError "syntax"; one an ANTLR grammar rejects is reduced along ANTLR's error
 * recovery. The tree phases use the pipeline's own algorithm unless `algorithmGiven`.
 */
export async function grammarPipeline(
  input: Uint8Array,
  choice: GrammarChoice,
  atom: AtomMode,
  algorithmGiven: boolean,
): Promise<{ pipeline: Pass[]; syntax: SyntaxCheck }> {
  let frontEnd: TreeSitterFrontEnd | AntlrFrontEnd;
  if ("language" in choice) {
    frontEnd = await TreeSitterFrontEnd.load({ language: choice.language });
    frontEnd.checkOriginal(input, false);
  } else {
    frontEnd = await AntlrFrontEnd.load({
      grammarFiles: choice.grammar.map((file) => resolve(file)),
      start: choice.start,
    });
    frontEnd.checkOriginalRecovering(input, false);
  }
  return { pipeline: buildPipeline([], atom, frontEnd, undefined, !algorithmGiven, input), syntax: frontEnd };
}
