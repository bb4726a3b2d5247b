/**
 * The worker side of the queue: takes tests of one command from Redis and runs them with the local
 * runner (CommandOracle: a directory of its own per test, its own process group, the job's timeout,
 * the candidate under the input's file name), `jobs` at a time.
 *
 * A job runs only if it carries the digest of this worker's own command (otherwise it is refused
 * and fails), and only while its run's key is alive (otherwise it is dropped, and a running test of
 * it is killed). A cancel message for a running job kills its test. Stopping the worker (stop())
 * kills its tests and moves their jobs back to the waiting list at once, for another worker; a
 * worker killed outright loses its jobs' locks and BullMQ moves them back after LOCK_MS.
 */
import { hostname } from "node:os";

import { Job, UnrecoverableError, WaitingError, Worker } from "bullmq";
import type { Redis } from "ioredis";

import { isValidUtf8 } from "../atoms/atoms.js";
import { CommandOracle, type CommandOracleOptions } from "../oracle/command.js";
import type { Outcome } from "../outcome.js";
import type { BrokerAddress } from "./address.js";
import {
  cancelChannel,
  commandDigest,
  HEARTBEAT_MS,
  LOCK_MS,
  MAX_STALLED,
  newId,
  queueName,
  REFUSED,
  runKey,
  STALLED_CHECK_MS,
  WORKER_TTL_MS,
  workerKeyPrefix,
  type TestJobData,
  type TestJobResult,
  type WorkerBeat,
} from "./protocol.js";
import { CLOSE_LIMIT_MS, connect, within, type Say } from "./redis.js";

export interface TestWorkerOptions {
  address: BrokerAddress;
  /** The command as the user wrote it (its digest must match the jobs'). */
  command: readonly string[];
  /** The same with its program resolved to an absolute path: what runs. */
  resolved: readonly string[];
  /** Tests run at once. */
  jobs: number;
  /** Where each test's directory goes, the run's process-group tracker and descriptor (lifecycle.ts). */
  local: Pick<CommandOracleOptions, "tmpRoot" | "groups" | "inheritFd" | "env">;
  /** Messages for the user (one line each). */
  say: Say;
  /** Say each test (on by default). */
  verbose?: boolean;
}

/** What a worker has done. */
export interface WorkerTotals {
  ran: number;
  byOutcome: Partial<Record<Outcome, number>>;
  cancelled: number;
  refused: number;
  dropped: number;
  /** Jobs handed back to the queue when the worker stopped. */
  handedBack: number;
}

/** How long stopping waits for the running tests to die (SIGTERM, 1 s grace, SIGKILL, reaping). */
const STOP_TESTS_MS = 6000;

/** A running job: how to kill its test, and its run. */
interface Running {
  readonly controller: AbortController;
  readonly runId: string;
  readonly job: Job<TestJobData, TestJobResult>;
  readonly token: string | undefined;
}

export class TestWorker {
  readonly id = newId();
  readonly digest: string;
  readonly queue: string;
  readonly totals: WorkerTotals = {
    ran: 0,
    byOutcome: {},
    cancelled: 0,
    refused: 0,
    dropped: 0,
    handedBack: 0,
  };
  readonly #o: TestWorkerOptions;
  readonly #client: Redis;
  readonly #subscriber: Redis;
  readonly #worker: Worker<TestJobData, TestJobResult>;
  /** One runner per file name (the input's): usually one. */
  readonly #oracles = new Map<string, CommandOracle>();
  readonly #running = new Map<string, Running>();
  readonly #beat: NodeJS.Timeout;
  #stopping = false;

  constructor(options: TestWorkerOptions) {
    this.#o = options;
    this.digest = commandDigest(options.command);
    this.queue = queueName(this.digest);
    const say = options.say;
    this.#client = connect(options.address, say, "worker", () => void this.#heartbeat());
    // Subscribed connections can issue no other command; errors are said by the main one.
    this.#subscriber = connect(options.address, () => undefined, "worker-cancel");
    this.#subscriber.on("message", (_channel: string, jobId: string) => this.#kill(jobId, "cancelled"));
    void this.#subscriber.subscribe(cancelChannel(this.queue)).catch(() => undefined);
    this.#worker = new Worker<TestJobData, TestJobResult>(
      this.queue,
      (job, token, signal) => this.#process(job, token, signal),
      {
        connection: this.#client,
        concurrency: options.jobs,
        lockDuration: LOCK_MS,
        stalledInterval: STALLED_CHECK_MS,
        maxStalledCount: MAX_STALLED,
      },
    );
    // BullMQ reports connection trouble here too; the client's own messages already say it.
    this.#worker.on("error", () => undefined);
    this.#beat = setInterval(() => void this.#heartbeat(), HEARTBEAT_MS);
  }

  /** Stops: takes no more jobs, kills the running tests and hands their jobs back to the queue. */
  async stop(): Promise<void> {
    if (this.#stopping) return;
    this.#stopping = true;
    clearInterval(this.#beat);
    for (const jobId of this.#running.keys()) this.#kill(jobId, "worker stopping");
    // Each processor hands its job back as its test dies; with Redis away, nothing is waited for
    // long (the jobs' locks then expire, and BullMQ hands them back itself).
    const closing = this.#worker.close();
    const end = Date.now() + STOP_TESTS_MS;
    while (this.#running.size > 0 && Date.now() < end) await new Promise((done) => setTimeout(done, 20));
    await within(CLOSE_LIMIT_MS, closing);
    if (this.#client.status === "ready") {
      await within(CLOSE_LIMIT_MS, this.#client.del(`${workerKeyPrefix(this.queue)}${this.id}`));
    }
    await Promise.all([...this.#oracles.values()].map((oracle) => oracle.close()));
    this.#subscriber.disconnect();
    this.#client.disconnect();
  }

  async #process(
    job: Job<TestJobData, TestJobResult>,
    token: string | undefined,
    bullSignal: AbortSignal | undefined,
  ): Promise<TestJobResult> {
    const data = job.data;
    const id = job.id ?? "?";
    if (data.digest !== this.digest) {
      this.totals.refused++;
      this.#o.say(`refused job ${id}: ${REFUSED}`);
      throw new UnrecoverableError(REFUSED);
    }
    const problem = invalidJob(data);
    if (problem !== undefined) {
      this.totals.refused++;
      this.#o.say(`refused job ${id}: ${problem}`);
      throw new UnrecoverableError(`refused: ${problem}`);
    }
    if ((await this.#client.exists(runKey(data.runId))) === 0) {
      this.totals.dropped++;
      if (this.#o.verbose !== false) this.#o.say(`dropped job ${id}: its run ${data.runId} is gone`);
      return { kind: "dropped", worker: this.id };
    }
    const controller = new AbortController();
    const onBullAbort = (): void => controller.abort(new Error("cancelled by BullMQ"));
    bullSignal?.addEventListener("abort", onBullAbort, { once: true });
    this.#running.set(id, { controller, runId: data.runId, job, token });
    const candidate = Buffer.from(data.candidate, "base64");
    try {
      const run = await this.#oracle(data.fileName).run(
        candidate,
        controller.signal,
        data.timeoutMs ?? Number.POSITIVE_INFINITY,
      );
      this.totals.ran++;
      this.totals.byOutcome[run.outcome] = (this.totals.byOutcome[run.outcome] ?? 0) + 1;
      if (this.#o.verbose !== false) {
        const text = isValidUtf8(candidate) ? "" : " (binary)";
        this.#o.say(
          `ran job ${id}: ${data.fileName}, ${candidate.length} B${text}: ${run.outcome} in ${(run.durationMs / 1000).toFixed(2)} s`,
        );
      }
      return {
        kind: "ran",
        outcome: run.outcome,
        exitCode: run.exitCode,
        signal: run.signal,
        durationMs: run.durationMs,
        activeMs: run.activeMs,
        timeoutMs: run.timeoutMs ?? null,
        worker: this.id,
      };
    } catch (error) {
      if (!controller.signal.aborted) throw error;
      if (this.#stopping) {
        // Back to the waiting list for another worker, not failed: the run still needs it.
        await job.moveToWait(token).catch(() => undefined);
        this.totals.handedBack++;
        throw new WaitingError();
      }
      this.totals.cancelled++;
      const why = controller.signal.reason instanceof Error ? controller.signal.reason.message : "cancelled";
      if (this.#o.verbose !== false) this.#o.say(`killed job ${id}'s test: ${why}`);
      throw new Error(`killed: ${why}`);
    } finally {
      bullSignal?.removeEventListener("abort", onBullAbort);
      this.#running.delete(id);
    }
  }

  #oracle(fileName: string): CommandOracle {
    let oracle = this.#oracles.get(fileName);
    if (oracle === undefined) {
      oracle = new CommandOracle({
        ...this.#o.local,
        command: this.#o.resolved,
        fileName,
        captureOutput: false,
        recycleDirectories: true,
      });
      this.#oracles.set(fileName, oracle);
    }
    return oracle;
  }

  #kill(jobId: string, why: string): void {
    this.#running.get(jobId)?.controller.abort(new Error(why));
  }

  /** Renews this worker's key, and kills the tests of runs whose key has expired. */
  async #heartbeat(): Promise<void> {
    if (this.#stopping) return;
    const beat: WorkerBeat = {
      id: this.id,
      host: hostname(),
      pid: process.pid,
      jobs: this.#o.jobs,
      running: this.#running.size,
      done: this.totals.ran,
    };
    try {
      await this.#client.set(
        `${workerKeyPrefix(this.queue)}${this.id}`,
        JSON.stringify(beat),
        "PX",
        WORKER_TTL_MS,
      );
      const running = [...this.#running.entries()];
      if (running.length === 0) return;
      const alive = await Promise.all(running.map(([, r]) => this.#client.exists(runKey(r.runId))));
      running.forEach(([jobId], i) => {
        if (alive[i] === 0) this.#kill(jobId, "its run is gone");
      });
    } catch {
      // the connection is down: said by connect(), and the next beat tries again
    }
  }
}

/** Why a job's data cannot be run (a job not written by whittle), or undefined. */
function invalidJob(data: TestJobData): string | undefined {
  if (typeof data.runId !== "string" || !/^[0-9a-f]{1,64}$/.test(data.runId)) return "no valid run id";
  if (
    typeof data.fileName !== "string" ||
    data.fileName === "" ||
    data.fileName === "." ||
    data.fileName === ".."
  )
    return "no valid file name";
  if (/[/\0]/.test(data.fileName)) return "the file name is not a plain file name";
  if (data.timeoutMs !== null && !(typeof data.timeoutMs === "number" && data.timeoutMs > 0))
    return "no valid timeout";
  if (typeof data.candidate !== "string") return "no candidate";
  return undefined;
}
