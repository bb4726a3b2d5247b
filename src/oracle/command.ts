/**
 * The command oracle: runs the user's interestingness test, an external command, on a candidate.
 *
 * Every run gets a fresh temporary directory (the child's cwd) holding the candidate, and its own
 * process group, so that on timeout, abort, or even normal completion nothing the test started can
 * outlive the run.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { access, constants, stat } from "node:fs/promises";
import { delimiter, resolve } from "node:path";

import { InvalidOptionError, WhittleError } from "../errors.js";
import type { Outcome } from "../outcome.js";
import { substituteCandidate } from "./argv.js";
import { setActiveTimeout } from "./clock.js";
import { NO_TRACKER, type GroupTracker } from "./groups.js";
import { createSandbox, removeSandbox, signalGroup, waitForGroupGone } from "./sandbox.js";

/** How much of the test's combined stdout+stderr a run keeps. */
const TAIL_BYTES = 4096;
/** How long to wait, after SIGKILL, for the killed processes to be reaped before giving up waiting. */
const REAP_LIMIT_MS = 3000;
/** How long to wait for the test's pipes to close once its process group is gone. */
const CLOSE_LIMIT_MS = 100;
/** The largest delay `setTimeout` accepts; longer timeouts mean "no timeout". */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface CommandOracleOptions {
  /**
   * argv of the test: argv[0] is the program. Every "{}" inside a later argument is replaced by the
   * candidate's absolute path; if no argument contains "{}", the path is appended as the last one.
   */
  command: readonly string[];
  /** File name the candidate gets inside its temporary directory, e.g. "crash.c". */
  fileName: string;
  /** Per-test timeout in milliseconds; undefined = none. */
  timeoutMs?: number;
  /** Parent directory for the per-test temporary directories (default `os.tmpdir()`). */
  tmpRoot?: string;
  /** Extra environment variables for the test. */
  env?: Record<string, string>;
  /** Grace period between SIGTERM and SIGKILL when a test is killed, default 1000 ms. */
  killGraceMs?: number;
  /**
   * Keep the tail of the test's output (default true). The reducer turns it off: output goes to
   * /dev/null, which saves two pipes per test; `outputTail` is then empty.
   */
  captureOutput?: boolean;
  /** Told of each test's process group when it starts and once it is gone. */
  groups?: GroupTracker;
}

/** The result of one run of the test. */
export interface CommandRun {
  /** exit 0 → "interesting"; other exit → "not-interesting"; timeout → "timeout"; a signal → "killed". */
  outcome: Outcome;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** The last ~4 KiB of combined stdout+stderr. */
  outputTail: string;
  /** Wall time from spawning the test until it exited. */
  durationMs: number;
  /** True when the AbortSignal fired after the test had already finished (so the outcome is genuine). */
  cancelled: boolean;
}

/** Runs an external interestingness test on candidates. Safe to use for many concurrent runs. */
export class CommandOracle {
  readonly #program: string;
  readonly #args: readonly string[];
  readonly #options: CommandOracleOptions;
  /** process.env is copied once: spreading it is measurably slow when done for every test. */
  readonly #env: NodeJS.ProcessEnv;
  readonly #timeoutMs: number | undefined;
  readonly #killGraceMs: number;

  constructor(options: CommandOracleOptions) {
    const [program, ...args] = options.command;
    if (program === undefined || program === "") throw new InvalidOptionError("command", "is empty");
    const { fileName, timeoutMs, killGraceMs = 1000 } = options;
    if (fileName === "" || fileName === "." || fileName === ".." || /[/\0]/.test(fileName)) {
      throw new InvalidOptionError("fileName", `must be a plain file name, got ${JSON.stringify(fileName)}`);
    }
    if (timeoutMs !== undefined && !(timeoutMs > 0)) {
      throw new InvalidOptionError("timeoutMs", `must be a positive number, got ${timeoutMs}`);
    }
    if (!(killGraceMs >= 0)) {
      throw new InvalidOptionError("killGraceMs", `must be a non-negative number, got ${killGraceMs}`);
    }
    // The test runs in its temporary directory, so a relative program path is resolved here, against
    // our own cwd, like checkExecutable does. Bare names are left to the PATH search of spawn.
    this.#program = program.includes("/") ? resolve(program) : program;
    this.#args = args;
    this.#options = options;
    this.#env = { ...process.env, ...options.env };
    this.#timeoutMs = timeoutMs !== undefined && timeoutMs <= MAX_TIMER_MS ? timeoutMs : undefined;
    this.#killGraceMs = killGraceMs;
  }

  /** Runs the test once on `content` and returns just the outcome. */
  async test(content: Uint8Array, signal?: AbortSignal): Promise<Outcome> {
    return (await this.run(content, signal)).outcome;
  }

  /**
   * Runs the test once on `content`. If `signal` aborts while the test runs, the test's process group
   * is killed and the promise rejects with `signal.reason` — but only after the whole group is dead
   * and the temporary directory is removed. Spawn failures reject with
   * `WhittleError("test-not-executable")`.
   */
  async run(content: Uint8Array, signal?: AbortSignal): Promise<CommandRun> {
    signal?.throwIfAborted();
    const { dir, file } = await createSandbox(this.#options.tmpRoot, this.#options.fileName, content);
    try {
      signal?.throwIfAborted();
      const args = substituteCandidate(this.#args, file);
      const env = { ...this.#env, WHITTLE_CANDIDATE: file, WHITTLE_TMPDIR: dir };
      let child: ChildProcess;
      try {
        // detached: the child becomes the leader of a new process group whose id is its pid.
        child = spawn(this.#program, args, {
          cwd: dir,
          env,
          detached: true,
          stdio: this.#options.captureOutput === false ? "ignore" : ["ignore", "pipe", "pipe"],
        });
      } catch (error) {
        throw this.#spawnError(error);
      }
      return await this.#supervise(child, signal);
    } finally {
      await removeSandbox(dir, this.#options.fileName);
    }
  }

  /** Waits for a spawned test, enforcing the timeout and the abort signal, and cleans up after it. */
  async #supervise(child: ChildProcess, signal: AbortSignal | undefined): Promise<CommandRun> {
    const started = performance.now();
    const tail = new OutputTail(TAIL_BYTES);
    for (const stream of [child.stdout, child.stderr]) {
      stream?.on("data", (chunk: Buffer) => tail.push(chunk));
      stream?.on("error", () => undefined);
    }
    const closed = new Promise<void>((done) => child.once("close", () => done()));
    const exited = new Promise<{ code: number | null; sig: NodeJS.Signals | null }>((done, fail) => {
      child.once("exit", (code, sig) => done({ code, sig }));
      child.once("error", fail);
    });

    // Killing the whole process group (kill(-pid)) rather than just the child also reaches everything
    // the test started (compilers, a backgrounded server, `sh -c` subshells) unless it moved itself to
    // another group or session. SIGTERM first so tests can clean up, SIGKILL after the grace period to
    // whatever is still there, including grandchildren that ignore SIGTERM after the child is gone.
    const pid = child.pid;
    const groups = this.#options.groups ?? NO_TRACKER;
    if (pid !== undefined) groups.started(pid);
    let killedBy: "timeout" | "abort" | undefined;
    let terminating: Promise<void> | undefined;
    const kill = (why: "timeout" | "abort"): void => {
      if (killedBy !== undefined || pid === undefined) return;
      killedBy = why;
      terminating = (async () => {
        signalGroup(pid, "SIGTERM");
        if (!(await waitForGroupGone(pid, this.#killGraceMs))) signalGroup(pid, "SIGKILL");
      })();
      terminating.catch(() => undefined);
    };
    const onAbort = (): void => kill("abort");
    const timeoutMs = this.#timeoutMs;
    const timer = timeoutMs === undefined ? undefined : setActiveTimeout(() => kill("timeout"), timeoutMs);
    signal?.addEventListener("abort", onAbort, { once: true });
    if (signal?.aborted) onAbort();

    let exit: { code: number | null; sig: NodeJS.Signals | null } | undefined;
    let failure: unknown;
    let durationMs = 0;
    try {
      exit = await exited;
    } catch (error) {
      failure = error;
    } finally {
      durationMs = performance.now() - started;
      timer?.cancel();
      signal?.removeEventListener("abort", onAbort);
      if (pid !== undefined) {
        await terminating;
        // Also after a normal exit: a backgrounded grandchild may still be in the group.
        signalGroup(pid, "SIGKILL");
        if (await waitForGroupGone(pid, REAP_LIMIT_MS)) groups.ended(pid);
      }
      // Something outside the group (e.g. a process that called setsid) may still hold the pipes open,
      // so do not wait for 'close' forever.
      if (child.stdout || child.stderr) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([closed, new Promise<void>((done) => (timer = setTimeout(done, CLOSE_LIMIT_MS)))]);
        clearTimeout(timer);
      }
      child.stdout?.destroy();
      child.stderr?.destroy();
    }
    if (exit === undefined) throw this.#spawnError(failure);
    if (killedBy === "abort") throw signal?.reason;
    return {
      outcome:
        killedBy === "timeout"
          ? "timeout"
          : exit.code === 0
            ? "interesting"
            : exit.sig !== null
              ? "killed"
              : "not-interesting",
      exitCode: exit.code,
      signal: exit.sig,
      outputTail: tail.toString(),
      durationMs,
      cancelled: signal?.aborted ?? false,
    };
  }

  #spawnError(error: unknown): WhittleError {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    const what =
      code === "ENOENT"
        ? "it does not exist (or its #! interpreter does not)"
        : code === "EACCES"
          ? "it is not executable"
          : `${error instanceof Error ? error.message : String(error)}`;
    return new WhittleError(
      "test-not-executable",
      `Cannot run the test command "${this.#program}": ${what}.`,
      {
        cause: error,
      },
    );
  }

  /**
   * Checks that `program` exists and is executable, resolving a bare name through PATH like a shell
   * and a relative path against `process.cwd()`. Throws `WhittleError("test-not-executable")` saying
   * whether it is missing or not executable. Returns the absolute path of the program: the test runs
   * in its own temporary directory, where a relative PATH entry would point somewhere else.
   */
  static async checkExecutable(program: string): Promise<string> {
    const fail = (why: string): never => {
      throw new WhittleError("test-not-executable", `The test command "${program}" ${why}.`);
    };
    if (program === "") fail("is empty");
    if (program.includes("/")) {
      const path = resolve(program);
      const state = await probe(path);
      if (state === "missing") fail(`does not exist (looked for ${path})`);
      if (state === "not-executable") fail(`is not executable (${path})`);
      return path;
    }
    let found: string | undefined;
    for (const dir of (process.env["PATH"] ?? "").split(delimiter)) {
      const path = resolve(dir, program); // an empty PATH entry means the current directory
      const state = await probe(path);
      if (state === "ok") return path;
      if (state === "not-executable") found ??= path;
    }
    if (found !== undefined) fail(`is not executable (${found})`);
    return fail("was not found in PATH");
  }
}

/** Whether `path` is an executable regular file. */
async function probe(path: string): Promise<"ok" | "missing" | "not-executable"> {
  try {
    if (!(await stat(path)).isFile()) return "not-executable";
  } catch {
    return "missing";
  }
  try {
    await access(path, constants.X_OK);
    return "ok";
  } catch {
    return "not-executable";
  }
}

/** Keeps the last `limit` bytes written to it, never more. */
class OutputTail {
  #buffer = Buffer.alloc(0);
  #truncated = false;
  constructor(private readonly limit: number) {}

  push(chunk: Buffer): void {
    const joined = chunk.length >= this.limit ? chunk : Buffer.concat([this.#buffer, chunk]);
    if (joined.length > this.limit) this.#truncated = true;
    // Copy, so that a large chunk is not kept alive by a view of it.
    this.#buffer = Buffer.from(joined.subarray(Math.max(0, joined.length - this.limit)));
  }

  toString(): string {
    let start = 0;
    // If the front was cut off, skip a partial UTF-8 sequence rather than decoding it as U+FFFD.
    while (this.#truncated && start < 3 && ((this.#buffer[start] ?? 0) & 0xc0) === 0x80) start++;
    return this.#buffer.toString("utf8", start);
  }
}
