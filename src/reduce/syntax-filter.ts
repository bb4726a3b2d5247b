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
 * need the ones that went, so candidates that bring errors back are skipped. (Under "auto" such an
 * original's filter checks only the guesses of adaptive deletion's pair scan until the test has
 * shown that it rejects new errors: see SyntaxFilter.of and LEARN_AFTER.)
 * `allowed` only ever falls, so a candidate skipped once would be skipped at any later time: skips
 * may be cached, by a filter of every candidate (skipsMayBeCached). (With
 * a gated filter, below, a best tested without a check may raise it; a candidate skipped before
 * then stays skipped, which costs at most that candidate.)
 */

import type { Outcome } from "../outcome.js";

/**
 * A gated filter that decided against checking still checks a candidate now and then, since the
 * estimates it decided on may be stale (a grammar's first parses are slow, it warms up): when the
 * tests since its last check took this many times the check's estimated cost. So exploring costs at
 * most 1/EXPLORE_RATIO of the test time, however slow the check (seconds for a large input) or fast
 * the tests.
 */
const EXPLORE_RATIO = 8;

/**
 * Learning (LEARN_AFTER) counts the errors of the candidates it lets through only up to this many
 * bytes: an exact count of a candidate with errors is a fresh parse (about 1 ms per 2–5 KB with
 * tree-sitter, 150 ms for 130 KB of JavaScript), and counting saves no test itself. A bound in
 * bytes, not in the tests' measured time (as until 2026-12-02): what the filter learns decides
 * which candidates are tested, so it must not depend on how busy the machine is — with a timed
 * bound, zeller-bug-c's test at -j 8 let a candidate with new errors through uncounted where -j 1
 * counted it, and the two runs ended with different results.
 */
export const WATCH_MAX_BYTES = 8 * 1024;

/**
 * A cheap check (tree-sitter's) estimated below this many milliseconds is made whatever the tests
 * cost: next to whittle's other work per candidate it is nothing, and it saves the test.
 */
const ALWAYS_CHECK_MS = 1;

/** Checks of fewer bytes are estimated as this many: a parse has a fixed cost too. */
const MIN_ESTIMATE_BYTES = 256;

/**
 * Under "auto", an original with syntax errors leaves most candidates unchecked (SyntaxFilter.of),
 * but their errors are still counted while that is cheap (WATCH_MAX_BYTES). Once this many
 * candidates with more errors than the best so far have been tested and found not interesting, and
 * no best had more errors than allowed, the test has shown that it rejects new errors (a JavaScript
 * engine given code it cannot parse), and the filter checks every candidate: it skips those with at
 * least as many errors as the fewest a rejected one had, and tests (and watches) those with fewer.
 * A new best with more errors than allowed keeps it to the pairs for the rest of the run. That is
 * decided on the bests, not on interesting answers: with parallel jobs, tests run ahead may find a
 * candidate interesting that the reduction never takes (an earlier one was), and the bests are the
 * same at any -j (bench/results/2026-12-02-syntax-determinism). Eight: on the shared cases with such
 * originals at most three such candidates were tested in a whole run, and the first or the second
 * was interesting where one was (zeller-bug-c, mozilla-select-html); on six generated JavaScript
 * programs with a line tree-sitter rejects, none of the 92 of each run was
 * (bench/results/2026-11-30-syntax-learning).
 */
export const LEARN_AFTER = 8;

/** What the filter needs from a grammar: how many syntax errors an input has. */
export interface SyntaxCheck {
  /**
   * Syntax errors in `input`, as the grammar's error recovery counts them; 0 when it parses cleanly.
   * With `anyWillDo`, any count above 0 may be given for an input with errors (a faster answer).
   */
  syntaxErrors(input: Uint8Array, anyWillDo?: boolean): number;
  /**
   * Whether checking every candidate costs little next to a test: the syntaxFilter option's "auto"
   * turns the filter on only for cheap checks (tree-sitter's parse, not ANTLR's interpreter).
   */
  readonly cheapSyntaxCheck: boolean;
  /** Optional: the time per byte its parses took so far (ms), for the first estimate of a check. */
  msPerByte?(): number | undefined;
  /**
   * Optional: `best` is the best input so far, and the next inputs to check are likely edits of it
   * (tree-sitter then parses them incrementally). A hint only: the counts must not depend on it.
   */
  rebase?(best: Uint8Array): void;
}

/** The syntaxFilter option: "auto" filters with a cheap check only; true with any; false never. */
export type SyntaxFilterSetting = boolean | "auto";

/**
 * Which candidates a filter checks: every one, or only the guesses of adaptive deletion's pair scan
 * (test label "pair"), which "auto" chooses for an original with syntax errors (see SyntaxFilter.of).
 */
export type SyntaxFilterScope = "every" | "pairs";

/**
 * A change of what a filter of an original with syntax errors checks (LEARN_AFTER): to every
 * candidate once the test `rejected` enough with new errors; back to the pairs for good when a new
 * best with new errors shows that it finds such candidates `interesting` after all.
 */
export interface ScopeChange {
  readonly scope: SyntaxFilterScope;
  readonly why: "rejected" | "interesting";
}

/** Why a candidate was skipped: its errors, and how many the best so far has. */
export interface SyntaxSkip {
  readonly errors: number;
  readonly allowed: number;
}

/**
 * With an expensive check under "auto" (`gated`: ANTLR's interpreter, 8.5–15 s per 131 KB of
 * JavaScript against tests of milliseconds, a few milliseconds on the small inputs the polish works
 * on), the filter checks a candidate only when the check is expected to save more time than it
 * costs: when its estimated time is below the share of checks that end in a skip times a test's
 * mean time. The check's time per byte is measured on the checks made (before the first, the
 * grammar's own figure from parsing the original, else a probe once a test has been timed), a
 * test's mean time on the tests the evaluator reports (`observeTest`), the share of skips per pass
 * (with one skip in two as the prior: tree phases rarely break the syntax, the token and character
 * polish nearly always does). So the same run may check more candidates on a faster machine (and a
 * gated filter still checks a candidate it decided against now and then, to renew its estimates:
 * see EXPLORE_RATIO); `--syntax-filter` and `--no-syntax-filter` make the choice fixed. The
 * allowance is then counted on the best input when first needed, not parsed up front.
 */
export class SyntaxFilter {
  /** Errors allowed; undefined until counted on `base` (gated filters count lazily). */
  private allowed: number | undefined;
  /** The input whose error count is the allowance: the original, then each new best. */
  private base: Uint8Array;
  private msPerByte: number | undefined;
  private testMs = 0;
  private tests = 0;
  /** The tests' time when the last check was made (see EXPLORE_RATIO). */
  private testMsAtCheck = 0;
  /** Per pass: checks made and how many ended in a skip. */
  private readonly yieldOf = new Map<string, { checks: number; skips: number }>();
  /** The errors of the candidates checked so far, while they are alive (verify, improved). */
  private readonly counted = new WeakMap<Uint8Array, number>();
  /** Candidates the tests found interesting that had to be checked then (verify). */
  private verifications = 0;
  /** While the filter learns whether the test rejects new errors (LEARN_AFTER): how many it did. */
  private learning: { rejected: number } | undefined;
  /** Whether it checks every candidate because it learned to. */
  private learned = false;
  /**
   * The fewest errors a candidate with new errors had that the test found not interesting: once it
   * learned, a candidate with new errors but fewer than that is tested all the same (and watched).
   */
  private floor = Infinity;
  /**
   * Candidates with more errors than allowed that were tested, counted while learning or, after it,
   * under the floor, whose tests have not answered yet.
   */
  private readonly suspects = new WeakSet<Uint8Array>();

  /** A filter for a reduction of `original`; its error count is the first allowance. */
  constructor(
    private readonly check: SyntaxCheck,
    original: Uint8Array,
    private readonly gated = false,
    private readonly now: () => number = () => performance.now(),
    /** Which candidates it checks; the others are tested unchecked. */
    private scopeNow: SyntaxFilterScope = "every",
    /** With "pairs": whether it learns to check every candidate (LEARN_AFTER). */
    learn = false,
  ) {
    this.base = original;
    if (!gated) this.allowed = check.syntaxErrors(original);
    if (learn && scopeNow === "pairs") this.learning = { rejected: 0 };
  }

  /** Which candidates it checks now; the others are tested unchecked. */
  get scope(): SyntaxFilterScope {
    return this.scopeNow;
  }

  /** The filter a reduction uses under `setting`, or undefined when it has none. */
  static of(
    setting: SyntaxFilterSetting,
    check: SyntaxCheck | undefined,
    original: Uint8Array,
  ): SyntaxFilter | undefined {
    if (check === undefined || setting === false) return undefined;
    // "auto" leaves most candidates of an original with syntax errors unchecked: errors are only
    // compared by count, and the bench's cases with such originals came out larger with every
    // candidate checked than with none (16 against 6 non-ws characters on json-extra-comma, 17
    // against 8 on an HTML page: languages section; mozilla-select-html 17 against 8 and
    // zeller-bug-c 76 against 73 with today's pipeline). The neighbouring pairs adaptive deletion
    // tries after a fruitless scan are guesses for what only goes in twos (a key and its value, two
    // brackets), not single edits the bug may need: with a cheap check those are checked, which on
    // zeller-bug-c skipped most of the 56 + 22 pairs of its token and glyph passes, none of which
    // was interesting (bench/results/2026-11-28-pair-filter). And it learns: once the test has
    // rejected LEARN_AFTER candidates with new errors, it checks every candidate.
    if (setting === "auto" && check.syntaxErrors(original) > 0)
      return check.cheapSyntaxCheck
        ? new SyntaxFilter(check, original, false, undefined, "pairs", true)
        : undefined;
    return new SyntaxFilter(check, original, setting === "auto");
  }

  /**
   * Whether a skip may be kept as the candidate's outcome. A filter of every candidate skips a
   * candidate at any later time too (see the rule above); a filter of pairs only would test the same
   * bytes reached another way.
   */
  get skipsMayBeCached(): boolean {
    return this.scopeNow === "every";
  }

  /**
   * Whether candidates the test found interesting are checked before they count (verify): a gated
   * filter with a cheap check. The results are then those of checking every candidate.
   */
  get verifies(): boolean {
    return this.gated && this.check.cheapSyntaxCheck && this.scopeNow === "every";
  }

  /**
   * Why `candidate` (of the pass named `pass`, made as `kind` says: its test label's) is skipped, or
   * undefined when it is to be tested.
   */
  reject(candidate: Uint8Array, pass = "", kind?: string): SyntaxSkip | undefined {
    if (this.scopeNow === "pairs" && kind !== "pair") {
      if (this.learning !== undefined) this.watch(candidate);
      return undefined;
    }
    let yields = this.yieldOf.get(pass);
    if (yields === undefined) this.yieldOf.set(pass, (yields = { checks: 0, skips: 0 }));
    if (this.gated && !this.worthChecking(candidate.length, (yields.skips + 1) / (yields.checks + 2))) {
      // Not worth it by the estimates; now and then a check all the same, to renew them. Its cost
      // includes counting the allowance on the best input, when that is still to be done.
      const bytes = candidate.length + (this.allowed === undefined ? this.base.length : 0);
      const estimate = this.estimatedMs(bytes) ?? 0;
      if (this.tests === 0 || this.testMs - this.testMsAtCheck < EXPLORE_RATIO * estimate) return undefined;
    }
    this.testMsAtCheck = this.testMs;
    const allowed = (this.allowed ??= this.count(this.base));
    // With none allowed, whether there is any error is all that counts (when the filter learned,
    // only while the fewest errors a rejected candidate had is one: else the floor needs the count).
    const errors = this.count(candidate, allowed === 0 && (!this.learned || this.floor <= 1));
    yields.checks++;
    if (errors <= allowed) return undefined;
    if (this.learned && errors < this.floor) {
      // Learned, but not for so few new errors: tested, and watched.
      this.suspects.add(candidate);
      return undefined;
    }
    yields.skips++;
    return { errors, allowed };
  }

  /**
   * Why `candidate`, which a test found interesting, is not interesting after all (more syntax
   * errors than the best so far), or undefined when it is. A filter that `verifies` tests some
   * candidates unchecked, when a check costs more than the tests it would save; the ones found
   * interesting are checked here, before they count, so that no best has more errors than allowed
   * and the results are those of checking every candidate (one parse per improvement on top).
   */
  verify(candidate: Uint8Array): SyntaxSkip | undefined {
    if (!this.verifies) return undefined;
    const allowed = (this.allowed ??= this.count(this.base));
    let errors = this.counted.get(candidate);
    if (errors === undefined) {
      this.verifications++;
      errors = this.count(candidate, allowed === 0);
    }
    return errors > allowed ? { errors, allowed } : undefined;
  }

  /**
   * A test answered `outcome` for `candidate`. A candidate with more errors than allowed that was not
   * interesting counts towards checking every candidate while the filter learns (LEARN_AFTER), and
   * lowers the floor to its errors. (One that was interesting teaches nothing here: what counts is
   * whether the reduction takes it, see `improved`.) Returns the change when this answer made one.
   */
  tested(candidate: Uint8Array, outcome: Outcome): ScopeChange | undefined {
    if (!this.suspects.has(candidate)) return undefined;
    this.suspects.delete(candidate);
    if (outcome !== "not-interesting") return undefined;
    this.floor = Math.min(this.floor, this.counted.get(candidate) ?? Infinity);
    if (this.learning === undefined || ++this.learning.rejected < LEARN_AFTER) return undefined;
    this.learning = undefined;
    this.learned = true;
    this.scopeNow = "every";
    return { scope: "every", why: "rejected" };
  }

  /** Counts `candidate`'s errors while learning, up to WATCH_MAX_BYTES. */
  private watch(candidate: Uint8Array): void {
    if (candidate.length > WATCH_MAX_BYTES) return;
    const allowed = (this.allowed ??= this.count(this.base));
    // Counted exactly, also with none allowed: the floor needs the count.
    if (this.count(candidate) > allowed) this.suspects.add(candidate);
  }

  /**
   * `best` is the new best input: its errors are the allowance from now on, if fewer. A filter of
   * an original with errors (scope "pairs", or "every" since it learned) whose new best has more
   * errors than allowed has seen the test accept new errors: it stops learning, and goes back to
   * the pairs for good if it had learned. Returns the change when this best made one.
   */
  improved(best: Uint8Array): ScopeChange | undefined {
    this.check.rebase?.(best);
    const change = this.learning !== undefined || this.learned ? this.acceptedErrors(best) : undefined;
    if (this.allowed === undefined) {
      this.base = best;
    } else if (this.allowed > 0) {
      if (this.gated && !this.verifies && !this.worthChecking(best.length, 1)) {
        // Counted on `best` when next needed. A best that was tested unchecked may have more errors
        // than allowed so far: the test accepted them, so they are allowed from then on.
        this.base = best;
        this.allowed = undefined;
      } else {
        // A best usually was a candidate the filter counted: before its test (reject, learning) or
        // after it (verify, which leaves it no more errors than allowed).
        this.allowed = Math.min(this.allowed, this.counted.get(best) ?? this.count(best));
      }
    }
    return change;
  }

  /** A new best of a filter that learns or learned: the scope change it makes, if any. */
  private acceptedErrors(best: Uint8Array): ScopeChange | undefined {
    const allowed = (this.allowed ??= this.count(this.base));
    // With none allowed, whether it has any error is all that counts (an incremental parse).
    if ((this.counted.get(best) ?? this.count(best, allowed === 0)) <= allowed) return undefined;
    this.learning = undefined;
    if (!this.learned) return undefined;
    this.learned = false;
    this.scopeNow = "pairs";
    return { scope: "pairs", why: "interesting" };
  }

  /**
   * The checks made before tests and the skips they ended in, in all and per pass, and the checks
   * made after a test (verify): the `syntax-stats` event.
   */
  counters(): {
    checks: number;
    skips: number;
    verified: number;
    passes: Record<string, { checks: number; skips: number }>;
  } {
    const passes = Object.fromEntries([...this.yieldOf].map(([pass, y]) => [pass, { ...y }]));
    let checks = 0;
    let skips = 0;
    for (const y of this.yieldOf.values()) {
      checks += y.checks;
      skips += y.skips;
    }
    return { checks, skips, verified: this.verifications, passes };
  }

  /** A test took `ms` (the evaluator reports each oracle run). */
  observeTest(ms: number): void {
    this.testMs += ms;
    this.tests++;
  }

  /** Whether a check of `bytes` is expected to cost less than the tests it saves (`skipShare` of one). */
  private worthChecking(bytes: number, skipShare: number): boolean {
    // Nothing to compare a check with yet: a cheap check is made, an expensive one is not.
    if (this.tests === 0) return this.check.cheapSyntaxCheck;
    const estimate = this.estimatedMs(bytes);
    if (estimate === undefined) return true; // the probe
    if (this.check.cheapSyntaxCheck && estimate <= ALWAYS_CHECK_MS) return true;
    return estimate <= skipShare * (this.testMs / this.tests);
  }

  /** A check's expected time for `bytes` of input: measured per byte, else the grammar's figure. */
  private estimatedMs(bytes: number): number | undefined {
    const perByte = this.msPerByte ?? this.check.msPerByte?.();
    return perByte === undefined ? undefined : perByte * Math.max(bytes, MIN_ESTIMATE_BYTES);
  }

  private count(input: Uint8Array, anyWillDo = false): number {
    const start = this.now();
    const errors = this.check.syntaxErrors(input, anyWillDo);
    this.counted.set(input, errors);
    const perByte = (this.now() - start) / Math.max(input.length, MIN_ESTIMATE_BYTES);
    // A moving average: the first parses of a grammar are slower (its interpreter warms up).
    this.msPerByte = this.msPerByte === undefined ? perByte : 0.8 * this.msPerByte + 0.2 * perByte;
    return errors;
  }
}
