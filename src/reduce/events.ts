import type { CacheStats } from "../cache/index.js";
import type { DdminEvent, TestLabel } from "../ddmin/ddmin.js";
import type { Outcome } from "../outcome.js";
import type { ScopeChange } from "./syntax-filter.js";

/**
 * Everything that happens during a reduction, as data. The CLI's status line, the statistics file
 * and the benchmarks all read these; nothing parses log text. Sizes are in bytes. Events about
 * candidates name the pass that proposed them (e.g. "ddmin:line"). The core has no clock: listeners
 * timestamp events themselves.
 */
export type ReductionEvent =
  | DdminEvent
  /** A pass starts on the current best: `units` atoms (or nodes) to work with. */
  | { readonly type: "pass"; readonly pass: string; readonly units: number; readonly size: number }
  /**
   * A pass has ended: `size` is the best input's size then; "stopped" when the run was stopped in
   * it. A pass that throws has no end (the reduction then fails).
   */
  | {
      readonly type: "pass-end";
      readonly pass: string;
      readonly size: number;
      readonly outcome: "done" | "stopped";
    }
  /**
   * A tree pass starts on a level of the tree (its depth, from 0 at the root), with `nodes` nodes
   * to try; `iteration` counts the fixpoint rounds of a starred phase; `tokens` is the size of the
   * current best in tokens: how many of the tree's tokens are still there (the minimal
   * replacements standing in for removed nodes are not counted); `levels`, when the algorithm
   * walks the tree level by level, is how many levels the current best's tree has.
   */
  | {
      readonly type: "level";
      readonly pass: string;
      readonly iteration: number;
      readonly level: number;
      readonly nodes: number;
      readonly tokens: number;
      readonly levels?: number;
    }
  /**
   * The largest-nodes-first tree pass (`biggest`) starts a round: `largest` is the size of the
   * largest node it has not tried yet, and it stops when that falls under `stop` bytes.
   */
  | { readonly type: "frontier"; readonly pass: string; readonly largest: number; readonly stop: number }
  | {
      readonly type: "test-start";
      readonly pass: string;
      readonly id: number;
      readonly label: TestLabel;
      readonly size: number;
    }
  | {
      readonly type: "test-end";
      readonly pass: string;
      readonly id: number;
      readonly label: TestLabel;
      readonly size: number;
      /**
       * "cancelled" when the round was decided (or the run stopped) before the test finished;
       * "error" when the oracle threw (the reduction then fails).
       */
      readonly outcome: Outcome | "cancelled" | "error";
    }
  /**
   * A candidate not tested because it has more syntax errors (`errors`) than the best input so far
   * (`allowed`): not interesting, without an oracle run (the syntax filter, reduce/syntax-filter.ts).
   * With `tested`, the candidate was tested unchecked (a check cost more than the tests it saves)
   * and the test found it interesting (its test-end says so); checked then, it is not interesting
   * all the same.
   */
  | {
      readonly type: "syntax-skip";
      readonly pass: string;
      readonly label: TestLabel;
      readonly size: number;
      readonly errors: number;
      readonly allowed: number;
      readonly tested?: true;
    }
  /**
   * A candidate not tested because it removes everything a candidate of the same search that timed
   * out removed: taken for a timeout (not interesting), without an oracle run (passes/pass.ts).
   */
  | { readonly type: "timeout-skip"; readonly pass: string; readonly label: TestLabel }
  /** A check made before the reduction, counted apart from its tests: the original, then empty. */
  | {
      readonly type: "check";
      readonly what: "original" | "empty";
      readonly size: number;
      readonly outcome: Outcome;
    }
  | {
      readonly type: "cache-hit";
      readonly pass: string;
      readonly label: TestLabel;
      readonly size: number;
      readonly outcome: Outcome;
    }
  /** A new best input; `pass` is "check" when the empty input was interesting. */
  | { readonly type: "improved"; readonly pass: string; readonly size: number; readonly content: Uint8Array }
  /** The counters of a cache: once per pass for per-pass caches, once per run for a shared one. */
  | { readonly type: "cache-stats"; readonly stats: CacheStats }
  /**
   * The syntax filter of an original with syntax errors changed which candidates it checks (see
   * LEARN_AFTER in syntax-filter.ts): "every" once enough candidates with new errors were tested and
   * no best had new errors (`why` "rejected"); "pairs" again, for good, when a new best has new
   * errors ("interesting").
   */
  | ({ readonly type: "syntax-filter"; readonly pass: string } & ScopeChange)
  /**
   * The syntax filter's counters, once at the end of a run that had one: candidates whose syntax
   * was checked before their test and those of them skipped, in all and per pass; and `verified`,
   * candidates tested unchecked that the test found interesting, checked after it.
   */
  | {
      readonly type: "syntax-stats";
      readonly checks: number;
      readonly skips: number;
      readonly verified: number;
      readonly passes: Readonly<Record<string, { readonly checks: number; readonly skips: number }>>;
    };

export type EventListener = (event: ReductionEvent) => void;
