/**
 * Flaky tests: a candidate is interesting when `need` of up to `repeat` runs of the test are. The
 * runs stop as soon as the answer is known — `need` interesting runs, or too few runs left to reach
 * it — so an interesting candidate of a test that seldom fails costs one run when it fails at once.
 * A wrapper around the oracle: the reduction algorithms see one answer per candidate.
 */
import type { NextIf, Outcome } from "../outcome.js";

/** How many runs a verdict may take, and how many of them must be interesting. */
export interface RepeatPolicy {
  readonly repeat: number;
  readonly need: number;
}

export const ONE_RUN: RepeatPolicy = { repeat: 1, need: 1 };

/** The verdict on one candidate, and its runs in order. */
export interface Decision<T> {
  readonly outcome: Outcome;
  readonly runs: readonly { readonly run: T; readonly outcome: Outcome }[];
  /** Some runs were interesting and some not: the test is flaky on this candidate. */
  readonly disagreed: boolean;
}

/** Checks a policy; returns what is wrong with it, or undefined. */
export function policyProblem(policy: RepeatPolicy): string | undefined {
  const { repeat, need } = policy;
  if (!Number.isInteger(repeat) || repeat < 1) return `--repeat must be a whole number ≥ 1, got ${repeat}`;
  if (!Number.isInteger(need) || need < 1) return `--need must be a whole number ≥ 1, got ${need}`;
  if (need > repeat)
    return `--need ${need} is more than --repeat ${repeat}: no candidate could be interesting`;
  return undefined;
}

/**
 * Runs `runOnce` until the policy decides. Not interesting: a timeout among the runs makes the
 * verdict "timeout", else a run killed from outside "killed" (neither is cached: another try might
 * go otherwise), else "not-interesting". With one run, the verdict is that run's outcome.
 */
export async function decide<T>(
  runOnce: () => Promise<T>,
  outcomeOf: (run: T) => Outcome,
  policy: RepeatPolicy,
): Promise<Decision<T>> {
  const runs: { run: T; outcome: Outcome }[] = [];
  let yes = 0;
  while (runs.length < policy.repeat) {
    const run = await runOnce();
    const outcome = outcomeOf(run);
    runs.push({ run, outcome });
    if (outcome === "interesting") yes++;
    if (yes >= policy.need) break;
    if (yes + (policy.repeat - runs.length) < policy.need) break;
  }
  const disagreed = yes > 0 && yes < runs.length;
  if (yes >= policy.need) return { outcome: "interesting", runs, disagreed };
  const seen = new Set(runs.map((r) => r.outcome));
  const outcome = seen.has("timeout")
    ? "timeout"
    : seen.has("killed")
      ? "killed"
      : seen.has("unresolved")
        ? "unresolved"
        : "not-interesting";
  return { outcome, runs, disagreed };
}

/** What a repeated oracle has seen. */
export interface RepeatCounters {
  /** Candidates whose runs gave different answers. */
  disagreements: number;
  /** Runs beyond the first of each candidate. */
  extraRuns: number;
}

/** A test of one run, as the command oracle's `toOracle()` gives it. */
export type SingleTest = ((candidate: Uint8Array, signal: AbortSignal) => Promise<Outcome>) & {
  prepare?: (candidate: Uint8Array, nextIf?: NextIf) => void;
};

/**
 * `test` with every candidate decided by `policy`, counting disagreements in `counters`. Hints are
 * passed on without `nextIf`: a follow-up test starts on the exit status of the one before, which
 * is not the verdict once runs are repeated or judged.
 */
export function repeatedTest(test: SingleTest, policy: RepeatPolicy, counters: RepeatCounters): SingleTest {
  const repeated = async (candidate: Uint8Array, signal: AbortSignal): Promise<Outcome> => {
    const decision = await decide(
      () => test(candidate, signal),
      (outcome) => outcome,
      policy,
    );
    counters.extraRuns += decision.runs.length - 1;
    if (decision.disagreed) counters.disagreements++;
    return decision.outcome;
  };
  const prepare = test.prepare;
  return prepare === undefined
    ? repeated
    : Object.assign(repeated, { prepare: (candidate: Uint8Array) => prepare(candidate) });
}
