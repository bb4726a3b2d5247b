/**
 * How many tests run at once when `-j` is not given. Every core, unless the test is too quick for
 * a second slot to pay for itself: then one at a time.
 *
 * A parallel test saves at most its own duration, and only when its answer is used; it always
 * costs whittle's own work around a test (writing the candidate, starting the process, reading
 * the answer), and speculative tests whose answers are not used count as tests. When the test
 * takes about as long as that work, a second slot buys no time and adds tests; one job also lets
 * the command oracle queue the next candidate behind the running test (follow-ups), which parallel
 * runs cannot. Measured on this machine with the three shared text cases and an oracle made slower
 * step by step (bench/results/2026-12-08-jobs-speculation, burn.sh): with the original's check at
 * 46 ms, -j 2 took 3 % more wall time than -j 1 and 19 % more tests; at 51–54 ms 6 % less time.
 * Not from the papers.
 */
export const QUICK_TEST_MS = 50;

/** The jobs of a run without -j, and why, when the test's speed decided it. */
export interface JobsChoice {
  readonly jobs: number;
  /** Set when the test is quick and one job was chosen over `cpus`. */
  readonly quickMs?: number;
}

/**
 * The default -j: `cpus` tests at once, or one when the check of the original took less than
 * QUICK_TEST_MS (`checkMs`, its active time: the duration of a test whittle starts on its own).
 */
export function defaultJobs(checkMs: number, cpus: number): JobsChoice {
  if (cpus > 1 && checkMs < QUICK_TEST_MS) return { jobs: 1, quickMs: checkMs };
  return { jobs: Math.max(1, cpus) };
}
