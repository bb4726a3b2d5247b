/**
 * The queue as an oracle: the same surface as the local command oracle (CommandOracle's `run`,
 * `toOracle`, `counters`, `timeoutLimitMs`, `close`), so that the reducer and its algorithms are
 * unchanged whether tests run here or on workers. The timeout is decided here, per test, as the
 * local runner decides it (fixed, or the adaptive policy's limit when the test starts), and goes
 * with the job; a test that timed out is repeated once if the adaptive limit has risen meanwhile.
 */
import type { CommandRun, OracleCounters } from "../oracle/command.js";
import type { TimeoutPolicy } from "../oracle/timeout-policy.js";
import type { Outcome } from "../outcome.js";
import type { Oracle } from "../reduce/evaluator.js";
import type { QueueClient } from "./client.js";

export interface QueueOracleOptions {
  timeoutMs?: number | undefined;
  timeoutPolicy?: TimeoutPolicy | undefined;
}

export class QueueOracle {
  readonly counters: OracleCounters = {
    runs: 0,
    retests: 0,
    timeouts: 0,
    timeoutMs: 0,
    followUps: 0,
    unused: 0,
  };
  readonly #client: QueueClient;
  readonly #timeoutMs: number | undefined;
  readonly #policy: TimeoutPolicy | undefined;

  constructor(client: QueueClient, options: QueueOracleOptions = {}) {
    this.#client = client;
    this.#timeoutMs = options.timeoutMs;
    this.#policy = options.timeoutMs === undefined ? options.timeoutPolicy : undefined;
  }

  timeoutLimitMs(): number | undefined {
    return this.#timeoutMs ?? this.#policy?.limitMs();
  }

  async run(content: Uint8Array, signal?: AbortSignal): Promise<CommandRun> {
    const first = await this.#runOnce(content, signal, this.timeoutLimitMs());
    if (first.outcome !== "timeout" || this.#policy === undefined) return first;
    const limit = this.#policy.limitMs();
    if (first.timeoutMs === undefined || limit <= first.timeoutMs) return first;
    this.counters.retests++;
    return this.#runOnce(content, signal, limit);
  }

  async #runOnce(
    content: Uint8Array,
    signal: AbortSignal | undefined,
    limitMs: number | undefined,
  ): Promise<CommandRun> {
    const run = await this.#client.run(content, signal, limitMs);
    this.counters.runs++;
    if (run.outcome === "timeout") {
      this.counters.timeouts++;
      this.counters.timeoutMs += run.activeMs;
    } else if (!run.cancelled) {
      this.#policy?.observe(run.outcome, run.activeMs);
    }
    return run;
  }

  /** The oracle `reduce()` calls: the outcome of one test through the queue. */
  toOracle(): Oracle {
    return async (candidate: Uint8Array, signal: AbortSignal): Promise<Outcome> =>
      (await this.run(candidate, signal)).outcome;
  }

  /** Nothing of its own to release: the client is closed by whoever opened it. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}
