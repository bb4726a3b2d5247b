import type { CacheKey } from "../cache/index.js";
import { isInteresting } from "../outcome.js";
import type { PassEvaluator } from "../reduce/evaluator.js";
import { covers, type TokenRanges } from "../tree/token-ranges.js";

/** How many timed-out candidates a tree pass remembers: the latest, those that removed least kept. */
export const HANG_MEMORY_SIZE = 128;

/**
 * The candidates of one tree pass whose test timed out, as the input's tokens each removed, across
 * the pass's levels, searches and iterations. A candidate that removes every token one of them
 * removed is taken for a timeout without a test: a loop left without its exit still loops when more
 * is removed. The ddmin rule of passes/pass.ts does the same within one search (one level's ddmin);
 * this one also holds between them, where most of a tree pass's timeouts came from: hoisting starts
 * its scan over after each hoist and meets the same hanging candidates again, and so does each
 * iteration of a starred phase, and a level's ddmin meets a level above's hang when it removes all
 * of a node's children. A candidate that turns out interesting lifts the rule for every remembered
 * one whose tokens it removed too. Not from the papers; a heuristic, like the ddmin rule: a result
 * is 1-minimal with respect to the answers where a candidate taken for a timeout counts as not
 * interesting. The memory lives as long as the pass's tree (the next pass parses again).
 */
export class HangMemory {
  /** What the remembered timed-out candidates removed; none covers another. */
  readonly #hung: TokenRanges[] = [];
  readonly #removes = new WeakMap<CacheKey, () => TokenRanges>();

  /** Tells the memory what the candidate `key` removes (asked only when the memory needs it). */
  describe(key: CacheKey, removes: () => TokenRanges): void {
    let ranges: TokenRanges | undefined;
    this.#removes.set(key, () => (ranges ??= removes()));
  }

  get size(): number {
    return this.#hung.length;
  }

  /** Whether a remembered timed-out candidate removed nothing that `removed` keeps. */
  predicts(removed: TokenRanges): boolean {
    return this.#hung.some((hung) => covers(removed, hung));
  }

  /** A candidate that removed `removed` timed out. */
  record(removed: TokenRanges): void {
    if (this.predicts(removed)) return; // a remembered one already says as much
    // One that removed more says less than this one: this one takes its place.
    for (let i = this.#hung.length - 1; i >= 0; i--)
      if (covers(this.#hung[i]!, removed)) this.#hung.splice(i, 1);
    this.#hung.push(removed);
    if (this.#hung.length > HANG_MEMORY_SIZE) this.#hung.shift();
  }

  /** A candidate that removed `removed` is interesting: the rule was wrong for those it covers. */
  disprove(removed: TokenRanges): void {
    for (let i = this.#hung.length - 1; i >= 0; i--)
      if (covers(removed, this.#hung[i]!)) this.#hung.splice(i, 1);
  }

  /**
   * `evaluator`, with the rule: a described candidate the memory predicts to hang is taken for a
   * timeout (PassEvaluator.takeForTimeout: not with `--cache none`) and not prepared; a described
   * candidate that times out is remembered; one committed disproves what it covers.
   */
  guard(evaluator: PassEvaluator): PassEvaluator {
    const removedOf = (key: CacheKey): TokenRanges | undefined => this.#removes.get(key)?.();
    const predicted = (key: CacheKey): boolean => {
      if (this.#hung.length === 0) return false;
      const removed = removedOf(key);
      return removed !== undefined && this.predicts(removed);
    };
    const ask: PassEvaluator["ask"] = async (key, signal, label) => {
      if (predicted(key) && evaluator.takeForTimeout(label)) return "timeout";
      const outcome = await evaluator.ask(key, signal, label);
      if (outcome === "timeout") {
        const removed = removedOf(key);
        if (removed !== undefined) this.record(removed);
      }
      return outcome;
    };
    return {
      ask,
      test: async (key, signal, label) => {
        const outcome = await ask(key, signal, label);
        return outcome !== undefined && isInteresting(outcome);
      },
      takeForTimeout: (label) => evaluator.takeForTimeout(label),
      spare: () => evaluator.spare(),
      prepare: (key, nextIf) => !predicted(key) && evaluator.prepare(key, nextIf),
      commit: (key) => {
        // Nothing to disprove in an empty memory: the tokens are not worked out for it.
        const removed = this.#hung.length === 0 ? undefined : removedOf(key);
        if (removed !== undefined) this.disprove(removed);
        evaluator.commit(key);
      },
      close: () => evaluator.close(),
      scope: (kind) => this.guard(evaluator.scope(kind)),
      withPriority: (priority) => this.guard(evaluator.withPriority(priority)),
    };
  }
}
