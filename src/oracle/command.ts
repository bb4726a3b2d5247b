/**
 * The command oracle: runs the user's interestingness test, an external command, on a candidate.
 *
 * Every run gets a temporary directory of its own (the child's cwd) holding the candidate, and its
 * own process group, so that on timeout, abort, or even normal completion nothing the test started
 * can outlive the run. Tests are started by long-lived bash workers where bash ≥ 5.1 is found
 * (shell.ts: about a millisecond cheaper per test than Node's spawn), else by `child_process.spawn`.
 * The timeout is fixed (`timeoutMs`) or adaptive (`timeoutPolicy`, timeout-policy.ts), and counts
 * active time (clock.ts).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, fstatSync, openSync, readSync, unlinkSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, resolve } from "node:path";

import { InvalidOptionError, WhittleError } from "../errors.js";
import type { NextIf, Outcome } from "../outcome.js";
import { PLACEHOLDER, substituteCandidate } from "./argv.js";
import { activeNow, setActiveTimeout, type ActiveTimer } from "./clock.js";
import { NO_TRACKER, type GroupTracker } from "./groups.js";
import {
  descendantsByChildLists,
  descendantsOf,
  liveProcess,
  liveProcesses,
  RUN_DIR_FD,
} from "./run-processes.js";
import {
  createSandbox,
  removeSandbox,
  SandboxRecycler,
  signalGroup,
  waitForGroupGone,
  type Sandbox,
} from "./sandbox.js";
import {
  findBash,
  probeProgram,
  resolveProgram,
  ShellRunner,
  type ShellExit,
  type ShellFollowUp,
  type ShellJob,
} from "./shell.js";
import type { TimeoutPolicy } from "./timeout-policy.js";

/** How much of the test's combined stdout+stderr a run keeps. */
const TAIL_BYTES = 4096;
/** How long to wait, after SIGKILL, for the killed processes to be reaped before giving up waiting. */
const REAP_LIMIT_MS = 3000;
/**
 * How long a killed test's runner may take, once the test's group is gone, to report that it ended.
 * A bash worker that stays silent past this is taken as broken: it is killed and the test is killed.
 * It happens: bash 5.2's `wait -f` on a test killed a few milliseconds after it started can loop,
 * printing "wait_for: No record of process" until its stderr is full (5 of about 50 runs of
 * zeller-bug-c at -j 8 waited out this limit once). The killed test's outcome is known
 * already (cancelled or timed out), so the limit only bounds that wait: a second is long against the
 * milliseconds a worker takes to report, even on a loaded machine.
 */
const REPORT_LIMIT_MS = 1000;
/** How long to wait for the test's pipes to close once its process group is gone. */
const CLOSE_LIMIT_MS = 100;
/** The largest delay `setTimeout` accepts; longer timeouts mean "no timeout". */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Candidates written ahead of their test (prepare) that are kept at most; older ones are dropped. */
const STAGED_LIMIT = 4;

export interface CommandOracleOptions {
  /**
   * argv of the test: argv[0] is the program. Every "{}" inside a later argument is replaced by the
   * candidate's absolute path; if no argument contains "{}", the path is appended as the last one.
   */
  command: readonly string[];
  /** File name the candidate gets inside its temporary directory, e.g. "crash.c". */
  fileName: string;
  /** A fixed per-test timeout in milliseconds; undefined = none, or `timeoutPolicy`'s. */
  timeoutMs?: number;
  /**
   * An adaptive timeout (used when `timeoutMs` is not given): each test gets the policy's limit at
   * its start, the durations of finished tests are reported to it, and a test that timed out is run
   * once more if the limit has risen since it started.
   */
  timeoutPolicy?: TimeoutPolicy;
  /** Parent directory for the per-test temporary directories (default `os.tmpdir()`). */
  tmpRoot?: string;
  /** Extra environment variables for the test. */
  env?: Record<string, string>;
  /** Grace period between SIGTERM and SIGKILL when a test is killed, default 1000 ms. */
  killGraceMs?: number;
  /**
   * Keep the tail of the test's output (default true). The reducer turns it off: output goes to
   * /dev/null, which saves two pipes (or a file) per test; `outputTail` is then empty.
   */
  captureOutput?: boolean;
  /**
   * Also keep the first `captureStreams` bytes of the test's stdout and, apart, of its stderr
   * (CommandRun.stdout and .stderr), for verdicts that look at them (expect.ts). Implies
   * captureOutput; without it (the default) nothing more is read or kept.
   */
  captureStreams?: number;
  /** Told of each test's process group when it starts and once it is gone. */
  groups?: GroupTracker;
  /**
   * An open file descriptor that every test inherits as its descriptor 4 (RUN_DIR_FD), and with it
   * every process it starts, unless that process closes it. The command passes one open on the run
   * directory: a process of the run that left its test's process group, directory and environment
   * (a daemon) is still found by it (run-processes.ts).
   */
  inheritFd?: number;
  /**
   * Recycle test directories (default false: each test's directory is created for it and removed
   * before `run` resolves). When true, an emptied directory is kept and given to a later test under
   * a new name (see SandboxRecycler: creating and removing a directory can cost milliseconds per
   * test); directories a test left files in are removed in the background. Every test still has a
   * directory of its own, at a new path, holding exactly the candidate. `close()` removes them all.
   */
  recycleDirectories?: boolean;
  /**
   * How tests are started: "shell" through a long-lived bash co-process (see shell.ts; about 1 ms
   * cheaper per test), "spawn" with Node's child_process.spawn, "auto" (default) the shell when bash
   * is found in PATH, spawn otherwise.
   */
  runner?: "auto" | "shell" | "spawn";
}

/** The result of one run of the test. */
export interface CommandRun {
  /** exit 0 → "interesting"; other exit → "not-interesting"; timeout → "timeout"; a signal → "killed". */
  outcome: Outcome;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /**
   * The last ~4 KiB of combined stdout+stderr (with captureStreams from the shell runner: the tail
   * of stdout, then of stderr).
   */
  outputTail: string;
  /** With captureStreams: the first that many bytes of stdout, and of stderr. */
  stdout?: string;
  stderr?: string;
  /** Wall time from starting the test until it exited. */
  durationMs: number;
  /**
   * The same without the time whittle was stopped meanwhile (Ctrl-Z until fg, see clock.ts): how
   * long the test took, the time its timeout counts, and what the adaptive timeout learns from.
   */
  activeMs: number;
  /** True when the AbortSignal fired after the test had already finished (so the outcome is genuine). */
  cancelled: boolean;
  /** The timeout this run had (ms), if any. */
  timeoutMs?: number;
}

/** What an oracle has done so far. */
export interface OracleCounters {
  /** Runs of the test, re-tests included. */
  runs: number;
  /** Runs that were re-tests of a candidate that timed out before the limit rose. */
  retests: number;
  /** Runs that timed out. */
  timeouts: number;
  /** Time of the runs that timed out, in ms, without the time whittle was stopped (Ctrl-Z). */
  timeoutMs: number;
  /**
   * Runs that were follow-ups (see `prepare` with `nextIf`): the worker started them the moment the
   * test before them ended, without waiting for Node. Included in `runs`.
   */
  followUps: number;
  /**
   * Runs started ahead of their test (a follow-up, see `prepare` with `nextIf`) that were not asked for
   * in the end — the reduction stopped, or the candidate was dropped — and were killed. Not in `runs`.
   */
  unused: number;
}

/** A candidate written ahead (prepare): its directory, and its test if it was queued as a follow-up. */
interface Staged {
  readonly sandbox: Promise<Sandbox>;
  follow?: ShellFollowUp;
}

/** What a run keeps of its output: the tail, and with captureStreams the heads of both streams. */
interface Output {
  tail: string;
  stdout?: string;
  stderr?: string;
}

/** How a started test ended, whichever way it was started. */
type Ended = { code: number | null; sig: NodeJS.Signals | null } | { vanished: true };

/** A test that runs: its process group and its end. */
interface Started {
  readonly pgid: number | undefined;
  readonly ended: Promise<Ended>;
  /** performance.now() and activeNow() just before the test was started. */
  readonly startedWall: number;
  readonly startedActive: number;
  /** Started by the shell runner (whose 126 and 127 may mean "cannot run"). */
  readonly byShell: boolean;
  /** After the group is gone: release pipes or files, and return what was kept of the output. */
  finish(): Promise<Output>;
  /** Gives up on a runner that does not report the end of a killed test: `ended` settles. */
  abandon(): void;
}

/** Runs an external interestingness test on candidates. Safe to use for many concurrent runs. */
export class CommandOracle {
  readonly #program: string;
  readonly #args: readonly string[];
  readonly #options: CommandOracleOptions;
  /** process.env is copied once: spreading it is measurably slow when done for every test. */
  readonly #env: NodeJS.ProcessEnv;
  readonly #timeoutMs: number | undefined;
  readonly #policy: TimeoutPolicy | undefined;
  readonly #killGraceMs: number;
  /** The spawned test's stdio: output to pipes or nowhere, and inheritFd as RUN_DIR_FD. */
  readonly #stdio: ("ignore" | "pipe" | number)[];
  /** The bash workers, or undefined for the spawn path (no bash, closed, or a worker failed to start). */
  #shell: ShellRunner | undefined;
  /** The recycled test directories (recycleDirectories), else undefined. */
  readonly #recycler: SandboxRecycler | undefined;
  /** Candidates written ahead (prepare), by identity of their bytes, oldest first. */
  readonly #staged = new Map<Uint8Array, Staged>();
  /** Clean-ups after finished tests that run after the next test has started (see #defer). */
  #deferred: (() => void)[] = [];
  #flushing: Promise<void> | undefined;
  #closed = false;
  /** What this oracle has done: runs, re-tests, timeouts and the time they took. */
  readonly counters: OracleCounters = {
    runs: 0,
    retests: 0,
    timeouts: 0,
    timeoutMs: 0,
    followUps: 0,
    unused: 0,
  };

  constructor(options: CommandOracleOptions) {
    const [program, ...args] = options.command;
    if (program === undefined || program === "") throw new InvalidOptionError("command", "is empty");
    const { fileName, timeoutMs, killGraceMs = 1000, runner = "auto" } = options;
    if (fileName === "" || fileName === "." || fileName === ".." || /[/\0]/.test(fileName)) {
      throw new InvalidOptionError("fileName", `must be a plain file name, got ${JSON.stringify(fileName)}`);
    }
    if (timeoutMs !== undefined && !(timeoutMs > 0)) {
      throw new InvalidOptionError("timeoutMs", `must be a positive number, got ${timeoutMs}`);
    }
    if (!(killGraceMs >= 0)) {
      throw new InvalidOptionError("killGraceMs", `must be a non-negative number, got ${killGraceMs}`);
    }
    if (runner !== "auto" && runner !== "shell" && runner !== "spawn") {
      throw new InvalidOptionError(
        "runner",
        `must be "auto", "shell" or "spawn", got ${JSON.stringify(runner)}`,
      );
    }
    // The test runs in its temporary directory, so a relative program path is resolved here, against
    // our own cwd, like checkExecutable does. Bare names are left to the PATH search of spawn.
    this.#program = program.includes("/") ? resolve(program) : program;
    this.#args = args;
    this.#options = options;
    this.#env = { ...process.env, ...options.env };
    this.#timeoutMs = timeoutMs !== undefined && timeoutMs <= MAX_TIMER_MS ? timeoutMs : undefined;
    this.#policy = timeoutMs === undefined ? options.timeoutPolicy : undefined;
    this.#killGraceMs = killGraceMs;
    const { captureStreams } = options;
    if (captureStreams !== undefined && !(Number.isInteger(captureStreams) && captureStreams > 0)) {
      throw new InvalidOptionError("captureStreams", `must be a positive integer, got ${captureStreams}`);
    }
    const output = options.captureOutput === false && captureStreams === undefined ? "ignore" : "pipe";
    this.#stdio = ["ignore", output, output];
    if (options.inheritFd !== undefined) {
      while (this.#stdio.length < RUN_DIR_FD) this.#stdio.push("ignore");
      this.#stdio.push(options.inheritFd);
    }
    this.#recycler = options.recycleDirectories === true ? new SandboxRecycler(options.tmpRoot) : undefined;
    const bash = runner === "spawn" ? null : findBash();
    if (runner === "shell" && bash === null)
      throw new InvalidOptionError("runner", "bash was not found in PATH");
    // bash gets the program as an absolute path (for a bare name it would prefer its own builtins);
    // a program not found, or an argument bash cannot pass (a NUL), is left to spawn to report.
    const shellProgram = resolveProgram(this.#program);
    if (bash !== null && shellProgram !== undefined && !args.some((a) => a.includes("\0"))) {
      const template = args.some((a) => a.includes(PLACEHOLDER)) ? args : [...args, PLACEHOLDER];
      this.#shell = new ShellRunner(bash, this.#env, [shellProgram, ...template], fileName, {
        root: this.#recycler?.root ?? resolve(options.tmpRoot ?? tmpdir()),
        ...(options.inheritFd !== undefined ? { inheritFd: options.inheritFd } : {}),
        splitStderr: captureStreams !== undefined,
      });
    }
  }

  /** How tests are started now: "shell" (bash co-process) or "spawn". */
  get runner(): "shell" | "spawn" {
    return this.#shell === undefined ? "spawn" : "shell";
  }

  /** The timeout a test starting now gets, in ms; undefined = none. */
  timeoutLimitMs(): number | undefined {
    return this.#timeoutMs ?? this.#policy?.limitMs();
  }

  /**
   * Stops the bash workers, if any (each kills the group of its running test; later tests are
   * spawned), and removes the recycled test directories (recycleDirectories), waiting for removals
   * under way.
   */
  async close(): Promise<void> {
    this.#closed = true;
    this.#shell?.close();
    this.#shell = undefined;
    const staged = [...this.#staged.values()];
    this.#staged.clear();
    for (const entry of staged) this.#dropStaged(entry);
    while (this.#flushing) await this.#flushing;
    await this.#recycler?.close();
  }

  /**
   * A hint that `content` (this very Uint8Array) will probably be tested soon: its directory and
   * file are made now, while another test runs, and its `test` then starts at once. At most
   * STAGED_LIMIT candidates are kept ahead; an older one that was never tested is dropped. A failure
   * here is ignored: the test writes its candidate itself, and reports the failure then.
   *
   * `nextIf` (Oracle.prepare): `content` is the very next test if the one test running now gives that
   * answer. Its test is then queued behind that one in the bash worker (a follow-up), which starts it
   * the moment that test ends so, without waiting for Node to hear of the end; its `test` call then
   * takes over the running test. If it never comes (the reduction stopped), the test
   * is killed when the candidate is dropped or the oracle closed, and counted in `counters.unused`.
   */
  prepare(content: Uint8Array, nextIf?: NextIf): void {
    if (this.#closed || this.#staged.has(content)) return;
    if (this.#staged.size >= STAGED_LIMIT) {
      const [oldest, entry] = this.#staged.entries().next().value!;
      this.#staged.delete(oldest);
      this.#dropStaged(entry);
    }
    const sandbox = this.#makeSandbox(content);
    sandbox.catch(() => undefined);
    const entry: Staged = { sandbox };
    this.#staged.set(content, entry);
    const shell = this.#shell;
    if (nextIf !== undefined && shell !== undefined) {
      void sandbox.then(
        ({ dir }) => {
          if (this.#staged.get(content) !== entry || this.#shell !== shell) return;
          const follow = shell.follow(dir, this.#outputFile(dir), nextIf);
          if (follow !== undefined) entry.follow = follow;
        },
        () => undefined,
      );
    }
  }

  /** Whether tests' output is kept at all. */
  get #captures(): boolean {
    return this.#options.captureOutput !== false || this.#options.captureStreams !== undefined;
  }

  /** Where a test in `dir` writes its output (its stderr to `.err` beside it with captureStreams). */
  #outputFile(dir: string): string {
    return this.#captures ? `${dir}.out` : "/dev/null";
  }

  #makeSandbox(content: Uint8Array): Promise<Sandbox> {
    const recycler = this.#recycler;
    return recycler
      ? recycler.create(this.#options.fileName, content)
      : createSandbox(this.#options.tmpRoot, this.#options.fileName, content);
  }

  #releaseSandbox(dir: string): Promise<void> {
    if (this.#recycler) {
      this.#recycler.release(dir, this.#options.fileName);
      return Promise.resolve();
    }
    return removeSandbox(dir, this.#options.fileName);
  }

  /** Drops a candidate written ahead: kills its follow-up's test, if one started, and removes it. */
  #dropStaged(entry: Staged): void {
    this.#defer(async () => {
      const job = await entry.follow?.job;
      if (job !== undefined) {
        this.counters.unused++;
        // Not `job.ended`: a closed worker may die without reporting (and holds no event loop up).
        signalGroup(job.pgid, "SIGKILL");
        await waitForGroupGone(job.pgid, REAP_LIMIT_MS);
        if (this.#captures) {
          const file = this.#outputFile((await entry.sandbox).dir);
          removeQuietly(file);
          if (this.#options.captureStreams !== undefined) removeQuietly(`${file}.err`);
        }
      }
      const sandbox = await entry.sandbox.catch(() => undefined);
      if (sandbox !== undefined) await this.#releaseSandbox(sandbox.dir);
    });
  }

  /**
   * Runs `work` after the current chain of promise callbacks — in which the reducer starts its next
   * test — so that cleaning up after a test is not paid between two tests. `close()` waits for it.
   */
  #defer(work: () => unknown): void {
    this.#deferred.push(work);
    this.#flushing ??= new Promise<void>((done) =>
      setImmediate(() => {
        const batch = this.#deferred;
        this.#deferred = [];
        const pending: Promise<unknown>[] = [];
        for (const item of batch) {
          try {
            pending.push(Promise.resolve(item()).catch(() => undefined));
          } catch {
            // best effort, like the clean-up it replaces
          }
        }
        void Promise.all(pending).then(() => {
          this.#flushing = undefined;
          if (this.#deferred.length > 0) this.#defer(() => undefined);
          done();
        });
      }),
    );
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /** This oracle as `reduce()` takes it: `test`, carrying `prepare` (see Oracle). */
  toOracle(): ((candidate: Uint8Array, signal: AbortSignal) => Promise<Outcome>) & {
    prepare(candidate: Uint8Array, nextIf?: NextIf): void;
  } {
    return Object.assign((candidate: Uint8Array, signal: AbortSignal) => this.test(candidate, signal), {
      prepare: (candidate: Uint8Array, nextIf?: NextIf) => this.prepare(candidate, nextIf),
    });
  }

  /** Runs the test once on `content` and returns just the outcome. */
  async test(content: Uint8Array, signal?: AbortSignal): Promise<Outcome> {
    return (await this.run(content, signal)).outcome;
  }

  /**
   * Runs the test on `content`. If `signal` aborts while the test runs, the test's process group
   * is killed and the promise rejects with `signal.reason` — but only after the whole group is dead
   * and the temporary directory is removed (or emptied for reuse, with recycleDirectories). After a
   * test that ran to its end, its group is gone when the promise resolves; with recycleDirectories,
   * its directory is emptied right after (once the caller has started its next test; `close()`
   * waits for it). Spawn
   * failures reject with `WhittleError("test-not-executable")`. With an adaptive timeout, a run
   * that timed out is repeated once if the limit has risen since it started. `limitMs` overrides
   * the timeout for this run (a queue worker runs each test with the limit its job carries).
   */
  async run(content: Uint8Array, signal?: AbortSignal, limitMs?: number): Promise<CommandRun> {
    if (limitMs !== undefined) return this.#runOnce(content, signal, limitMs);
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
    signal?.throwIfAborted();
    const staged = this.#staged.get(content);
    if (staged !== undefined) this.#staged.delete(content);
    const sandbox = staged && (await staged.sandbox.catch(() => undefined));
    const { dir, file } = sandbox ?? (await this.#makeSandbox(content));
    let settled = false;
    try {
      // A follow-up's test may run already (or be about to): it is this run. Its start or skip is
      // reported right after the end of the test before it, which has come (or this is not `next`).
      const followed = sandbox !== undefined ? await staged?.follow?.job : undefined;
      if (followed === undefined) signal?.throwIfAborted();
      const started =
        followed !== undefined
          ? this.#shellStarted(followed, dir)
          : await this.#start(dir, file, substituteCandidate(this.#args, file));
      this.counters.runs++;
      if (followed !== undefined) this.counters.followUps++;
      const run = await this.#supervise(started, signal, limitMs);
      if (run.outcome === "timeout") {
        this.counters.timeouts++;
        this.counters.timeoutMs += run.activeMs;
      } else if (!run.cancelled) {
        this.#policy?.observe(run.outcome, run.activeMs);
      }
      settled = true;
      return run;
    } finally {
      // With recycled directories, a finished test's directory (kept as a spare anyway) is emptied
      // after the next test starts; otherwise, and after a failure or an abort, before the promise
      // settles, as documented.
      if (settled && this.#recycler) this.#defer(() => this.#releaseSandbox(dir));
      else await this.#releaseSandbox(dir);
    }
  }

  /** Starts the test: through the shell when there is one, else (or if it fails to start) by spawn. */
  async #start(dir: string, file: string, args: readonly string[]): Promise<Started> {
    const shell = this.#shell;
    if (shell === undefined) return this.#spawn(dir, file, args);
    let job;
    try {
      job = await shell.start(dir, this.#outputFile(dir));
    } catch {
      // A worker could not start: run this and every later test by spawn.
      if (this.#shell === shell) {
        shell.close();
        this.#shell = undefined;
      }
      return this.#spawn(dir, file, args);
    }
    return this.#shellStarted(job, dir);
  }

  /** A test the shell started in `dir`, as #supervise sees it. */
  #shellStarted(job: ShellJob, dir: string): Started {
    const capture = this.#captures;
    const heads = this.#options.captureStreams;
    const outputFile = this.#outputFile(dir);
    return {
      pgid: job.pgid,
      startedWall: job.startedWall,
      startedActive: job.startedActive,
      byShell: true,
      ended: job.ended.then((exit: ShellExit) =>
        exit.kind === "vanished" ? { vanished: true as const } : { code: exit.code, sig: exit.signal },
      ),
      finish: () => Promise.resolve(capture ? readOutputFiles(outputFile, heads) : { tail: "" }),
      abandon: () => job.abandon(),
    };
  }

  #spawn(dir: string, file: string, args: readonly string[]): Started {
    const env = { ...this.#env, WHITTLE_CANDIDATE: file, WHITTLE_TMPDIR: dir };
    const startedWall = performance.now();
    const startedActive = activeNow();
    let child: ChildProcess;
    try {
      // detached: the child becomes the leader of a new process group whose id is its pid.
      child = spawn(this.#program, args, {
        cwd: dir,
        env,
        detached: true,
        stdio: this.#stdio,
      });
    } catch (error) {
      throw this.#spawnError(error);
    }
    const tail = new OutputTail(TAIL_BYTES);
    const limit = this.#options.captureStreams;
    const heads = limit === undefined ? undefined : [new OutputHead(limit), new OutputHead(limit)];
    for (const [i, stream] of [child.stdout, child.stderr].entries()) {
      stream?.on("data", (chunk: Buffer) => {
        tail.push(chunk);
        heads?.[i]!.push(chunk);
      });
      stream?.on("error", () => undefined);
    }
    const closed = new Promise<void>((done) => child.once("close", () => done()));
    const ended = new Promise<Ended>((done, fail) => {
      child.once("exit", (code, sig) => done({ code, sig }));
      child.once("error", (error) => fail(this.#spawnError(error)));
    });
    return {
      pgid: child.pid,
      startedWall,
      startedActive,
      byShell: false,
      ended,
      abandon: () => child.kill("SIGKILL"),
      finish: async () => {
        // Something outside the group (e.g. a process that called setsid) may still hold the pipes
        // open, so do not wait for 'close' forever.
        if (child.stdout || child.stderr) {
          let timer: NodeJS.Timeout | undefined;
          await Promise.race([
            closed,
            new Promise<void>((done) => (timer = setTimeout(done, CLOSE_LIMIT_MS))),
          ]);
          clearTimeout(timer);
        }
        child.stdout?.destroy();
        child.stderr?.destroy();
        return heads === undefined
          ? { tail: tail.toString() }
          : { tail: tail.toString(), stdout: heads[0]!.toString(), stderr: heads[1]!.toString() };
      },
    };
  }

  /** Waits for a started test, enforcing the timeout and the abort signal, and cleans up after it. */
  async #supervise(
    started: Started,
    signal: AbortSignal | undefined,
    limitMs: number | undefined,
  ): Promise<CommandRun> {
    const { startedWall, startedActive } = started;
    // Killing the whole process group (kill(-pid)) rather than just the child also reaches everything
    // the test started (compilers, a backgrounded server, `sh -c` subshells) unless it moved itself to
    // another group or session. SIGTERM first so tests can clean up, SIGKILL after the grace period to
    // whatever is still there, including grandchildren that ignore SIGTERM after the child is gone.
    const pgid = started.pgid;
    const groups = this.#options.groups ?? NO_TRACKER;
    if (pgid !== undefined) groups.started(pgid);
    let killedBy: "timeout" | "abort" | undefined;
    let terminating: Promise<void> | undefined;
    let silence: ActiveTimer | undefined;
    let reported = false;
    const kill = (why: "timeout" | "abort"): void => {
      if (killedBy !== undefined || pgid === undefined) return;
      killedBy = why;
      terminating = (async () => {
        // Taken while the test's processes still link them to their parents: see strayTargets.
        const strays = strayTargets(pgid);
        signalGroup(pgid, "SIGTERM");
        signalAll(strays, "SIGTERM");
        if (!(await waitForGroupGone(pgid, this.#killGraceMs))) signalGroup(pgid, "SIGKILL");
        signalAll(strays, "SIGKILL");
        await waitForGroupGone(pgid, REAP_LIMIT_MS);
        // The group is gone: its runner has no reason left not to report the end. Never wait forever.
        if (!reported) silence = setActiveTimeout(() => started.abandon(), REPORT_LIMIT_MS);
      })();
      terminating.catch(() => undefined);
    };
    const onAbort = (): void => kill("abort");
    // The limit counts active time (clock.ts): time spent suspended (Ctrl-Z) does not count, and the
    // time since the test started does.
    const limit = limitMs !== undefined && limitMs <= MAX_TIMER_MS ? limitMs : undefined;
    const timer =
      limit === undefined
        ? undefined
        : setActiveTimeout(() => kill("timeout"), Math.max(1, limit - (activeNow() - startedActive)));
    signal?.addEventListener("abort", onAbort, { once: true });
    if (signal?.aborted) onAbort();

    let exit: Ended | undefined;
    let failure: unknown;
    let durationMs = 0;
    let activeMs = 0;
    let output: Output = { tail: "" };
    try {
      exit = await started.ended;
    } catch (error) {
      failure = error;
    } finally {
      reported = true;
      durationMs = performance.now() - startedWall;
      activeMs = activeNow() - startedActive;
      timer?.cancel();
      signal?.removeEventListener("abort", onAbort);
      if (pgid !== undefined) {
        await terminating;
        silence?.cancel();
        // Also after a normal exit: a backgrounded grandchild may still be in the group. When the
        // kill finds no group (ESRCH, the usual case), there is nothing to wait for.
        if (!signalGroup(pgid, "SIGKILL") || (await waitForGroupGone(pgid, REAP_LIMIT_MS))) {
          groups.ended(pgid);
        }
      }
      output = await started.finish();
    }
    if (exit === undefined) throw failure;
    if (killedBy === "abort") throw signal?.reason;
    if (
      killedBy === undefined &&
      "code" in exit &&
      (exit.code === 126 || exit.code === 127) &&
      started.byShell
    ) {
      // From the shell, 126 and 127 may mean the program cannot be run at all: say so, as spawn would.
      await checkRunnable(this.#program);
    }
    const vanished = "vanished" in exit;
    const code = "code" in exit ? exit.code : null;
    const sig = "sig" in exit ? exit.sig : null;
    return {
      outcome:
        killedBy === "timeout"
          ? "timeout"
          : code === 0
            ? "interesting"
            : vanished || sig !== null
              ? "killed"
              : "not-interesting",
      exitCode: code,
      signal: sig,
      outputTail: output.tail,
      ...(output.stdout !== undefined ? { stdout: output.stdout, stderr: output.stderr ?? "" } : {}),
      durationMs,
      activeMs,
      cancelled: signal?.aborted ?? false,
      ...(limit !== undefined ? { timeoutMs: limit } : {}),
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
  static checkExecutable(program: string): Promise<string> {
    try {
      return Promise.resolve(CommandOracle.#locate(program));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** checkExecutable's work, synchronously: a few stat calls, made once per run. */
  static #locate(program: string): string {
    const fail = (why: string): never => {
      throw new WhittleError("test-not-executable", `The test command "${program}" ${why}.`);
    };
    if (program === "") fail("is empty");
    if (program.includes("/")) {
      const path = resolve(program);
      const state = probeProgram(path);
      if (state === "missing") fail(`does not exist (looked for ${path})`);
      if (state === "not-executable") fail(`is not executable (${path})`);
      return path;
    }
    let found: string | undefined;
    for (const dir of (process.env["PATH"] ?? "").split(delimiter)) {
      const path = resolve(dir, program); // an empty PATH entry means the current directory
      const state = probeProgram(path);
      if (state === "ok") return path;
      if (state === "not-executable") found ??= path;
    }
    if (found !== undefined) fail(`is not executable (${found})`);
    return fail("was not found in PATH");
  }
}

/**
 * Throws `WhittleError("test-not-executable")` when `program` cannot be run: missing, not
 * executable, or a script whose #! interpreter is missing. Used when the shell reports 126 or 127.
 */
async function checkRunnable(program: string): Promise<void> {
  const path = await CommandOracle.checkExecutable(program);
  let head = "";
  try {
    const handle = await open(path, "r");
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(256), 0, 256, 0);
      head = buffer.toString("latin1", 0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch {
    return;
  }
  const interpreter = /^#!\s*(\S+)/.exec(head)?.[1];
  if (interpreter !== undefined && interpreter.startsWith("/") && probeProgram(interpreter) !== "ok") {
    throw new WhittleError(
      "test-not-executable",
      `Cannot run the test command "${program}": its #! interpreter ${interpreter} does not exist or is not executable.`,
    );
  }
}

/** Removes a file if it is there. */
function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // not there
  }
}

/**
 * What a test run by the shell left in its output file `path` (and with `heads`, its stderr in
 * `path`.err): the tail, and the first `heads` bytes of each stream. The files are removed.
 */
function readOutputFiles(path: string, heads: number | undefined): Output {
  const tail = new OutputTail(TAIL_BYTES);
  if (heads === undefined) {
    readEnds(path, tail, undefined);
    return { tail: tail.toString() };
  }
  const stdout = new OutputHead(heads);
  const stderr = new OutputHead(heads);
  readEnds(path, tail, stdout);
  readEnds(`${path}.err`, tail, stderr);
  return { tail: tail.toString(), stdout: stdout.toString(), stderr: stderr.toString() };
}

/** Feeds the last TAIL_BYTES of the file `path` to `tail` and its first bytes to `head`; removes it. */
function readEnds(path: string, tail: OutputTail, head: OutputHead | undefined): void {
  try {
    const fd = openSync(path, "r");
    try {
      const size = fstatSync(fd).size;
      // One byte more than the tail, so that the tail knows its front was cut off.
      const length = Math.min(size, TAIL_BYTES + 1);
      const buffer = Buffer.alloc(length);
      const read = readSync(fd, buffer, 0, length, size - length);
      tail.push(buffer.subarray(0, read));
      if (head !== undefined) {
        const front = Buffer.alloc(Math.min(size, head.limit));
        head.push(front.subarray(0, readSync(fd, front, 0, front.length, 0)));
      }
    } finally {
      closeSync(fd);
    }
    unlinkSync(path);
  } catch {
    // no output file: the test could not even start its redirection
  }
}

/** Keeps the first `limit` bytes written to it, never more. */
class OutputHead {
  readonly #chunks: Buffer[] = [];
  #length = 0;
  constructor(readonly limit: number) {}

  push(chunk: Buffer): void {
    if (this.#length >= this.limit) return;
    // Copy, so that a large chunk is not kept alive by a view of it.
    const part = Buffer.from(chunk.subarray(0, this.limit - this.#length));
    this.#chunks.push(part);
    this.#length += part.length;
  }

  toString(): string {
    return Buffer.concat(this.#chunks).toString("utf8");
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

/**
 * What a test started outside its own process group, for kill(): the group of each descendant of the
 * test's leader that leads a group of its own (as GNU `timeout` does, so that it can kill its
 * command's group: killing the test's group then leaves `timeout` and its command running until
 * timeout's own limit, a hung candidate burning a core for seconds after its test ended), as
 * `-pgid`; the pid of any other descendant outside the group. Read from /proc while the test's
 * processes are still linked to their parents (on Linux; elsewhere nothing is found).
 */
function strayTargets(pgid: number): number[] {
  const own = process.pid;
  // The leader gone (its pid free for another process to take), its descendants cannot be told.
  const leader = liveProcess(pgid);
  if (leader === undefined || leader.pgid !== pgid) return [];
  const all = descendantsByChildLists(pgid) ?? descendantsOf(pgid, liveProcesses());
  const descendants = all.filter((p) => p.pgid !== pgid && p.pid !== own);
  const pids = new Set(descendants.map((p) => p.pid));
  const targets: number[] = [];
  for (const p of descendants) {
    if (p.pgid === p.pid) targets.push(-p.pid);
    else if (!pids.has(p.pgid)) targets.push(p.pid);
  }
  return targets;
}

/** Sends `sig` to each pid (or -pgid) of `targets`; those gone already are skipped. */
function signalAll(targets: readonly number[], sig: NodeJS.Signals): void {
  for (const target of targets) {
    try {
      process.kill(target, sig);
    } catch {
      // gone meanwhile (ESRCH), or not ours (EPERM)
    }
  }
}
