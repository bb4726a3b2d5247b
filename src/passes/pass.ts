import type { CacheKey } from "../cache/index.js";
import type { Configuration } from "../ddmin/configuration.js";
import type { DdminHooks } from "../ddmin/ddmin.js";
import type { ResolvedOptions } from "../reduce/options.js";
import type { PassEvaluator } from "../reduce/evaluator.js";
import type { EventListener } from "../reduce/events.js";
import { isInteresting } from "../outcome.js";

/** What a pass works with: where it starts, how it asks about candidates, and when to stop. */
export interface PassContext {
  /** The best input so far, where the pass starts. */
  readonly current: Uint8Array;
  readonly evaluator: PassEvaluator;
  readonly options: ResolvedOptions;
  readonly signal: AbortSignal;
  readonly emit: EventListener;
  /**
   * The pass says that what it has committed is final: from here it changes nothing more, or
   * starts over from the best so far (an iteration of a phase run to its fixpoint). The passes after
   * it may start from the best now (reduce/run-passes.ts).
   */
  readonly settled?: () => void;
}

export type PassOutcome = { readonly kind: "done" } | { readonly kind: "stopped"; readonly reason: unknown };

/**
 * One step of a reduction pipeline (the style guide's §3): a stable name, a representation of the
 * current input (atoms, later tree levels and tokens) and an algorithm that proposes candidates of
 * it to the evaluator. A pass never keeps the best itself: it commits improvements to the evaluator.
 */
export interface Pass {
  /** A stable name, used in events, statistics and options, e.g. "ddmin:line". */
  readonly name: string;
  run(context: PassContext): Promise<PassOutcome>;
}

/**
 * The ddmin hooks of a pass whose candidates are configurations: each candidate's cache key is made
 * once per Configuration object (`keyOf`), so that preparing a candidate, testing it and committing
 * it share its bytes and its hash. Prepared candidates go to the oracle ahead (PassEvaluator.prepare).
 */
export function configurationHooks(
  evaluator: PassEvaluator,
  keyOf: (config: Configuration) => CacheKey,
  context: { readonly emit: EventListener; readonly signal: AbortSignal; readonly level?: number },
): DdminHooks {
  const keys = new WeakMap<Configuration, CacheKey>();
  const key = (config: Configuration): CacheKey => {
    let k = keys.get(config);
    if (k === undefined) {
      k = keyOf(config);
      keys.set(config, k);
    }
    return k;
  };
  const { level } = context;
  // The configurations of this run whose test timed out (see the rule below).
  let hung: Configuration[] = [];
  return {
    test: async (config, signal, label) => {
      const full = level === undefined ? label : { ...label, level };
      // A candidate that keeps only part of one that timed out removes everything that one removed:
      // taken for a timeout too, untested — a loop left without its exit still loops when more is
      // removed. (On the two large JavaScript cases, 302 such candidates tested anyway: 184 timed
      // out, 118 were not interesting, none interesting.) Not with --cache none.
      if (hung.some((h) => config.isSubsetOf(h)) && evaluator.takeForTimeout(full)) return false;
      const outcome = await evaluator.ask(key(config), signal, full);
      if (outcome === "timeout") hung.push(config);
      return outcome !== undefined && isInteresting(outcome);
    },
    prepare: (config, nextIf) => evaluator.prepare(key(config), nextIf),
    spare: () => evaluator.spare(),
    commit: (config) => {
      // An interesting configuration inside a timed-out one disproves the rule for that one.
      hung = hung.filter((h) => !config.isSubsetOf(h));
      evaluator.commit(key(config));
    },
    onEvent: context.emit,
    signal: context.signal,
  };
}
