/**
 * What a run of the whittle command owns, and how it lets go of it however the run ends: one run
 * directory below TMPDIR holding every test's sandbox, the process groups of the running tests, and
 * a watchdog process that cleans up both if whittle dies without doing so itself.
 *
 * How each way of ending is handled:
 * - normal end, SIGINT, SIGTERM, SIGHUP, SIGQUIT: the reduction is cancelled (run.ts), the tests are
 *   killed by the oracle, the best result is written, `close()` removes the run directory;
 * - an uncaught exception or unhandled rejection: a one-line error, SIGTERM to the running tests, the
 *   run directory removed, exit 1; the watchdog SIGKILLs what did not stop;
 * - SIGKILL (or any death that runs no code): the watchdog notices its pipe closing and cleans up;
 * - Ctrl-Z (SIGTSTP): the bash workers and the running tests are stopped (SIGSTOP), then whittle
 *   itself; on SIGCONT (fg, bg) they are resumed and the pause is left out of the tests' timeouts and
 *   durations.
 */
import { closeSync, openSync } from "node:fs";

import { noteSuspended } from "../oracle/clock.js";
import { allTrackers, type GroupTracker } from "../oracle/groups.js";
import { signalGroup } from "../oracle/sandbox.js";
import { suspendWorkers } from "../oracle/shell.js";
import type { Unremoved } from "../oracle/remove-tree.js";
import { liveProcesses, runProcesses } from "../oracle/run-processes.js";
import { createRunDir, describeTmpdir, removeRunDir } from "../oracle/tmpdir.js";
import { Watchdog } from "../oracle/watchdog.js";
import { EXIT } from "./exit.js";
import { trackTempFiles } from "./files.js";

/** The signals that stop a reduction and keep its best result. */
export const INTERRUPT_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"] as const;

/**
 * The exit code after an interruption by `signal`: 128 + the signal's number for SIGHUP (129) and
 * SIGQUIT (131); SIGINT and SIGTERM keep the documented 130.
 */
export function interruptedExitCode(signal: string | undefined): number {
  if (signal === "SIGHUP") return 129;
  if (signal === "SIGQUIT") return 131;
  return EXIT.interrupted;
}

/** One line about an unexpected error; its stack trace too when WHITTLE_DEBUG is set. */
export function describeInternalError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (process.env["WHITTLE_DEBUG"]) return error.stack ?? error.message;
  const line = `${error.message.split("\n")[0]} (set WHITTLE_DEBUG=1 for details)`;
  return error.name && error.name !== "Error" ? `${error.name}: ${line}` : line;
}

/** The process groups of the tests running now, kept in whittle to stop, resume or kill them. */
export class LiveGroups implements GroupTracker {
  readonly #groups = new Set<number>();

  started(pgid: number): void {
    this.#groups.add(pgid);
  }

  ended(pgid: number): void {
    this.#groups.delete(pgid);
  }

  /** Sends `sig` to every running test's process group. */
  signal(sig: NodeJS.Signals): void {
    for (const pgid of this.#groups) signalGroup(pgid, sig);
  }
}

/** What one run of the command holds; `close()` releases it all. */
export interface RunScope {
  /** The run directory, `$TMPDIR/whittle-XXXXXX`: the tests' sandboxes go below it (tmpRoot). */
  readonly dir: string;
  /** Pass to every oracle of the run (CommandOracleOptions.groups). */
  readonly groups: GroupTracker;
  /**
   * A descriptor open on the run directory, for every test to inherit (CommandOracleOptions
   * .inheritFd): processes of the run that left their test's group are found by it.
   */
  readonly dirFd: number | undefined;
  /**
   * Removes the run directory, lets the watchdog go and removes the process-wide handlers. Returns a
   * warning for the user when something in the run directory could not be removed.
   */
  close(): string | undefined;
}

/**
 * Opens a run: checks TMPDIR and creates the run directory (throws `WhittleError("tmpdir")` naming
 * TMPDIR when it is unusable). With `processWide` (the real command, not an in-process test of
 * runCli) it also starts the watchdog, which is told of the temporary files whittle writes, and
 * installs the handlers for Ctrl-Z and for crashes.
 */
export function openRun(options: { processWide: boolean }): RunScope {
  const dir = createRunDir();
  let dirFd: number | undefined;
  try {
    dirFd = openSync(dir, "r");
  } catch {
    // no descriptor to mark the tests with: they are still found by their group, directory and environment
  }
  const live = new LiveGroups();
  const watchdog = options.processWide ? Watchdog.start(dir) : undefined;
  const groups = watchdog ? allTrackers(live, watchdog) : live;
  if (watchdog) trackTempFiles(watchdog);
  const removeGuards = options.processWide ? guardProcess(dir, live) : () => undefined;
  let closed = false;
  return {
    dir,
    groups,
    dirFd,
    close() {
      if (closed) return undefined;
      closed = true;
      removeGuards();
      if (watchdog) trackTempFiles(undefined);
      // Closed first: whittle itself must not count as a process of the run.
      if (dirFd !== undefined) closeSync(dirFd);
      // The tests' groups are gone by now; processes that left them are the watchdog's to end (off
      // whittle's path). Without a watchdog, whittle at least asks them to stop.
      if (watchdog?.listening !== true) signalRunProcesses(dir, "SIGTERM");
      const left = removeRunDir(dir);
      watchdog?.close();
      return left && unremovedWarning(dir, left);
    },
  };
}

/** Sends `sig` (and SIGCONT, so that a stopped one can act on it) to every process of the run. */
function signalRunProcesses(dir: string, sig: NodeJS.Signals): void {
  const exclude = new Set([process.pid]);
  for (const { pid } of runProcesses(dir, liveProcesses(), { exclude })) {
    try {
      process.kill(pid, sig);
      process.kill(pid, "SIGCONT");
    } catch {
      // gone, or not ours
    }
  }
}

/** The warning about what a test left in the run directory that could not be removed. */
function unremovedWarning(dir: string, left: Unremoved): string {
  return `could not remove ${left.path} (${left.code}), which a test left; ${dir} stays in ${describeTmpdir()}`;
}

/** Installs the process-wide handlers of a run; returns a function that removes them. */
function guardProcess(dir: string, live: LiveGroups): () => void {
  // Ctrl-Z: stop the workers (see suspendWorkers: a worker whose test is stopped would spin), the
  // tests, then whittle. SIGSTOP rather than re-raising SIGTSTP, which would only come back to this
  // handler; the shell reports the job as stopped either way.
  let stoppedAt: number | undefined;
  let resumeWorkers = (): void => undefined;
  const onStop = (): void => {
    stoppedAt = performance.now();
    resumeWorkers = suspendWorkers();
    live.signal("SIGSTOP");
    // Linux stops a process that signals itself before kill() returns, so this returns after fg or
    // bg: resume at once, before any timer of the event loop can see the pause.
    process.kill(process.pid, "SIGSTOP");
    onContinue();
  };
  // fg or bg (or any SIGCONT): resume the tests; the pause does not count toward their timeouts.
  const onContinue = (): void => {
    if (stoppedAt === undefined) return;
    noteSuspended(performance.now() - stoppedAt);
    stoppedAt = undefined;
    live.signal("SIGCONT");
    resumeWorkers();
    resumeWorkers = () => undefined;
  };

  // A crash: one line, the tests told to stop, the run directory removed, exit 1. The watchdog
  // SIGKILLs whatever ignores SIGTERM and removes what the dying tests write meanwhile.
  const onCrash = (error: unknown): void => {
    try {
      process.stderr.write(`whittle: internal error: ${describeInternalError(error)}\n`);
    } catch {
      // stderr is gone (a closed terminal): exit all the same
    }
    live.signal("SIGTERM");
    live.signal("SIGCONT");
    const left = removeRunDir(dir);
    try {
      if (left) process.stderr.write(`whittle: warning: ${unremovedWarning(dir, left)}\n`);
    } catch {
      // as above
    }
    process.exit(EXIT.internal);
  };

  // After a hang-up, writing to the terminal fails (EIO); that must not turn into a crash.
  const ignore = (): void => undefined;
  process.stderr.on("error", ignore);
  process.on("SIGTSTP", onStop);
  process.on("SIGCONT", onContinue);
  process.on("uncaughtException", onCrash);
  process.on("unhandledRejection", onCrash);
  const crashTimer = testCrashHook();
  return () => {
    clearTimeout(crashTimer);
    process.off("SIGTSTP", onStop);
    process.off("SIGCONT", onContinue);
    process.off("uncaughtException", onCrash);
    process.off("unhandledRejection", onCrash);
    process.stderr.off("error", ignore);
  };
}

/**
 * A hook for the tests of the crash path, and only for them: WHITTLE_TEST_CRASH=throw:<ms> throws an
 * uncaught exception <ms> milliseconds into the run, WHITTLE_TEST_CRASH=reject:<ms> leaves a promise
 * rejection unhandled. Nothing else reads it, and without it nothing happens.
 */
function testCrashHook(): NodeJS.Timeout | undefined {
  const match = /^(throw|reject):(\d+)$/.exec(process.env["WHITTLE_TEST_CRASH"] ?? "");
  if (!match) return undefined;
  const how = match[1];
  const timer = setTimeout(() => {
    const error = new Error(`crash requested by WHITTLE_TEST_CRASH=${how}:${match[2]}`);
    if (how === "throw") throw error;
    void Promise.reject(error);
  }, Number(match[2]));
  timer.unref();
  return timer;
}
