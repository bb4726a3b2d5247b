/**
 * The reducer's side of the queue: sends each test to Redis as a BullMQ job and waits for a worker's
 * answer, with as many tests in flight as the workers can take (the sum of their --jobs, read again
 * every second), or a fixed number.
 *
 * What survives the network:
 * - a test the round no longer needs: a waiting job is removed; a running one is cancelled through
 *   the cancel channel, and its worker kills the test;
 * - a worker that dies mid-test: BullMQ moves its job back to the waiting list (stalled), another
 *   worker runs it, and this side sees one answer: the test counts once;
 * - a job lost with its data (Redis restarted without persistence): found missing on two sweeps in a
 *   row, and added again;
 * - this side dying: the run's key expires within RUN_TTL_MS, and workers drop its jobs and kill its
 *   tests.
 */
import { Queue, QueueEvents } from "bullmq";
import type { Redis } from "ioredis";

import type { CommandRun } from "../oracle/command.js";
import type { BrokerAddress } from "./address.js";
import { Slots } from "../slots.js";
import {
  cancelChannel,
  commandDigest,
  HEARTBEAT_MS,
  newId,
  queueName,
  REFUSED,
  runKey,
  RUN_TTL_MS,
  workerKeyPrefix,
  type TestJobData,
  type TestJobResult,
  type WorkerBeat,
} from "./protocol.js";
import {
  CLOSE_LIMIT_MS,
  connect,
  keysWithPrefix,
  loginError,
  whenRefused,
  within,
  type Say,
} from "./redis.js";

/** A job this run waits for. */
interface Pending {
  readonly data: TestJobData;
  resolve(result: TestJobResult): void;
  reject(error: unknown): void;
  state: "queued" | "running";
  /** Sweeps in a row that found the job missing from Redis. */
  missing: number;
  /** The run no longer wants the answer (cancelled): the slot is freed when the job is gone. */
  cancelled: boolean;
}

/** What the queue looks like from this run, for the progress line and --stats. */
export interface QueueStatus {
  /** Workers connected for this command, and the tests they take at once. */
  workers: number;
  capacity: number;
  /** Workers connected to the same Redis for another command (they take none of these tests). */
  otherWorkers: number;
  /** The limit of tests in flight now: -j, or the workers' capacity. */
  limit: number;
  queued: number;
  running: number;
  done: number;
  /** Tests answered, by worker (host and id). */
  byWorker: Record<string, number>;
  /** Jobs added again after Redis lost them. */
  resubmitted: number;
  /** Jobs removed or killed because the round no longer needed them. */
  cancelled: number;
}

export interface QueueClientOptions {
  address: BrokerAddress;
  /** The test command as the user wrote it: its digest names the queue and goes with every job. */
  command: readonly string[];
  fileName: string;
  /** Tests in flight at most (-j); undefined: the connected workers' capacity. */
  jobs: number | undefined;
  say: Say;
}

export class QueueClient {
  readonly runId = newId();
  readonly queue: string;
  /** The broker's URL, password masked. */
  readonly shown: string;
  readonly #o: QueueClientOptions;
  readonly #digest: string;
  readonly #client: Redis;
  readonly #bull: Queue<TestJobData, TestJobResult>;
  #events: QueueEvents | undefined;
  readonly #pending = new Map<string, Pending>();
  /** Tests in flight stay within the limit, and are let in in the order asked. */
  readonly #slots = new Slots(() => this.#limit());
  #seq = 0;
  #workers: WorkerBeat[] = [];
  #others = 0;
  #done = 0;
  #resubmitted = 0;
  #cancelled = 0;
  readonly #byWorker = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;
  #saidWorkers: string | undefined;
  #closed = false;

  private constructor(options: QueueClientOptions) {
    this.#o = options;
    this.#digest = commandDigest(options.command);
    this.queue = queueName(this.#digest);
    this.shown = options.address.shown;
    this.#client = connect(options.address, options.say, "reducer", () => void this.#tick());
    this.#bull = new Queue<TestJobData, TestJobResult>(this.queue, { connection: this.#client });
    this.#bull.on("error", () => undefined);
  }

  /**
   * Connects (waiting for Redis, with a message, if it is not there yet) and starts the heartbeat.
   * Rejects with `signal`'s reason if it aborts first, leaving no connection open.
   */
  static async open(options: QueueClientOptions, signal?: AbortSignal): Promise<QueueClient> {
    const client = new QueueClient(options);
    const started = client.#start();
    started.catch(() => undefined);
    const stopped = new Promise<never>((_, reject) => {
      if (signal?.aborted) reject(signal.reason);
      signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
    });
    stopped.catch(() => undefined);
    try {
      await Promise.race([started, stopped, whenRefused(client.#client)]);
    } catch (error) {
      await client.close();
      throw loginError(error, options.address, client.#client) ?? error;
    }
    return client;
  }

  async #start(): Promise<void> {
    await this.#client.set(runKey(this.runId), "1", "PX", RUN_TTL_MS);
    // Events from now on: the stream's last id, so that no answer to a job added later is missed.
    const last = await this.#client.xrevrange(`bull:${this.queue}:events`, "+", "-", "COUNT", 1);
    // Closed meanwhile (interrupted while connecting): nothing more may be opened.
    if (this.#closed) return;
    const events = new QueueEvents(this.queue, {
      connection: this.#client,
      lastEventId: last[0]?.[0] ?? "0",
    });
    events.on("error", () => undefined);
    events.on("completed", ({ jobId, returnvalue }) => {
      const value = (
        typeof returnvalue === "string" ? JSON.parse(returnvalue) : returnvalue
      ) as TestJobResult;
      this.#settle(jobId, (p) => p.resolve(value));
    });
    events.on("failed", ({ jobId, failedReason }) => {
      const why =
        failedReason === REFUSED
          ? `a worker refused the test: ${REFUSED}`
          : `the test failed on its worker: ${failedReason}`;
      this.#settle(jobId, (p) => p.reject(new Error(why)));
    });
    events.on("active", ({ jobId }) => {
      const pending = this.#pending.get(jobId);
      if (pending) pending.state = "running";
    });
    this.#events = events;
    await events.waitUntilReady();
    await this.#tick();
    // A heartbeat started after close() would keep the process alive for ever.
    if (this.#closed) return;
    this.#timer = setInterval(() => void this.#tick(), HEARTBEAT_MS);
  }

  /**
   * Runs one test on a worker: resolves with its run as the local runner reports it (no output
   * tail), or rejects with `signal.reason` once the signal aborts (the job is then removed, or its
   * test killed, in the background; its slot is freed when the job is gone).
   */
  async run(
    content: Uint8Array,
    signal: AbortSignal | undefined,
    limitMs: number | undefined,
  ): Promise<CommandRun> {
    const data: TestJobData = {
      runId: this.runId,
      digest: this.#digest,
      fileName: this.#o.fileName,
      timeoutMs: limitMs !== undefined && Number.isFinite(limitMs) ? limitMs : null,
      candidate: Buffer.from(content.buffer, content.byteOffset, content.length).toString("base64"),
    };
    for (;;) {
      signal?.throwIfAborted();
      const result = await this.#once(data, signal);
      if (result.kind === "ran") {
        this.#countAnswer(result.worker);
        return {
          outcome: result.outcome,
          exitCode: result.exitCode,
          signal: result.signal as NodeJS.Signals | null,
          outputTail: "",
          durationMs: result.durationMs,
          activeMs: result.activeMs,
          cancelled: signal?.aborted ?? false,
          ...(result.timeoutMs !== null ? { timeoutMs: result.timeoutMs } : {}),
        };
      }
      // Dropped: a worker found this run's key missing (Redis restarted and lost it), though the
      // run is alive: the key is set again and the test goes to the queue once more.
      this.#resubmitted++;
      await this.#client.set(runKey(this.runId), "1", "PX", RUN_TTL_MS);
    }
  }

  /** One job: a slot, the job added, its answer (or the signal's reason). */
  async #once(data: TestJobData, signal: AbortSignal | undefined): Promise<TestJobResult> {
    if (!(await this.#slots.acquire(signal))) throw signal!.reason;
    const jobId = `${this.runId}-${++this.#seq}`;
    const answer = new Promise<TestJobResult>((resolve, reject) => {
      this.#pending.set(jobId, { data, resolve, reject, state: "queued", missing: 0, cancelled: false });
    });
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => {
        void this.#cancel(jobId);
        reject(signal!.reason);
      };
    });
    aborted.catch(() => undefined);
    if (signal && onAbort) {
      signal.addEventListener("abort", onAbort, { once: true });
      if (signal.aborted) onAbort();
    }
    try {
      await this.#add(jobId, data).catch((error: unknown) => this.#settle(jobId, (p) => p.reject(error)));
      return await Promise.race([answer, aborted]);
    } finally {
      if (onAbort) signal?.removeEventListener("abort", onAbort);
    }
  }

  async #add(jobId: string, data: TestJobData): Promise<void> {
    await this.#bull.add("test", data, {
      jobId,
      attempts: 1,
      removeOnComplete: true,
      removeOnFail: true,
    });
  }

  /** The round no longer needs the job: remove it if it waits, else have its worker kill the test. */
  async #cancel(jobId: string): Promise<void> {
    const pending = this.#pending.get(jobId);
    if (!pending || pending.cancelled) return;
    pending.cancelled = true;
    this.#cancelled++;
    try {
      if ((await this.#bull.remove(jobId)) === 1) {
        this.#settle(jobId, () => undefined);
        return;
      }
      await this.#client.publish(cancelChannel(this.queue), jobId);
    } catch {
      // Redis is away: the sweep frees the slot once the job is found gone
    }
  }

  /** The job is answered (or gone): hand its pending entry to `how`, and free its slot. */
  #settle(jobId: string, how: (pending: Pending) => void): void {
    const pending = this.#pending.get(jobId);
    if (!pending) return;
    this.#pending.delete(jobId);
    this.#slots.release();
    if (!pending.cancelled) this.#done++;
    how(pending);
  }

  #limit(): number {
    return this.#o.jobs ?? this.#workers.reduce((sum, w) => sum + w.jobs, 0);
  }

  /** Every HEARTBEAT_MS: renew the run's key, read the workers' keys, look for lost jobs. */
  async #tick(): Promise<void> {
    if (this.#closed) return;
    try {
      await this.#client.set(runKey(this.runId), "1", "PX", RUN_TTL_MS);
      await this.#readWorkers();
      this.#slots.pump();
      await this.#sweep();
    } catch {
      // Redis is away: said by connect(); the next tick tries again
    }
  }

  async #readWorkers(): Promise<void> {
    const all = await keysWithPrefix(this.#client, "whittle:worker:");
    const mine = all.filter((key) => key.startsWith(workerKeyPrefix(this.queue)));
    const values = mine.length > 0 ? await this.#client.mget(...mine) : [];
    this.#workers = values.flatMap((v) => {
      if (v === null) return [];
      try {
        return [JSON.parse(v) as WorkerBeat];
      } catch {
        return [];
      }
    });
    this.#others = all.length - mine.length;
    const capacity = this.#workers.reduce((sum, w) => sum + w.jobs, 0);
    const text =
      `${this.#workers.length} worker${this.#workers.length === 1 ? "" : "s"} connected for this command` +
      ` (${capacity} tests at once)` +
      (this.#others > 0
        ? `; ${this.#others === 1 ? "1 other worker runs" : `${this.#others} other workers run`} another command`
        : "");
    if (text !== this.#saidWorkers) {
      this.#saidWorkers = text;
      const waiting = this.#workers.length === 0 ? ": tests wait in the queue until a worker comes" : "";
      this.#o.say(`${text}${waiting}`);
    }
  }

  /** Jobs Redis no longer has (a restart without persistence): added again, or let go if cancelled. */
  async #sweep(): Promise<void> {
    const entries = [...this.#pending.entries()];
    if (entries.length === 0) return;
    const states = await Promise.all(entries.map(([id]) => this.#bull.getJobState(id)));
    for (let i = 0; i < entries.length; i++) {
      const [jobId, pending] = entries[i]!;
      if (this.#pending.get(jobId) !== pending) continue;
      const state = states[i]!;
      if (state === "active") pending.state = "running";
      if (state !== "unknown") {
        pending.missing = 0;
        continue;
      }
      // Twice in a row: not a job that was just answered, whose answer is on its way.
      if (++pending.missing < 2) continue;
      if (pending.cancelled) {
        this.#settle(jobId, () => undefined);
        continue;
      }
      pending.missing = 0;
      pending.state = "queued";
      this.#resubmitted++;
      await this.#add(jobId, pending.data);
    }
  }

  status(): QueueStatus {
    let running = 0;
    for (const p of this.#pending.values()) if (p.state === "running" && !p.cancelled) running++;
    let queued = 0;
    for (const p of this.#pending.values()) if (p.state === "queued" && !p.cancelled) queued++;
    return {
      workers: this.#workers.length,
      capacity: this.#workers.reduce((sum, w) => sum + w.jobs, 0),
      otherWorkers: this.#others,
      limit: this.#limit(),
      queued,
      running,
      done: this.#done,
      byWorker: Object.fromEntries(this.#byWorker),
      resubmitted: this.#resubmitted,
      cancelled: this.#cancelled,
    };
  }

  /** Notes which worker answered (for the per-worker counts). */
  #countAnswer(worker: string): void {
    const beat = this.#workers.find((w) => w.id === worker);
    const name = beat ? `${beat.host}/${worker}` : worker;
    this.#byWorker.set(name, (this.#byWorker.get(name) ?? 0) + 1);
  }

  /**
   * Ends the run: removes its waiting jobs, has workers kill its running tests (its key goes, so
   * they drop whatever of it is left), and closes the connections.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#timer);
    this.#slots.wakeAll();
    // With Redis away, these would wait for it: the run's key then expires on its own.
    if (this.#client.status === "ready") {
      const ids = [...this.#pending.keys()];
      await within(CLOSE_LIMIT_MS, Promise.all(ids.map((id) => this.#cancel(id))));
      await within(CLOSE_LIMIT_MS, this.#client.del(runKey(this.runId)));
    }
    await within(CLOSE_LIMIT_MS, this.#events?.close());
    await within(CLOSE_LIMIT_MS, this.#bull.close());
    this.#client.disconnect();
  }
}
