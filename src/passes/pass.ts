import type { ResolvedOptions } from "../reduce/options.js";
import type { PassEvaluator } from "../reduce/evaluator.js";
import type { EventListener } from "../reduce/events.js";

/** What a pass works with: where it starts, how it asks about candidates, and when to stop. */
export interface PassContext {
  /** The best input so far, where the pass starts. */
  readonly current: Uint8Array;
  readonly evaluator: PassEvaluator;
  readonly options: ResolvedOptions;
  readonly signal: AbortSignal;
  readonly emit: EventListener;
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
