/**
 * --max-time and --max-tests: limits that end a run early, the way Ctrl-C does (by aborting the
 * run's signal), so the best result so far is delivered as at a normal end; the exit code is then
 * EXIT.limit.
 */
import { InvalidArgumentError } from "commander";
import type { ReductionEvent } from "../reduce/events.js";
import type { SingleTest } from "../oracle/repeat.js";
import { formatDuration } from "./progress.js";

/** The limits the command line sets (undefined: none). */
export interface RunLimitOptions {
  readonly maxTimeMs: number | undefined;
  readonly maxTests: number | undefined;
}

const UNIT_MS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };

/**
 * A duration such as `90s`, `10m`, `1h30m`, `1.5h` or `250ms`, in ms; a bare number is seconds.
 * Each unit at most once, from the largest to the smallest; the total must be positive.
 */
export function parseDuration(text: string): number {
  const bad = (): never => {
    throw new InvalidArgumentError(
      "must be a duration greater than 0, such as 90s, 10m, 1h30m or 250ms (a bare number is seconds).",
    );
  };
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) {
    const ms = Math.round(Number(trimmed) * 1000);
    return ms > 0 ? ms : bad();
  }
  const part = /(\d+(?:\.\d+)?)(ms|h|m|s)/y;
  const order = ["h", "m", "s", "ms"];
  let last = -1;
  let total = 0;
  part.lastIndex = 0;
  while (part.lastIndex < trimmed.length) {
    const match = part.exec(trimmed);
    if (match === null) return bad();
    const rank = order.indexOf(match[2]!);
    if (rank <= last) return bad(); // "10s5m", "1h1h"
    last = rank;
    total += Number(match[1]) * UNIT_MS[match[2]!]!;
  }
  const ms = Math.round(total);
  return last >= 0 && ms > 0 ? ms : bad();
}

/** A count of at least 1, written in decimal digits. */
export function parseTestCount(text: string): number {
  const trimmed = text.trim();
  const n = Number(trimmed);
  if (!/^\d+$/.test(trimmed) || !Number.isSafeInteger(n) || n < 1) {
    throw new InvalidArgumentError("must be a whole number of tests, at least 1.");
  }
  return n;
}

/** The reason a run's signal is aborted with when a limit ends it. */
export class LimitReached extends Error {
  constructor(
    /** The option, as the user writes it. */
    readonly option: "--max-time" | "--max-tests",
    /** The limit as given, for messages: "--max-tests 5", "--max-time 1 min 30 s". */
    readonly text: string,
  ) {
    super(`stopped by ${text}`);
  }
}

/** The limit that ended a run stopped with `reason` (a signal's reason), if one did. */
export function limitOf(reason: unknown): LimitReached | undefined {
  return reason instanceof LimitReached ? reason : undefined;
}

/**
 * Watches a run against its limits and aborts `controller` with LimitReached when one is reached.
 * A test is one run of the test command: the initial check of the original (countInitial), the
 * reduction's check of the empty input ("check" events) and every test it makes ("test-start").
 * With --max-tests N, the run stops when the N-th test has ended and no other is running; a test
 * that would start beyond N (with -j, beside the N-th) is cancelled before its command starts.
 */
export class RunLimits {
  #runs = 0;
  #running = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly limits: RunLimitOptions,
    private readonly controller: AbortController,
  ) {}

  /** Starts the --max-time clock: the whole run counts, from here. */
  start(): void {
    const ms = this.limits.maxTimeMs;
    if (ms === undefined) return;
    this.#timer = setTimeout(() => this.#stop("--max-time", `--max-time ${formatDuration(ms)}`), ms);
    this.#timer.unref(); // the limit never keeps whittle alive
  }

  /** The initial check of the original is about to run (once, or again after a pause). */
  initialStarting(): void {
    this.#runs++;
  }

  /** The initial check has ended: with --max-tests 1, nothing more runs. */
  initialEnded(): void {
    this.#checkCount();
  }

  /** The reduction's events: counts its tests (see the class comment). */
  readonly listener = (event: ReductionEvent): void => {
    switch (event.type) {
      case "check":
        // The check of the empty input runs alone: nothing else is running when its answer comes.
        if (event.what === "empty") {
          this.#runs++;
          this.#checkCount();
        }
        break;
      case "test-start":
        this.#runs++;
        this.#running++;
        // Beyond the limit: the signal is aborted before the oracle is called, so it never starts.
        if (this.limits.maxTests !== undefined && this.#runs > this.limits.maxTests) {
          this.#runs--;
          this.#stopTests();
        }
        break;
      case "test-end":
        this.#running--;
        this.#checkCount();
        break;
    }
  };

  /** Test commands run so far, the initial check included. */
  get runs(): number {
    return this.#runs;
  }

  /**
   * `test` for a run with --max-tests: its hints write candidates ahead, but never queue a follow-up
   * (`nextIf`), and stop once the test has run as often as allowed. A follow-up starts in the runner
   * the moment the test before it ends, before whittle hears of that end, so its start cannot be
   * refused at `test-start` as every other run's is: with several jobs, follow-ups queued while
   * runs were left could all start after the last allowed run (seen: 8 runs with --max-tests 7, -j 3).
   */
  gate(test: SingleTest): SingleTest {
    const max = this.limits.maxTests;
    const prepare = test.prepare;
    if (max === undefined || prepare === undefined) return test;
    return Object.assign((candidate: Uint8Array, signal: AbortSignal) => test(candidate, signal), {
      prepare: (candidate: Uint8Array) => {
        if (this.#runs < max) prepare(candidate);
      },
    });
  }

  /** The limit that stopped the run, if one did. */
  get reached(): LimitReached | undefined {
    return limitOf(this.controller.signal.reason);
  }

  /** Stops the --max-time clock. */
  dispose(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #checkCount(): void {
    const max = this.limits.maxTests;
    if (max !== undefined && this.#runs >= max && this.#running === 0) this.#stopTests();
  }

  #stopTests(): void {
    this.#stop("--max-tests", `--max-tests ${this.limits.maxTests}`);
  }

  #stop(option: LimitReached["option"], text: string): void {
    if (this.controller.signal.aborted) return;
    this.dispose();
    this.controller.abort(new LimitReached(option, text));
  }
}
