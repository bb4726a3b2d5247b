/**
 * What the reducer and its workers agree on through Redis: the queue's name, the job's data and
 * result, and the keys that say who is alive. Both sides import this module and nothing else of the
 * other.
 *
 * - The queue of a command is named after a digest of the command's words, so a worker only ever
 *   takes tests of its own command; it checks the digest each job carries all the same.
 * - Each worker sets `whittle:worker:<queue>:<id>` to its capacity and counts, with a short TTL,
 *   every HEARTBEAT_MS: the reducer sums the capacity of the keys alive (workers join and leave).
 * - Each run sets `whittle:run:<run id>` with a short TTL every HEARTBEAT_MS: a worker drops jobs
 *   of a run whose key has expired (the reducer died), and kills their tests.
 * - A run that no longer needs a running test publishes its job id on `whittle:cancel:<queue>`.
 */
import { createHash, randomBytes } from "node:crypto";

import type { Outcome } from "../outcome.js";

/** How often workers and runs renew their keys. */
export const HEARTBEAT_MS = 1000;
/** How long a worker's key lives without renewal: a worker silent this long counts as gone. */
export const WORKER_TTL_MS = 3000;
/** How long a run's key lives without renewal: a reducer silent this long counts as dead. */
export const RUN_TTL_MS = 5000;
/**
 * A worker's lock on its job lives this long without renewal (BullMQ renews it at half that); a job
 * whose worker died is moved back to the waiting list by another worker's stalled-job check, which
 * runs every STALLED_CHECK_MS.
 */
export const LOCK_MS = 5000;
export const STALLED_CHECK_MS = 2000;
/** How many times a job may lose its worker before BullMQ fails it. */
export const MAX_STALLED = 5;

/** The digest of a test command: SHA-256 of its words, as the user wrote them. */
export function commandDigest(command: readonly string[]): string {
  return createHash("sha256").update(JSON.stringify(command)).digest("hex");
}

/** The BullMQ queue of a command's tests. */
export function queueName(digest: string): string {
  return `whittle-${digest.slice(0, 16)}`;
}

export const workerKeyPrefix = (queue: string): string => `whittle:worker:${queue}:`;
export const runKey = (runId: string): string => `whittle:run:${runId}`;
export const cancelChannel = (queue: string): string => `whittle:cancel:${queue}`;

/** A fresh id for a run or a worker. */
export function newId(): string {
  return randomBytes(6).toString("hex");
}

/** What a job carries: one test of one run. */
export interface TestJobData {
  /** The run the test belongs to (its key must be alive for the test to run). */
  runId: string;
  /** commandDigest of the command the reducer names; the worker runs only its own. */
  digest: string;
  /** The candidate's file name (the input's). */
  fileName: string;
  /** The test's timeout in ms, or null for none. */
  timeoutMs: number | null;
  /** The candidate's bytes, base64. */
  candidate: string;
}

/** What a worker answers: how the test went, or that it dropped the job of a dead run. */
export type TestJobResult =
  | {
      kind: "ran";
      outcome: Outcome;
      exitCode: number | null;
      signal: string | null;
      durationMs: number;
      activeMs: number;
      timeoutMs: number | null;
      /** The worker that ran it (its id). */
      worker: string;
    }
  | { kind: "dropped"; worker: string };

/** What a worker's key holds. */
export interface WorkerBeat {
  id: string;
  host: string;
  pid: number;
  /** Its --jobs: tests it runs at once. */
  jobs: number;
  running: number;
  done: number;
}

/** The reason a worker gives when it refuses a job of another command (BullMQ's failedReason). */
export const REFUSED = "refused: the job's command is not the command this worker was started with";
