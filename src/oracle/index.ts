import type { NextIf, Outcome } from "../outcome.js";
import { CommandOracle, type CommandOracleOptions, type CommandRun } from "./command.js";

export type { CommandOracleOptions, CommandRun } from "./command.js";

/** An oracle that runs an external command: callable as an `Oracle`, with the full run on demand. */
export interface RunnableOracle {
  (candidate: Uint8Array, signal: AbortSignal): Promise<Outcome>;
  /** Runs the test once and returns everything about the run (exit code, output tail, duration). */
  run(candidate: Uint8Array, signal?: AbortSignal): Promise<CommandRun>;
  /** Releases what the oracle holds between tests; call it when the reduction is over. */
  close(): Promise<void>;
  /**
   * Writes a candidate that will probably be tested soon ahead of its test; with `nextIf`, queues its
   * test to start the moment the running one ends with that answer (see `Oracle`).
   */
  prepare(candidate: Uint8Array, nextIf?: NextIf): void;
}

/**
 * An oracle for `reduce()` that runs `options.command` on each candidate, in a fresh temporary
 * directory, in its own process group (killed with everything it started on timeout or cancel).
 *
 * ```ts
 * const oracle = commandOracle({ command: ["./check.sh", "{}"], fileName: "crash.c", timeoutMs: 10_000 });
 * try { await reduce(input, oracle); } finally { await oracle.close(); }
 * ```
 */
export function commandOracle(options: CommandOracleOptions): RunnableOracle {
  const oracle = new CommandOracle(options);
  return Object.assign(oracle.toOracle(), {
    run: (candidate: Uint8Array, signal?: AbortSignal) => oracle.run(candidate, signal),
    close: () => oracle.close(),
  });
}
