/**
 * The shell runner: long-lived bash co-processes that start the tests.
 *
 * Node's `child_process.spawn` costs about a millisecond more per test than a fork and exec from a
 * small process (it forks the whole Node process and sets up pipes and handles), which matters when
 * the test itself takes 2 ms. So an oracle keeps a few bash processes ("workers", one per test
 * running at the same time, started when first needed) and writes one short line per test to an idle
 * one:
 *
 *     r ID DIR OUT        (Node → worker: run the oracle's command on DIR/<file name>, output to OUT)
 *     n AFTER ID DIR OUT  (Node → worker: the same, right after test AFTER, if it was not interesting
 *                          (1 ≤ $? ≤ 125); else, or if another test ended last, skip it)
 *     y AFTER ID DIR OUT  (the same, if test AFTER was interesting ($? = 0))
 *     S ID PGID           (worker → Node: started; the test's process group)
 *     E ID STATUS         (worker → Node: the test ended, with this $?)
 *
 * DIR is relative to the worker's working directory (the oracle's directory for test directories)
 * when it is inside it, and OUT is "-" for /dev/null: bash reads its commands one byte per system
 * call, so the line is kept short. An `n` line (a "follow-up") lets a sequential reducer's next test
 * start the moment the current one ends, without waiting for Node to hear of the end and answer: the
 * reducer knows, while a test runs, which candidate it tests next after either answer
 * (Oracle.prepare with `nextIf`). Node sends at most one `n` and one `y` per test, while it runs, so
 * the worker reads them once that test has ended (lines queue in the pipe): the first that applies
 * runs, and the others, which name a test that no longer ended last, are skipped without a word
 * (Node knows from the E line which one runs). Lines may be written before the worker is ready: it
 * reads them once it is, so a follow-up can be queued behind a new worker's first test.
 *
 * A worker is bash with `set -m` (job control) and no terminal: it starts the test as a background
 * job, which gets a process group of its own whose id is the job's pid (`$!`), then `wait`s for it.
 * The job `cd`s into DIR and `exec`s the test (one fork per test, like a shell loop's), with stdin
 * from /dev/null and output to OUT. The test and everything it starts stay in that group, so killing
 * stays `process.kill(-pgid, …)` from Node, as with a spawned test. The worker waits with `wait -f`
 * (bash ≥ 5.1), so a test that is stopped and continued (Ctrl-Z) is not taken for one that ended;
 * with an older bash, the oracle falls back to spawn. Since the worker reaps the test
 * before it writes E, the group is usually gone by the time Node reads E. (dash refuses job control
 * without a terminal, hence bash.) The command is given to the worker once, as an array in which the
 * word "{}" stands for the candidate's path, so the per-test line stays short (bash reads commands
 * from a pipe one byte at a time).
 *
 * Exit statuses: bash reports a test killed by signal N as $? = 128 + N, the same as a test that
 * called exit(128 + N). The runner reads 129…192 as "killed by signal N" (outcome `killed`: not
 * interesting and never cached), so a test that itself exits with, say, 137 counts as killed rather
 * than not interesting. Both are not interesting; the only difference is that such answers are not
 * cached. 126 and 127 (cannot execute, not found) are checked again by the oracle.
 *
 * Lifetime: workers run in sessions of their own (a Ctrl-C at the terminal does not reach them, nor
 * does Ctrl-Z: whittle stops them itself, see `suspendWorkers`) and do not keep Node's event loop
 * alive while idle. Each has a watcher, a subshell blocked reading a pipe from Node that nobody
 * writes: when Node closes it (`close()`) or dies, the watcher sends the worker SIGTERM (and SIGCONT,
 * should it be stopped), and the worker kills its running test's group and exits — also while it is
 * waiting for the test, when it is not reading its commands.
 */
import { PLACEHOLDER } from "./argv.js";
import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from "node:child_process";
import { accessSync, constants, readdirSync, readFileSync, statSync } from "node:fs";
import { constants as osConstants } from "node:os";
import { delimiter, join, resolve } from "node:path";
import type { Writable } from "node:stream";
import type { NextIf } from "../outcome.js";
import { activeNow, setActiveTimeout } from "./clock.js";

/**
 * The worker's script. `r` runs one test: it is written for the oracle's command (see
 * `ShellRunner`), with the command's words inlined and "{}" replaced by the candidate's path, so
 * that bash does as little as possible per test. `wait` removes the job from bash's job table, so the
 * worker's memory does not grow with the number of tests (see the test of this module).
 */
const WORKER = [
  // `wait -f` needs bash 5.1; with an older bash the worker refuses and the oracle spawns its tests.
  "if (( BASH_VERSINFO[0] * 100 + BASH_VERSINFO[1] < 501 )); then echo 'bash 5.1 or later needed' >&2; exit 1; fi",
  "p=",
  "s=0",
  "e=",
  "r() {",
  '  if [ "$3" = - ]; then set -- "$1" "$2" /dev/null; fi',
  // The job is forked without the worker's traps: a signal that reaches it in the moment after the
  // fork, before bash has reset the traps it inherited, would run the worker's handlers in the job
  // (`exit`: status 0, as if interesting; and the EXIT trap, which kills the watcher). A test
  // cancelled at once (SIGTERM to its group) did so about once in 200. (A SIGTERM to the worker in
  // this moment ends it without its clean-up; the job is then left to the watchdog.)
  "  trap - EXIT TERM HUP",
  // In the job, $PWD is the test's directory as an absolute path, also when DIR was relative.
  '  { cd -- "$2" && WHITTLE_CANDIDATE="$PWD/"__WHITTLE_FILE__ WHITTLE_TMPDIR=$PWD exec __WHITTLE_ARGV__ </dev/null __WHITTLE_REDIRECT__; } &',
  "  p=$!",
  "  trap __w_exit EXIT",
  "  trap exit TERM HUP",
  '  echo "S $1 $p"',
  // -f: wait for the end, not just a change of state (a test stopped by Ctrl-Z support is not done).
  '  wait -f "$p"',
  "  s=$?",
  "  e=$1",
  '  echo "E $1 $s"',
  "  p=",
  "}",
  // Follow-ups: run only right after test $1, and only after the answer they follow.
  // A skipped one says nothing: Node knows from the E line which of them runs.
  'n() { if [ "$e" = "$1" ] && (( s >= 1 && s <= 125 )); then shift; r "$@"; fi; }',
  'y() { if [ "$e" = "$1" ] && (( s == 0 )); then shift; r "$@"; fi; }',
  // On EOF, or SIGTERM from the watcher: kill the running test's group, and the watcher.
  "__w_exit() {",
  '  if [ -n "$p" ]; then kill -KILL -- "-$p" 2>/dev/null; fi',
  '  kill -KILL "$__w_watch" 2>/dev/null',
  "}",
  "trap __w_exit EXIT",
  "trap exit TERM HUP",
  // The watcher: blocked on fd 3 (a pipe from Node that is never written) until Node closes or dies.
  // SIGCONT after SIGTERM: a worker stopped by Ctrl-Z (suspendWorkers) must wake up to end. Started
  // before `set -m`, it stays in the worker's process group, where the tests are not: that is how
  // suspendWorkers tells it from a test, and leaves it running.
  '{ read -r -u 3 _; kill -TERM "$$"; kill -CONT "$$"; } </dev/null >/dev/null 2>&1 &',
  "__w_watch=$!",
  "set -m",
  "exec 3<&-",
  'if [ -n "${__WHITTLE_BASH_ENV+x}" ]; then export BASH_ENV="$__WHITTLE_BASH_ENV"; fi',
  "unset __WHITTLE_BASH_ENV",
  "echo READY",
  "",
].join("\n");

/** How long a worker may take to get ready and to start a test before it is taken as broken. */
const START_LIMIT_MS = 30_000;

/** How a test run by the shell ended. */
export type ShellExit =
  /** The program exited with `code`, or (128 < status ≤ 192) died of signal `signal`. */
  | { kind: "exit"; code: number | null; signal: NodeJS.Signals | null }
  /** The worker died before reporting: the test is taken as killed. */
  | { kind: "vanished" };

/** One test started by the shell. */
export interface ShellJob {
  /** The test's process group id (= its pid). */
  readonly pgid: number;
  /** performance.now() and activeNow() when the worker was told to start the test (or, for a follow-up, when its start was reported). */
  readonly startedWall: number;
  readonly startedActive: number;
  /** Settles when the worker reports the test's status (or dies). */
  readonly ended: Promise<ShellExit>;
  /** Kills a worker that does not report: `ended` then settles as vanished. */
  abandon(): void;
}

/**
 * A follow-up queued behind the running test (ShellRunner.follow): `job` resolves with the test once
 * it has started, or with undefined when it will not run (the test before it was interesting, timed
 * out or was killed, or the worker died).
 */
export interface ShellFollowUp {
  readonly job: Promise<ShellJob | undefined>;
}

interface Job {
  readonly id: number;
  /** The line that starts it, without the newline. */
  readonly line: string;
  started: (pgid: number) => void;
  /** The worker cannot run it (it died before the start, or skipped a follow-up). */
  failed: (error: Error | undefined) => void;
  ended: (exit: ShellExit) => void;
  pgid?: number;
}

/** The answer after which a worker runs a follow-up, by the status of the test it follows (`n`, `y`). */
function followedAnswer(status: number): NextIf | undefined {
  return status === 0 ? "interesting" : status >= 1 && status <= 125 ? "not-interesting" : undefined;
}

/** The workers of every runner of this process that have not exited, for suspendWorkers. */
const liveWorkers = new Set<Worker>();

/**
 * Ctrl-Z: stops every bash worker of this process, and the test each one runs; returns a function
 * that resumes them, tests first. Call it before stopping the tests' groups, and the function after
 * resuming them.
 *
 * Why the workers too: a worker waits for its test with `wait -f`, which returns at once while the
 * test is stopped and is called again, so the worker would spin at 100 % of a core until `fg`. A
 * stopped worker also starts no follow-up. Its test is found among its children (in /proc: those
 * outside the worker's process group, which holds only the watcher) rather than by the group Node
 * was told of, because the S line of a test started just now may still be in the pipe; the watcher
 * is left running, so that a worker stopped when whittle dies still ends.
 */
export function suspendWorkers(): () => void {
  const workers = [...liveWorkers].flatMap((w) => (w.pid === undefined ? [] : [w.pid]));
  for (const pid of workers) signalProcess(pid, "SIGSTOP");
  // A signal is delivered asynchronously: until a worker is stopped, it may still start a test.
  const deadline = performance.now() + 50;
  while (workers.some((pid) => !stoppedOrGone(pid)) && performance.now() < deadline);
  const tests = jobsOf(new Set(workers));
  for (const pid of tests) {
    signalProcess(-pid, "SIGSTOP");
    signalProcess(pid, "SIGSTOP"); // also a test that left its group
  }
  return () => {
    for (const pid of tests) {
      signalProcess(-pid, "SIGCONT");
      signalProcess(pid, "SIGCONT");
    }
    for (const pid of workers) signalProcess(pid, "SIGCONT");
  };
}

/** Sends `sig` to a process (or, negative, a group); one that is gone is ignored. */
function signalProcess(target: number, sig: NodeJS.Signals): void {
  try {
    process.kill(target, sig);
  } catch {
    // ESRCH: gone
  }
}

/** The fields of /proc/PID/stat after the command's name (state, ppid, pgrp, …), or undefined. */
function procStat(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined; // gone, or no /proc
  }
}

function stoppedOrGone(pid: number): boolean {
  const state = procStat(pid)?.[0];
  return state === undefined || "TtZX".includes(state);
}

/** The live children of `parents` that are not in their parent's process group (the tests). */
function jobsOf(parents: ReadonlySet<number>): number[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = procStat(entry);
    if (fields === undefined || fields[0] === "Z" || fields[0] === "X") continue;
    const ppid = Number(fields[1]);
    if (parents.has(ppid) && Number(fields[2]) !== ppid) found.push(Number(entry));
  }
  return found;
}

/** One bash process that runs one test at a time. */
class Worker {
  readonly #child: ChildProcess;
  readonly ready: Promise<void>;
  #buffer = "";
  #stderr = "";
  /** The test the worker runs (or was told to run). */
  #job: Job | undefined;
  /** Follow-ups sent behind #job (`n` and `y` lines), by the answer they follow. */
  #follows = new Map<NextIf, Job>();
  dead = false;

  constructor(
    bash: string,
    env: NodeJS.ProcessEnv,
    cwd: string | undefined,
    script: string,
    inheritFd: number | undefined,
    onIdle: (worker: Worker) => void,
  ) {
    const child = spawn(bash, ["--norc", "--noprofile"], {
      // bash takes $PWD as its working directory's name when it names the same directory, so that
      // the tests' paths are built on the name given, not on the directory's physical path.
      env: cwd === undefined ? env : { ...env, PWD: cwd },
      ...(cwd === undefined ? {} : { cwd }),
      detached: true,
      // fd 3: the watcher's pipe; fd 4 (RUN_DIR_FD), if given: passed on to every test.
      stdio: ["pipe", "pipe", "pipe", "pipe", ...(inheritFd === undefined ? [] : [inheritFd])],
    }) as ChildProcessWithoutNullStreams;
    this.#child = child;
    liveWorkers.add(this);
    this.ready = new Promise<void>((resolveReady, rejectReady) => {
      const onLine = (line: string): void => {
        if (line === "READY") return resolveReady();
        const [kind, idText, value] = line.split(" ");
        const job = this.#job;
        const number = Number(value);
        if (job === undefined || Number(idText) !== job.id || !Number.isInteger(number)) return;
        if (kind === "S") {
          job.pgid = number;
          job.started(number);
        } else if (kind === "E") {
          const answer = followedAnswer(number);
          const follow = answer === undefined ? undefined : this.#follows.get(answer);
          // The worker skips the others, silently.
          for (const other of this.#follows.values()) if (other !== follow) other.failed(undefined);
          this.#follows.clear();
          job.ended(statusToExit(number));
          if (follow !== undefined) {
            // The worker goes on with the follow-up at once; its S line comes next.
            this.#job = follow;
            return;
          }
          this.#job = undefined;
          this.#setRef(false);
          onIdle(this);
        }
      };
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        this.#buffer += chunk;
        let newline: number;
        while ((newline = this.#buffer.indexOf("\n")) >= 0) {
          const line = this.#buffer.slice(0, newline);
          this.#buffer = this.#buffer.slice(newline + 1);
          onLine(line);
        }
      });
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
        this.#stderr = (this.#stderr + chunk).slice(-2000);
      });
      const die = (why: string): void => {
        this.dead = true;
        liveWorkers.delete(this);
        const error = new Error(
          `the test runner shell ${why}${this.#stderr ? `: ${this.#stderr.trim()}` : ""}`,
        );
        rejectReady(error);
        const job = this.#job;
        const follows = [...this.#follows.values()];
        this.#job = undefined;
        this.#follows.clear();
        if (job?.pgid === undefined) job?.failed(error);
        else job.ended({ kind: "vanished" });
        for (const follow of follows) follow.failed(error);
      };
      child.once("error", (error) => die(`could not start (${error.message})`));
      child.once("close", (code, signal) => die(`exited (${signal ?? `code ${code}`})`));
      for (const pipe of [child.stdin, child.stdio[3]] as Writable[]) pipe.on("error", () => undefined);
    });
    this.ready.catch(() => undefined);
    child.stdin.write(script);
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** Whether the worker runs a test and has no follow-up for `answer` queued behind it. */
  followable(answer: NextIf): boolean {
    return !this.dead && this.#job !== undefined && !this.#follows.has(answer);
  }

  /** Runs a test (the worker must be idle; if it is not ready yet, it runs the test once it is). */
  run(job: Job): void {
    this.#job = job;
    this.#setRef(true);
    (this.#child.stdin as Writable).write(`r ${job.line}\n`);
  }

  /** Queues a follow-up behind the running test (the worker must be `followable(answer)`). */
  follow(job: Job, answer: NextIf): void {
    this.#follows.set(answer, job);
    const command = answer === "interesting" ? "y" : "n";
    (this.#child.stdin as Writable).write(`${command} ${this.#job!.id} ${job.line}\n`);
  }

  close(): void {
    (this.#child.stdin as Writable).end();
    (this.#child.stdio[3] as Writable).end();
    this.#setRef(false);
    // The worker kills what runs and exits, and may not say so: what has not started never will.
    for (const follow of this.#follows.values()) follow.failed(undefined);
    this.#follows.clear();
    if (this.#job?.pgid === undefined) this.#job?.failed(undefined);
  }

  /** Kills the worker, which then reports its test (if any) as vanished. */
  abandon(): void {
    this.dead = true;
    // Its pipes stay referenced until it is gone: the test's end is reported on 'close'.
    (this.#child.stdin as Writable).end();
    (this.#child.stdio[3] as Writable).end();
    this.#child.kill("SIGKILL");
  }

  /** A busy worker's pipes keep the event loop alive, an idle one's do not. */
  #setRef(on: boolean): void {
    const child = this.#child;
    for (const handle of [child, child.stdout, child.stderr, child.stdin, child.stdio[3]] as unknown as {
      ref?: () => void;
      unref?: () => void;
      destroyed?: boolean;
    }[]) {
      // A closed pipe has no handle: net.Socket would queue the call for a 'connect' that never comes.
      if (handle?.destroyed === true) continue;
      if (on) handle?.ref?.();
      else handle?.unref?.();
    }
  }
}

/**
 * The worker's script for `command` (an argv in which the word "{}" stands for the candidate's path)
 * and candidates named `fileName` in their test directories. Fed to `bash --norc --noprofile` on its
 * stdin, followed by the lines of the protocol (see the module comment); fd 3 must be a pipe that
 * stays open as long as the worker may run.
 */
export function workerScript(command: readonly string[], fileName: string, splitStderr = false): string {
  const candidate = `"$PWD/"${shellWord(fileName)}`;
  // Every "{}", also inside a word (--file={}), is the candidate's path: the word's other parts are
  // quoted, and bash joins the adjacent pieces into one argument.
  const argv = command
    .map((word) =>
      word.includes(PLACEHOLDER) ? word.split(PLACEHOLDER).map(quotePart).join(candidate) : shellWord(word),
    )
    .join(" ");
  // A function, not a string: `$` in the words must not be taken for replacement patterns.
  // Split: stderr goes to OUT.err beside OUT (the oracle then always names a file, never "-").
  const redirect = splitStderr ? '>"$3" 2>"$3.err"' : '>"$3" 2>&1';
  return WORKER.replace("__WHITTLE_REDIRECT__", () => redirect)
    .replace("__WHITTLE_FILE__", () => shellWord(fileName))
    .replace("__WHITTLE_ARGV__", () => argv);
}

/** Options of a ShellRunner beyond the command. */
export interface ShellRunnerOptions {
  /**
   * The directory the test directories are made in: the workers run there, and a test directory
   * inside it is named relative to it on the worker's line.
   */
  readonly root?: string;
  /** How long a worker may take to get ready and to start a test (default START_LIMIT_MS). */
  readonly startLimitMs?: number;
  /**
   * A descriptor the workers get as their descriptor 4 (RUN_DIR_FD), which every test inherits from
   * them (CommandOracleOptions.inheritFd).
   */
  readonly inheritFd?: number;
  /** Write the test's stderr to OUT.err instead of OUT with its stdout (see workerScript). */
  readonly splitStderr?: boolean;
}

/** The bash workers of one oracle. */
export class ShellRunner {
  readonly #bash: string;
  readonly #env: NodeJS.ProcessEnv;
  readonly #script: string;
  readonly #root: string | undefined;
  readonly #idle: Worker[] = [];
  readonly #all = new Set<Worker>();
  readonly #startLimitMs: number;
  readonly #inheritFd: number | undefined;
  #nextId = 1;
  #closed = false;

  /**
   * `command`: the argv to run, where a word "{}" stands for the candidate's path; `fileName`: the
   * candidate's name inside each test's directory.
   */
  constructor(
    bash: string,
    env: NodeJS.ProcessEnv,
    command: readonly string[],
    fileName: string,
    options: ShellRunnerOptions = {},
  ) {
    this.#bash = bash;
    this.#startLimitMs = options.startLimitMs ?? START_LIMIT_MS;
    this.#inheritFd = options.inheritFd;
    this.#root = options.root === undefined ? undefined : resolve(options.root);
    this.#env = { ...env };
    // A non-interactive bash sources $BASH_ENV at startup: keep it for the tests, not for the worker.
    if (this.#env["BASH_ENV"] !== undefined) {
      this.#env["__WHITTLE_BASH_ENV"] = this.#env["BASH_ENV"];
      delete this.#env["BASH_ENV"];
    }
    this.#script = workerScript(command, fileName, options.splitStderr === true);
  }

  /** The process ids of the bash workers (each runs one test at a time). */
  get workerPids(): number[] {
    return [...this.#all].flatMap((w) => (w.pid === undefined || w.dead ? [] : [w.pid]));
  }

  /**
   * Starts a test in `dir` with output to `outputFile`; resolves once it runs (S line) with its
   * process group. Rejects if no worker can be started.
   */
  async start(dir: string, outputFile: string): Promise<ShellJob> {
    if (this.#closed) throw new Error("the shell runner was closed");
    let worker = this.#idle.pop();
    while (worker?.dead) worker = this.#idle.pop();
    if (worker === undefined) {
      worker = new Worker(this.#bash, this.#env, this.#root, this.#script, this.#inheritFd, (w) => {
        if (this.#closed || w.dead) return;
        this.#idle.push(w);
      });
      this.#all.add(worker);
      const made = worker;
      made.ready.catch(() => this.#all.delete(made));
    }
    // A worker that does not get ready, or does not start the test, within the limit is broken (or
    // the machine is): killing it makes this start() reject, and the oracle spawns its tests instead.
    const picked = worker;
    // Active time: a pause of whittle (Ctrl-Z) does not count.
    const limit = setActiveTimeout(() => picked.abandon(), this.#startLimitMs);
    try {
      // The line goes out at once: a new worker reads it once it is ready, and meanwhile a follow-up
      // can already be queued behind this test (follow).
      const { job, started, ended } = this.#job(dir, outputFile);
      picked.run(job);
      await picked.ready;
      const startedWall = performance.now();
      const startedActive = activeNow();
      const pgid = await started;
      if (pgid === undefined) throw new Error("the test runner shell did not start the test");
      return { pgid, ended, startedWall, startedActive, abandon: () => picked.abandon() };
    } finally {
      limit.cancel();
    }
  }

  /**
   * Queues a test in `dir` to start the moment the one test running now ends with the answer
   * `after` (interesting: status 0; not interesting: 1 to 125; a test killed by a signal, timed out,
   * or not runnable (126, 127) has none): the worker starts it without waiting for Node. Returns
   * undefined, queuing nothing, unless exactly one worker is running a test and has nothing queued
   * behind it for that answer. Once queued, the follow-up runs or is skipped by that rule whether or
   * not anyone still wants it: a caller that no longer does must kill it.
   */
  follow(dir: string, outputFile: string, after: NextIf): ShellFollowUp | undefined {
    if (this.#closed) return undefined;
    let busy: Worker | undefined;
    for (const worker of this.#all) {
      if (worker.dead || this.#idle.includes(worker)) continue;
      if (busy !== undefined) return undefined; // more than one test runs: whose end comes first?
      busy = worker;
    }
    if (busy === undefined || !busy.followable(after)) return undefined;
    const picked = busy;
    const { job, started, ended } = this.#job(dir, outputFile);
    picked.follow(job, after);
    return {
      job: started.then(
        (pgid) =>
          pgid === undefined
            ? undefined
            : {
                pgid,
                ended,
                // A follow-up starts when the worker says so: its clock starts when Node hears it.
                startedWall: performance.now(),
                startedActive: activeNow(),
                abandon: () => picked.abandon(),
              },
        () => undefined,
      ),
    };
  }

  /** A new job for `dir`: its line, and promises for its start (undefined: skipped) and end. */
  #job(
    dir: string,
    outputFile: string,
  ): { job: Job; started: Promise<number | undefined>; ended: Promise<ShellExit> } {
    const root = this.#root;
    const name =
      root !== undefined && dir.startsWith(root + "/") && !dir.slice(root.length + 1).includes("/")
        ? dir.slice(root.length + 1)
        : dir;
    const id = this.#nextId++;
    const line = `${id} ${shellWord(name)} ${outputFile === "/dev/null" ? "-" : shellWord(outputFile)}`;
    let job!: Job;
    const ended = new Promise<ShellExit>((resolveEnded) => {
      job = { id, line, started: () => undefined, failed: () => undefined, ended: resolveEnded };
    });
    const started = new Promise<number | undefined>((resolveStarted, rejectStarted) => {
      job.started = resolveStarted;
      job.failed = (error) => (error === undefined ? resolveStarted(undefined) : rejectStarted(error));
    });
    started.catch(() => undefined);
    return { job, started, ended };
  }

  /** Closes every worker: each kills its running test's group, if any, and exits. */
  close(): void {
    this.#closed = true;
    for (const worker of this.#all) worker.close();
    this.#all.clear();
    this.#idle.length = 0;
  }
}

const SIGNAL_NAMES = new Map<number, NodeJS.Signals>(
  Object.entries(osConstants.signals).map(([name, number]) => [number, name as NodeJS.Signals]),
);

/** Reads bash's $? (see the module comment for 128 + N). */
export function statusToExit(status: number): ShellExit {
  if (status > 128 && status <= 192) {
    return { kind: "exit", code: null, signal: SIGNAL_NAMES.get(status - 128) ?? "SIGKILL" };
  }
  return { kind: "exit", code: status, signal: null };
}

/**
 * Quotes one word for bash so that it stays on one line: ANSI-C quoting ($'…') with every byte
 * outside printable ASCII, and the backslash and single quote, escaped. Non-ASCII text is passed as
 * its UTF-8 bytes, as spawn passes it.
 */
/** A piece of a word around "{}": quoted, or nothing when empty. */
function quotePart(part: string): string {
  return part === "" ? "" : shellWord(part);
}

export function shellWord(word: string): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  let out = "$'";
  for (const byte of Buffer.from(word, "utf8")) {
    if (byte === 0x27 || byte === 0x5c) out += `\\${String.fromCharCode(byte)}`;
    else if (byte >= 0x20 && byte < 0x7f) out += String.fromCharCode(byte);
    else out += `\\x${byte.toString(16).padStart(2, "0")}`;
  }
  return `${out}'`;
}

let bashPath: string | null | undefined;

/** The bash the shell runner uses (the first in PATH), or null when there is none. Looked up once. */
export function findBash(): string | null {
  if (bashPath !== undefined) return bashPath;
  bashPath = null;
  for (const dir of (process.env["PATH"] ?? "").split(delimiter)) {
    if (dir === "") continue;
    const path = join(resolve(dir), "bash");
    if (probeProgram(path) === "ok") {
      bashPath = path;
      break;
    }
  }
  return bashPath;
}

/**
 * Resolves a program name to an absolute path the way execvp would (PATH for bare names, cwd for
 * relative paths); undefined when nothing executable is found.
 */
export function resolveProgram(program: string): string | undefined {
  if (program.includes("/")) return resolve(program);
  for (const dir of (process.env["PATH"] ?? "").split(delimiter)) {
    const path = resolve(dir, program); // an empty PATH entry means the current directory
    if (probeProgram(path) === "ok") return path;
  }
  return undefined;
}

/** Whether `path` is an executable regular file, or why not. */
export function probeProgram(path: string): "ok" | "missing" | "not-executable" {
  try {
    if (!statSync(path).isFile()) return "not-executable";
  } catch {
    return "missing";
  }
  try {
    accessSync(path, constants.X_OK);
    return "ok";
  } catch {
    return "not-executable";
  }
}
