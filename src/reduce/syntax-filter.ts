/**
 * The syntax pre-filter of grammar-aware runs: a candidate with more syntax errors than the best
 * input so far is not interesting, and the oracle is not asked about it. Most candidates that
 * grammar-unaware passes (tokens, characters) and tree edits produce are broken; re-parsing them is
 * cheap with tree-sitter (milliseconds), a test rarely is.
 *
 * The rule: skip a candidate whose error count is greater than `allowed`, which starts as the
 * original's count and becomes the count of each new best when that is lower. With an original
 * without errors (the usual case) every candidate with an error is skipped. With an original that
 * has errors (--allow-syntax-errors), errors are compared by count only: a candidate that trades
 * one of the original's errors for a new one at the same count is tested. Matching errors one by
 * one is not reliable: every deletion moves them, and tree-sitter's recovery splits or merges ERROR
 * nodes when their surroundings change. Once the best has fewer errors, the bug evidently does not
 * need the ones that went, so candidates that bring errors back are skipped. `allowed` only ever
 * falls, so a candidate skipped once would be skipped at any later time: skips may be cached.
 */

/** What the filter needs from a grammar: how many syntax errors an input has. */
export interface SyntaxCheck {
  /** Syntax errors in `input`, as the grammar's error recovery counts them; 0 when it parses cleanly. */
  syntaxErrors(input: Uint8Array): number;
  /**
   * Whether checking every candidate costs little next to a test: the syntaxFilter option's "auto"
   * turns the filter on only for cheap checks (tree-sitter's parse, not ANTLR's interpreter).
   */
  readonly cheapSyntaxCheck: boolean;
}

/** The syntaxFilter option: "auto" filters with a cheap check only; true with any; false never. */
export type SyntaxFilterSetting = boolean | "auto";

/** Why a candidate was skipped: its errors, and how many the best so far has. */
export interface SyntaxSkip {
  readonly errors: number;
  readonly allowed: number;
}

export class SyntaxFilter {
  private allowed: number;

  /** A filter for a reduction of `original`; its error count is the first allowance. */
  constructor(
    private readonly check: SyntaxCheck,
    original: Uint8Array,
  ) {
    this.allowed = check.syntaxErrors(original);
  }

  /** The filter a reduction uses under `setting`, or undefined when it has none. */
  static of(
    setting: SyntaxFilterSetting,
    check: SyntaxCheck | undefined,
    original: Uint8Array,
  ): SyntaxFilter | undefined {
    if (check === undefined || setting === false) return undefined;
    if (setting === "auto" && !check.cheapSyntaxCheck) return undefined;
    return new SyntaxFilter(check, original);
  }

  /** Why `candidate` is skipped, or undefined when it is to be tested. */
  reject(candidate: Uint8Array): SyntaxSkip | undefined {
    const errors = this.check.syntaxErrors(candidate);
    return errors > this.allowed ? { errors, allowed: this.allowed } : undefined;
  }

  /** `best` is the new best input: its errors are the allowance from now on, if fewer. */
  improved(best: Uint8Array): void {
    if (this.allowed > 0) this.allowed = Math.min(this.allowed, this.check.syntaxErrors(best));
  }
}
