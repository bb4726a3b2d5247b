/**
 * The answer of an interestingness test.
 *
 * The papers write FAIL (✗) for "the failure is still there" and PASS (✓) for "it is gone"; whittle
 * says `interesting` and `not-interesting` everywhere. `unresolved` (the papers' ?) and `timeout` are
 * treated as not interesting by every reducer; a timeout is kept apart so it can be counted and is
 * never cached (the next attempt might finish in time). `killed` is a test that died of a signal it
 * did not ask for (the OOM killer, a SIGKILL from outside): not interesting this time, and not cached
 * either, since it says nothing reliable about the candidate.
 */
export type Outcome = "interesting" | "not-interesting" | "unresolved" | "timeout" | "killed";

export const OUTCOMES: readonly Outcome[] = [
  "interesting",
  "not-interesting",
  "unresolved",
  "timeout",
  "killed",
];

/**
 * Which answer of the test running now a prepared candidate's test follows (Oracle.prepare): the
 * reducer runs one test at a time, and after that answer the candidate is the very next it tests.
 */
export type NextIf = "interesting" | "not-interesting";

export function isInteresting(outcome: Outcome): boolean {
  return outcome === "interesting";
}

/** Accepts the shorthand a library user is likely to write: `true` means interesting. */
export function toOutcome(answer: Outcome | boolean): Outcome {
  if (answer === true) return "interesting";
  if (answer === false) return "not-interesting";
  return answer;
}
