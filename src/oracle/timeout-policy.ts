/**
 * The per-test timeout when the user did not fix one (`--timeout`): derived from how long tests
 * actually take, so that a candidate that loops forever costs a fraction of a second when the tests
 * take milliseconds, and a slow machine or many parallel jobs do not cause spurious timeouts.
 *
 *     limit = max(FLOOR(load), K × max(q(interesting), q(not interesting)))
 *
 * - q(class) is a high quantile (Q) of the last WINDOW durations of tests with that outcome. The two
 *   classes are kept apart because interesting candidates are rare and often slower (the crash needs
 *   the whole program to run), so pooled they would vanish in the quantile of the uninteresting
 *   ones, and timing out an interesting candidate loses progress. Timeouts, killed and cancelled
 *   tests are not observations (their duration says nothing about the candidate).
 * - Load: the initial check runs alone, so its duration enters as an interesting observation
 *   multiplied by max(1, jobs / cpus) (with more jobs than cores each test gets a share of a core).
 *   Later observations are measured under the real load, and the window makes the quantile follow
 *   durations that drift up (a machine getting busier): the limit rises, and the oracle re-tests a
 *   candidate that timed out under the lower limit.
 * - While fewer than FEW durations are known, the factor is K_FEW (the old default's 10× the initial
 *   check) rather than K: the quantile of a handful of samples is just their maximum.
 *
 * The constants, from durations measured on the 2-core benchmark machine while other work kept it at
 * a load of 6–11 (`CommandOracle` with the bash runner, 200 KB candidates, 400–3,000 tests each):
 *
 *     test, jobs           median    p99     max
 *     2 ms oracle, 1        2.8 ms   10 ms   25 ms
 *     2 ms oracle, 8         16 ms   47 ms   93 ms
 *     2 ms oracle, 64        94 ms  326 ms  358 ms
 *     20 ms oracle, 1        26 ms   51 ms   71 ms
 *     20 ms oracle, 64      212 ms  394 ms  526 ms
 *
 * - Q 0.99 and K 2: in the rows where K matters (K × p99 above the floor) the maximum was at most
 *   1.34× the 99th percentile (2.5× in the 2 ms row at 1 job, under the floor). Replayed on the
 *   two 130 KB JavaScript cases at load 2–5 (bench/timeout-replay.ts on the --events of 967 and 822
 *   tests, bench/results/2026-11-27-timeout-replay), where the largest-nodes-first phase makes
 *   candidates that loop forever (45 and 29): K 3 spent 101 s and 52 s in them, K 2 67 s and 35 s,
 *   and no test that ended in time took more than 85 % of K 2's limit (K 1.5 cut one off).
 *   Replayed again with a 10-minute js-yaml run (bench/results/2026-12-02-timeouts-speculation):
 *   K 2 has 12.6 % of the slots' time in timeouts there, and only K 1.5 brings it under 10 %, but
 *   in 3 of the 6 recorded runs K 1.5 cuts off a test that would have ended in time, and one of
 *   those tests was interesting.
 * - FLOOR(load) = min(250 ms, 50 ms × (1 + load)), load = max(1, jobs / cpus, the machine's 1-minute
 *   load average / cpus): below it the quantile of fast tests is noise, and that noise is the
 *   scheduler's, so it grows with what each core is shared by (whittle's jobs, or other work).
 *   250 ms from 4 a core (2.7× the slowest 2 ms test at 8 jobs on 2 cores); 100 ms with no more than
 *   one a core (4× the slowest 2 ms test at 1 job). With a test of tens of milliseconds
 *   a hang is most of what it costs: on generated JavaScript with loops, answered by a simulated 15
 *   and 30 ms engine at 2 jobs on 2 cores, a flat 250 ms spent 11–17 % of the slots' time in
 *   timeouts, the load's floor 6–10 %, the same results and no more timeouts
 *   (bench/results/2026-11-27-timeout-floor).
 * - WINDOW 200, FEW 20: enough samples for a 99th percentile to mean something, few enough to follow
 *   a change within a couple of rounds.
 */
import type { Outcome } from "../outcome.js";

/** The floor on a busy machine (four or more jobs or runnable tasks a core), and its highest. */
export const BUSY_FLOOR_MS = 250;

export interface TimeoutPolicyOptions {
  /** Lower bound of the limit, in ms. Default min(250, 50 × (1 + max(1, jobs / cpus, loadAverage() / cpus))). */
  floorMs?: number;
  /** Multiple of the quantile. Default 2. */
  factor?: number;
  /** Multiple used while fewer than `few` durations are known. Default 10. */
  factorFew?: number;
  /** The quantile of observed durations. Default 0.99. */
  quantile?: number;
  /** How many recent durations of each class count. Default 200. */
  window?: number;
  /** Below this many observations (both classes), `factorFew` applies. Default 20. */
  few?: number;
  /** Tests run at once. Default 1. */
  jobs?: number;
  /** Cores available. Default 1. */
  cpus?: number;
  /** The machine's load average (runnable tasks), asked when the limit is worked out. Default 0. */
  loadAverage?: () => number;
  /** Upper bound of the limit, in ms. Default 300,000 (the initial check's own limit). */
  ceilingMs?: number;
}

/** Recent durations of one class of tests, oldest first overwritten. */
class Window {
  readonly #values: number[] = [];
  #next = 0;
  constructor(private readonly size: number) {}

  add(value: number): void {
    if (this.#values.length < this.size) this.#values.push(value);
    else this.#values[this.#next] = value;
    this.#next = (this.#next + 1) % this.size;
  }

  get count(): number {
    return this.#values.length;
  }

  /** The q-quantile (nearest rank); 0 when empty. */
  quantile(q: number): number {
    if (this.#values.length === 0) return 0;
    const sorted = [...this.#values].sort((a, b) => a - b);
    const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
    return sorted[rank]!;
  }
}

/** The adaptive limit. Pure: it only knows what it was told. */
export class TimeoutPolicy {
  readonly #floor: () => number;
  readonly #factor: number;
  readonly #factorFew: number;
  readonly #quantile: number;
  readonly #few: number;
  readonly #load: number;
  readonly #ceilingMs: number;
  readonly #interesting: Window;
  readonly #boring: Window;
  #limit: number | undefined;

  constructor(options: TimeoutPolicyOptions = {}) {
    const window = options.window ?? 200;
    const cpus = Math.max(1, options.cpus ?? 1);
    const load = Math.max(1, (options.jobs ?? 1) / cpus);
    const loadAverage = options.loadAverage;
    this.#floor =
      options.floorMs !== undefined
        ? () => options.floorMs!
        : () => Math.min(BUSY_FLOOR_MS, 50 * (1 + Math.max(load, (loadAverage?.() ?? 0) / cpus)));
    this.#factor = options.factor ?? 2;
    this.#factorFew = options.factorFew ?? 10;
    this.#quantile = options.quantile ?? 0.99;
    this.#few = options.few ?? 20;
    this.#load = load;
    this.#ceilingMs = options.ceilingMs ?? 300_000;
    this.#interesting = new Window(window);
    this.#boring = new Window(window);
  }

  /** Records the initial check (run alone, before the reduction): an interesting test, scaled by the load. */
  observeInitial(durationMs: number): void {
    this.observe("interesting", durationMs * this.#load);
  }

  /** Records a finished test. Only interesting and not-interesting outcomes count. */
  observe(outcome: Outcome, durationMs: number): void {
    if (!(durationMs >= 0)) return;
    if (outcome === "interesting") this.#interesting.add(durationMs);
    else if (outcome === "not-interesting") this.#boring.add(durationMs);
    else return;
    this.#limit = undefined;
  }

  /** The limit for a test starting now, in whole milliseconds. */
  limitMs(): number {
    if (this.#limit !== undefined) return this.#limit;
    const seen = this.#interesting.count + this.#boring.count;
    const factor = seen < this.#few ? this.#factorFew : this.#factor;
    const q = Math.max(this.#interesting.quantile(this.#quantile), this.#boring.quantile(this.#quantile));
    const limit = Math.max(this.#floor(), factor * q);
    this.#limit = Math.ceil(Math.min(this.#ceilingMs, limit));
    return this.#limit;
  }
}
