import type { Outcome } from "../outcome.js";

/**
 * A record of the oracle's answers that outlives the process (the command line keeps it in a file
 * beside the result, cli/journal.ts), so that an interrupted run can be resumed: the evaluator asks
 * it before running a test and tells it every answer. Unlike an outcome cache it holds every answer
 * the oracle gave, interesting ones, timeouts and killed tests included, and never forgets one:
 * replaying the same answers in the same order is what takes a deterministic reduction, restarted
 * from the original, back to where it was interrupted without running those tests again.
 */
export interface OutcomeJournal {
  /** The answer `recall` would give, without using it up. */
  peek(content: Uint8Array): Outcome | undefined;
  /**
   * The answer recorded for these bytes, if any, used up: bytes tested several times (timeouts are
   * tested again) get their answers in the order they were recorded.
   */
  recall(content: Uint8Array): Outcome | undefined;
  /** The oracle answered `outcome` for these bytes (a test that finished, not a cancelled one). */
  record(content: Uint8Array, outcome: Outcome): void;
}
