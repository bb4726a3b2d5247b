import type { TreeFrontEnd } from "../hdd/phases.js";
import type { RawNode } from "../tree/raw.js";
import { NO_REPLACEMENTS, type Replacements } from "../tree/replacements.js";
import { ALL_TRANSFORMS, Tree, type TreeTransforms } from "../tree/tree.js";
import { loadAntlrGrammar, type AntlrGrammar } from "./antlr/index.js";

export interface AntlrFrontEndOptions {
  /** A combined grammar, or a lexer and a parser grammar (imported grammars are found beside them). */
  readonly grammarFiles: readonly string[];
  /** The start rule (default: the parser's first rule). */
  readonly start?: string | undefined;
  /** A module with the helpers the grammar's predicates call (default: whittle's, when it knows them). */
  readonly grammarHelpers?: string | undefined;
  /** Where processed grammars are cached (default: the user's cache directory); false: no cache. */
  readonly cacheDir?: string | false;
  /** The user's replacements (a replacements file). */
  readonly replacements?: Replacements;
  readonly transforms?: TreeTransforms;
  /** Named in syntax errors. */
  readonly fileName?: string;
}

/**
 * The tree passes' view of an ANTLR grammar: parse bytes into the tree model. The original input is
 * checked with `checkOriginal` (a syntax error stops the run, unless allowed); the inputs later passes
 * start from were produced by whittle and passed the user's test, so they are parsed with ANTLR's
 * error recovery: a pass works on the best tree it can get rather than stopping the run.
 */
export class AntlrFrontEnd implements TreeFrontEnd {
  private constructor(
    readonly grammar: AntlrGrammar,
    private readonly options: AntlrFrontEndOptions,
  ) {}

  static async load(options: AntlrFrontEndOptions): Promise<AntlrFrontEnd> {
    const grammar = await loadAntlrGrammar({
      grammarFiles: options.grammarFiles,
      ...(options.start !== undefined ? { start: options.start } : {}),
      ...(options.grammarHelpers !== undefined ? { grammarHelpers: options.grammarHelpers } : {}),
      ...(options.cacheDir !== undefined ? { cacheDir: options.cacheDir } : {}),
    });
    return new AntlrFrontEnd(grammar, options);
  }

  /**
   * Parses the original input: throws WhittleError("syntax") naming the first syntax error, unless
   * `allowSyntaxErrors`; returns how many errors ANTLR's recovery went past.
   */
  checkOriginal(input: Uint8Array, allowSyntaxErrors: boolean): number {
    return this.grammar.parse(input, { allowSyntaxErrors, ...this.fileName() }).syntaxErrors;
  }

  parse(input: Uint8Array): ReturnType<TreeFrontEnd["parse"]> {
    const { root } = this.grammar.parse(input, { allowSyntaxErrors: true, ...this.fileName() });
    const raw: RawNode = root ?? {
      kind: this.grammar.startRule,
      token: false,
      start: 0,
      end: 0,
      removable: false,
      replacement: "",
      children: [],
    };
    const tree = Tree.build(
      input,
      raw,
      this.options.transforms ?? ALL_TRANSFORMS,
      this.options.replacements ?? NO_REPLACEMENTS,
    );
    return { tree, glue: this.grammar.glue };
  }

  private fileName(): { fileName?: string } {
    return this.options.fileName !== undefined ? { fileName: this.options.fileName } : {};
  }
}
