import { isValidUtf8 } from "../atoms/atoms.js";
import { WhittleError } from "../errors.js";
import { rm } from "node:fs/promises";
import { availableParallelism, loadavg } from "node:os";
import { CommandOracle, type CommandRun } from "../oracle/command.js";
import { BUSY_FLOOR_MS, TimeoutPolicy } from "../oracle/timeout-policy.js";
import { reduce, type ReduceResult } from "../reduce/reduce.js";
import { parseArgs, InfoShown, UsageError, type CliOptions } from "./args.js";
import { EXIT } from "./exit.js";
import {
  restoreIfChanged,
  restoreOriginal,
  ResultWriter,
  writeAtomic,
  writeBackup,
  type FifoWait,
} from "./files.js";
import { deliverResult, type Delivery } from "./deliver.js";
import { removeJournal, ResultGate, startJournal, type JournalFile } from "./journal.js";
import { planRun, type RunPlan } from "./plan.js";
import {
  describeInternalError,
  INTERRUPT_SIGNALS,
  interruptedExitCode,
  openRun,
  type RunScope,
} from "./lifecycle.js";
import { limitOf, RunLimits } from "./limits.js";
import {
  formatBytes,
  formatCheckDuration,
  formatDuration,
  formatSaved,
  Progress,
  type ProgressMode,
} from "./progress.js";
import { reproduction } from "./shell.js";
import { runTreeCommand } from "./tree-command.js";
import { EventsLog, startOf } from "./events-file.js";
import { describeQueue, openQueue, QUEUE_JOBS } from "./queue-run.js";
import { loadQueuePackages } from "./queue-packages.js";
import type { QueueClient } from "../queue/client.js";
import { QueueOracle } from "../queue/oracle.js";
import { writeStats, type StatsSummary, type TimeoutSummary } from "./stats-file.js";
import { passesText, withSchedule } from "./schedule-view.js";
import { checkFinal, Judge, ResultHistory, verdictSummary, type FinalCheck } from "./verdict.js";
import { EarlyRetest } from "./early-retest.js";
import { defaultJobs } from "../reduce/default-jobs.js";
import { openReport, type ReportFile } from "./report-file.js";

/** The streams and process hooks the command uses, injectable for tests. */
export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** Registers handlers for SIGINT/SIGTERM/SIGHUP/SIGQUIT; returns a function that removes them. */
  onInterrupt(handler: (signal: string) => void): () => void;
  /** The real process: start a watchdog, handle Ctrl-Z and crashes (see lifecycle.ts). */
  processWide?: boolean;
}

/** Without --timeout the initial check may take this long; later tests get an adaptive limit. */
const INITIAL_CHECK_LIMIT_MS = 300_000;

export const processIo: CliIo = {
  stdout: process.stdout,
  stderr: process.stderr,
  onInterrupt(handler) {
    for (const sig of INTERRUPT_SIGNALS) process.on(sig, handler);
    return () => {
      for (const sig of INTERRUPT_SIGNALS) process.off(sig, handler);
    };
  },
  processWide: true,
};

type Say = (text: string) => void;

/** Error codes that mean the command line or its files are at fault: exit 2. */
const USAGE_CODES: ReadonlySet<string> = new Set([
  "usage",
  "input-not-found",
  "test-not-executable",
  "invalid-option",
  "tmpdir",
  "grammar",
  "syntax",
]);

/** Runs the whittle command; resolves to its exit code (see EXIT). */
export async function runCli(
  argv: readonly string[],
  version: string,
  io: CliIo = processIo,
): Promise<number> {
  // A closed stdout or stderr (the reader went away) must not turn into a crash: a failed write of
  // the result is seen where it is written (and the result saved elsewhere); messages are then lost.
  io.stdout.on("error", () => undefined);
  io.stderr.on("error", () => undefined);
  const say: Say = (text) => void io.stderr.write(`whittle: ${text}\n`);
  if (argv[0] === "tree") return runTreeCommand(argv.slice(1), io.stdout, say);
  // Loaded only when asked for: BullMQ takes a while to load.
  if (argv[0] === "worker") {
    let worker: typeof import("./worker-command.js");
    try {
      worker = await loadQueuePackages("whittle worker", () => import("./worker-command.js"));
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      say(`error: ${error.message}`);
      return EXIT.usage;
    }
    return worker.runWorkerCommand(argv.slice(1), io, say);
  }
  let options: CliOptions;
  try {
    options = parseArgs(argv, version);
  } catch (error) {
    if (error instanceof InfoShown) {
      if (error.text !== undefined) io.stdout.write(error.text);
      return EXIT.done;
    }
    if (error instanceof UsageError) {
      if (error.message) say(`error: ${error.message} (see whittle --help)`);
      return EXIT.usage;
    }
    throw error;
  }

  const controller = new AbortController();
  const limits = new RunLimits(options.limits, controller);
  let interruptedBy: string | undefined;
  const removeHandlers = io.onInterrupt((signal) => {
    if (interruptedBy !== undefined) {
      say("still stopping: cancelling tests and cleaning up…");
      return;
    }
    interruptedBy = signal;
    controller.abort(new Error(`interrupted by ${signal}`));
  });
  let run: RunScope | undefined;
  // --events: opened once the plan accepts it; its last line says how the run ended.
  const events: { log?: EventsLog; version: string } = { version };
  const ended = (code: number, error?: unknown): number =>
    events.log?.end(code, error === undefined ? undefined : describeError(error)) ?? code;
  try {
    run = openRun({ processWide: io.processWide === true });
    limits.start();
    const code = await reduceFile(options, io, controller.signal, say, run, limits, events);
    return ended(code === EXIT.interrupted ? interruptedExitCode(interruptedBy) : code);
  } catch (error) {
    if (error instanceof UsageError) {
      say(`error: ${error.message}`);
      return ended(EXIT.usage, error);
    }
    if (error instanceof WhittleError) {
      // Problems with what the user gave (exit 2), or a reduction that cannot run here (exit 1:
      // e.g. not enough memory for it, found before any test; the output then holds the original).
      say(`error: ${error.message}`);
      return ended(USAGE_CODES.has(error.code) ? EXIT.usage : EXIT.failed, error);
    }
    say(`internal error: ${describeInternalError(error)}`);
    return ended(EXIT.internal, error);
  } finally {
    limits.dispose();
    removeHandlers();
    const left = run?.close();
    if (left !== undefined) say(`warning: ${left}`);
  }
}

/** An error as one line for the user; the stack only with WHITTLE_DEBUG set. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (process.env["WHITTLE_DEBUG"]) return error.stack ?? error.message;
  return error.message;
}

/** The steps of one run: plan, keep the original safe, check it, reduce, deliver and report. */
async function reduceFile(
  o: CliOptions,
  io: CliIo,
  signal: AbortSignal,
  say: Say,
  run: RunScope,
  limits: RunLimits,
  events: { log?: EventsLog; version: string },
): Promise<number> {
  let plan: RunPlan;
  try {
    plan = await planRun(o, run, o.quiet ? undefined : say, { signal });
  } catch (error) {
    // Stopped while reading stdin (INPUT "-"): nothing was tested, nothing written.
    if (!signal.aborted) throw error;
    const limit = limitOf(signal.reason);
    say(`${limit?.message ?? "interrupted"} while reading the input; no output was written`);
    return limit ? EXIT.limit : EXIT.interrupted;
  }
  if (plan.events !== undefined) {
    const how = {
      stdout: io.stdout,
      warn: (text: string) => say(`warning: ${text}`),
      processWide: io.processWide === true,
    };
    events.log = EventsLog.open(plan.events, how, startOf(plan, events.version));
  }
  const mode: ProgressMode = o.quiet ? "quiet" : o.verbose ? "verbose" : io.stderr.isTTY ? "live" : "plain";
  if (plan.notice !== undefined && mode !== "quiet") say(plan.notice);

  // --in-place: the backup is the bytes read at the start, written before any test can touch a file.
  if (plan.backupPath !== undefined) {
    try {
      await writeBackup(plan.backupPath, plan.input, plan.inputLike);
    } catch (error) {
      throw new UsageError(`cannot back up ${o.input} as ${plan.backupPath}: ${describeError(error)}`);
    }
    if (mode !== "quiet") say(`kept the original as ${plan.backupPath}`);
  }
  const report = openReport(plan, say);
  let code: number | undefined;
  let thrown: unknown;
  let remote: QueueClient | undefined;
  try {
    try {
      remote = await openQueue(plan, signal, say);
    } catch (error) {
      if (!signal.aborted) throw error;
      say("interrupted while connecting to Redis; no output was written");
      return EXIT.interrupted;
    }
    code = await checkAndReduce(plan, mode, io, signal, say, limits, report, events.log, remote);
    return code;
  } catch (error) {
    thrown = error;
    throw error;
  } finally {
    await report?.close(code, thrown);
    await remote?.close();
    // Whatever the test did to the input (or the backup), it holds the original bytes again.
    await guardOriginal(plan, say);
    // In place, a run that ends at the initial check never touched the input: its backup goes again.
    if (plan.backupPath !== undefined && code === EXIT.notInteresting) await dropBackup(plan, say);
  }
}

/** Removes the backup of an in-place run that changed nothing, once the input holds the original. */
async function dropBackup(plan: RunPlan, say: Say): Promise<void> {
  try {
    await restoreOriginal(plan.original, plan.input);
    await rm(plan.backupPath!, { force: true });
  } catch (error) {
    say(`warning: the backup ${plan.backupPath} stays: ${describeError(error)}`);
  }
}

/** The initial check, then the reduction, the delivery of its result and the report. */
async function checkAndReduce(
  plan: RunPlan,
  mode: ProgressMode,
  io: CliIo,
  signal: AbortSignal,
  say: Say,
  limits: RunLimits,
  report: ReportFile | undefined,
  events: EventsLog | undefined,
  remote: QueueClient | undefined,
): Promise<number> {
  const o = plan.options;
  const started = Date.now();
  const judge = new Judge(o.verdict);
  const initial = await initialCheck(plan, mode, io, signal, limits, judge, remote);
  if (initial !== "stopped") {
    const { outcome, activeMs } = initial;
    events?.record({ type: "check", what: "original", size: plan.input.length, outcome, ms: activeMs });
  }
  if (initial === "stopped") {
    const limit = limitOf(signal.reason);
    say(`${limit?.message ?? "interrupted"} during the initial check; no output was written`);
    return limit ? EXIT.limit : EXIT.interrupted;
  }
  if (initial.outcome !== "interesting") {
    reportNotInteresting(say, plan, initial, judge.whyNot(initial));
    await writeStatsOrSay(plan, say, io, signal, {
      result: "not-interesting",
      inputBytes: plan.input.length,
      pipeline: plan.pipeline.map((p) => p.name),
      initialCheckMs: Math.round(initial.activeMs),
      wallMs: Date.now() - started,
      verdict: verdictSummary(judge, undefined),
    });
    return EXIT.notInteresting;
  }
  limits.initialEnded();
  // --timeout fixes the limit; otherwise it adapts to the durations of the tests, starting from the
  // initial check's (timeout-policy.ts).
  const cpus = availableParallelism();
  // Without -j: the queue's default, or every core unless the test is too quick (reduce/default-jobs.ts).
  const choice = o.reduce.jobs === undefined && !remote ? defaultJobs(initial.activeMs, cpus) : undefined;
  const jobs = o.reduce.jobs ?? choice?.jobs ?? QUEUE_JOBS;
  // Tests on workers share no cores with each other here: no load factor; and the workers' load is
  // not known here, so the floor stays at its highest.
  const load = remote
    ? { jobs: 1, cpus: 1, floorMs: BUSY_FLOOR_MS }
    : { jobs, cpus, loadAverage: () => loadavg()[0]! };
  const timeoutPolicy = o.timeoutMs === undefined ? new TimeoutPolicy(load) : undefined;
  timeoutPolicy?.observeInitial(initial.activeMs);
  const timeoutText =
    o.timeoutMs !== undefined
      ? formatDuration(o.timeoutMs)
      : `adaptive (now ${formatDuration(timeoutPolicy!.limitMs())})`;
  if (mode !== "quiet") {
    say(
      `${o.input === "-" ? "stdin" : o.input}: ${formatBytes(plan.input.length)}, interesting (initial check ${formatCheckDuration(initial.activeMs)}); ` +
        `reducing with ${passesText(
          plan.pipeline.map((p) => p.name),
          plan.schedule,
          plan.input.length,
        )} (${o.reduce.strategy}), timeout ${timeoutText}` +
        (choice?.quickMs !== undefined
          ? `; one test at a time (a test this quick gains nothing from ${cpus} at once; -j ${cpus} runs ${cpus})`
          : "") +
        ` → ${plan.outputName}${o.inPlace ? " (in place)" : ""}`,
    );
    const judging = judge.describe();
    if (judging !== undefined) say(judging);
    if (o.reduce.atom !== "line" && !isValidUtf8(plan.input)) {
      say("the input is not valid UTF-8: character atoms are single bytes, and every byte is kept exactly");
    }
  }

  const history = new ResultHistory();
  const reduced = await runReduction(
    plan,
    mode,
    io,
    signal,
    say,
    timeoutPolicy,
    limits,
    report,
    events,
    remote,
    judge,
    history,
    jobs,
  );
  const { writer, timeouts, early } = reduced;
  // The reduction is over: a limit no longer applies (to the wait for a FIFO's reader, say).
  limits.dispose();
  // The result is tested once more: a test that is not repeatable is named, and the output gets the
  // last result that was confirmed.
  let final: FinalCheck | undefined;
  if (reduced.result.kind === "done" && !signal.aborted) {
    // With -j > 1 it may have been made already, in a slot no test wanted (EarlyRetest).
    final =
      early === true
        ? { repeatable: true, content: reduced.result.output, delivered: "result", early: true }
        : await retestResult(plan, signal, say, judge, history, reduced.result.output, remote);
    if (final !== undefined && !final.repeatable) writer?.write(final.content);
  }
  const result = final === undefined ? reduced.result : { ...reduced.result, output: final.content };
  if (result.kind === "failed") report?.failed(describeError(result.error));
  const wallMs = Date.now() - started;
  const delivery = await withFifoWait(
    io,
    signal,
    say,
    `waiting for a reader of the FIFO ${plan.outputName} to write the result into (Ctrl-C saves it elsewhere)`,
    (fifo) => deliverResult(plan.output, result.output, writer, io.stdout, plan.fallbackName, fifo),
  );
  await writeStatsOrSay(plan, say, io, signal, {
    result: limits.reached
      ? "limit"
      : result.kind === "stopped" || signal.aborted
        ? "interrupted"
        : result.kind,
    ...(limits.reached ? { limit: limits.reached.option } : {}),
    ...(result.kind === "failed" ? { error: describeError(result.error) } : {}),
    emptyIsInteresting: result.kind === "done" && result.emptyIsInteresting,
    inputBytes: plan.input.length,
    pipeline: plan.pipeline.map((p) => p.name),
    initialCheckMs: Math.round(initial.activeMs),
    jobs,
    timeouts,
    wallMs,
    stats: result.stats,
    outputBytes: result.output.length,
    verdict: verdictSummary(judge, final),
    ...(remote ? { queue: { url: remote.shown, ...remote.status() } } : {}),
  });
  summarize(say, mode, plan, result, delivery, wallMs, timeouts);
  const repeats = judge.summary();
  if (repeats !== undefined && (mode !== "quiet" || final?.repeatable === false)) say(repeats);
  // A finished reduction leaves no journal: its result is final (a failed or stopped one keeps it).
  if (
    plan.journal &&
    result.kind === "done" &&
    final?.repeatable !== false &&
    delivery.kind === "written" &&
    !signal.aborted
  ) {
    await removeJournal(plan.journal).catch((error: unknown) =>
      say(`warning: cannot remove the journal ${plan.journal!.path}: ${describeError(error)}`),
    );
  }
  // A signal that came at any time, even after the reduction (while waiting for a FIFO's reader), is
  // what the exit code says; a limit that stopped the run, exit 4.
  if (signal.aborted) return limitOf(signal.reason) ? EXIT.limit : EXIT.interrupted;
  if (delivery.kind === "lost" || delivery.kind === "fallback") return EXIT.failed;
  if (final?.repeatable === false) return EXIT.failed;
  // TMPDIR filled up (or vanished) during the reduction: the user's environment, like a usage error.
  if (result.kind === "failed" && result.error instanceof WhittleError && result.error.code === "tmpdir") {
    return EXIT.usage;
  }
  return result.kind === "done" ? EXIT.done : result.kind === "stopped" ? EXIT.interrupted : EXIT.failed;
}

/**
 * Runs `write`, which may have to wait for the reader of a FIFO: the wait is said with `notice`
 * (even with --quiet: whittle would seem to hang), and ends at the next signal. After an
 * interruption (`interrupted`), a FIFO without a reader is not waited for at all.
 */
async function withFifoWait<T>(
  io: CliIo,
  interrupted: AbortSignal,
  say: Say,
  notice: string,
  write: (fifo: FifoWait) => Promise<T>,
): Promise<T> {
  const stop = new AbortController();
  const removeStop = io.onInterrupt(() => stop.abort());
  try {
    return await write({ stop: stop.signal, noWait: interrupted.aborted, onWait: () => say(notice) });
  } finally {
    removeStop();
  }
}

/** Runs the test once on the original input, showing that it waits; "stopped" if interrupted. */
/** A pause of the initial check (Ctrl-Z) longer than this makes whittle check the original again. */
const PAUSE_THAT_COUNTS_MS = 20;

async function initialCheck(
  plan: RunPlan,
  mode: ProgressMode,
  io: CliIo,
  signal: AbortSignal,
  limits: RunLimits,
  judge: Judge,
  remote: QueueClient | undefined,
): Promise<CommandRun | "stopped"> {
  const limitMs = plan.options.timeoutMs ?? INITIAL_CHECK_LIMIT_MS;
  const check = checkOracle(plan, limitMs, judge, remote);
  const progress = new Progress(mode, plan.input.length, io.stderr);
  progress.checking(limitMs);
  try {
    limits.initialStarting();
    const first = await judge.checkOriginal(() => check.run(plan.input, signal));
    // Stopped by Ctrl-Z while it ran, the check's duration is no measure of the test: its wall time
    // holds the pause, and its active time may be too short (a test that sleeps slept through the
    // pause). The adaptive timeout starts from it, so an interesting original is checked once more.
    if (first.outcome !== "interesting" || first.durationMs - first.activeMs < PAUSE_THAT_COUNTS_MS)
      return first;
    limits.initialStarting();
    return await judge.checkOriginal(() => check.run(plan.input, signal));
  } catch (error) {
    if (signal.aborted) return "stopped";
    throw error;
  } finally {
    progress.finish();
    await check.close();
  }
}

/**
 * An oracle for a few checks (of the original, of the result): no bash worker to start; with
 * --queue, a worker runs them (the test's program need not exist here).
 */
function checkOracle(
  plan: RunPlan,
  limitMs: number,
  judge: Judge,
  remote: QueueClient | undefined,
): CommandOracle | QueueOracle {
  if (remote) return new QueueOracle(remote, { timeoutMs: limitMs });
  const captureStreams = judge.captureStreams;
  return new CommandOracle({
    command: plan.command,
    fileName: plan.fileName,
    env: plan.env,
    timeoutMs: limitMs,
    tmpRoot: plan.run.dir,
    groups: plan.run.groups,
    inheritFd: plan.run.dirFd,
    runner: "spawn", // its duration is the test's own
    ...(captureStreams !== undefined ? { captureStreams } : {}),
  });
}

/** The final re-test of the result (see checkFinal); undefined if interrupted. */
async function retestResult(
  plan: RunPlan,
  signal: AbortSignal,
  say: Say,
  judge: Judge,
  history: ResultHistory,
  result: Uint8Array,
  remote: QueueClient | undefined,
): Promise<FinalCheck | undefined> {
  const check = checkOracle(plan, plan.options.timeoutMs ?? INITIAL_CHECK_LIMIT_MS, judge, remote);
  try {
    return await checkFinal(judge, (content) => check.run(content, signal), result, history, plan.input, say);
  } catch (error) {
    if (signal.aborted) return undefined;
    throw error;
  } finally {
    await check.close();
  }
}

/**
 * The reduction itself. From its start the output always holds an interesting input: first the
 * original, then each improvement, each written atomically as it is found.
 */
async function runReduction(
  plan: RunPlan,
  mode: ProgressMode,
  io: CliIo,
  signal: AbortSignal,
  say: Say,
  timeoutPolicy: TimeoutPolicy | undefined,
  limits: RunLimits,
  report: ReportFile | undefined,
  events: EventsLog | undefined,
  remote: QueueClient | undefined,
  judge: Judge,
  history: ResultHistory,
  jobs: number,
): Promise<{
  result: ReduceResult;
  writer: ResultWriter | undefined;
  timeouts: TimeoutSummary;
  /** The early re-test's answer for the result (EarlyRetest.answerFor). */
  early: boolean | undefined;
}> {
  const target = plan.output;
  let writer: ResultWriter | undefined;
  if (target.kind === "file") {
    writer = new ResultWriter(target.path, target.like, (error) =>
      say(
        `warning: cannot write the result to ${plan.outputName}: ${describeError(error)}; ` +
          "it keeps an earlier (larger, interesting) result, and the next improvement is tried again",
      ),
    );
    try {
      if (plan.options.inPlace) await restoreIfChanged(target.path, plan.input, plan.inputLike);
      // --resume keeps a result of the interrupted run (journal.ts) until a smaller one is found.
      else if (plan.journal?.keptResult === undefined)
        await writeAtomic(target.path, plan.input, target.like);
    } catch (error) {
      throw new UsageError(`cannot write the output ${plan.outputName}: ${describeError(error)}`);
    }
  }
  const progress = new Progress(
    mode,
    plan.input.length,
    io.stderr,
    undefined,
    plan.pipeline.map((pass) => pass.name),
  );
  if (remote) progress.addStatus(() => describeQueue(remote.status()));
  const oracle = remote
    ? new QueueOracle(remote, { timeoutMs: plan.options.timeoutMs, timeoutPolicy })
    : new CommandOracle({
        command: plan.command,
        fileName: plan.fileName,
        env: plan.env,
        timeoutMs: plan.options.timeoutMs,
        timeoutPolicy,
        captureOutput: false,
        ...(judge.captureStreams !== undefined ? { captureStreams: judge.captureStreams } : {}),
        recycleDirectories: true,
        tmpRoot: plan.run.dir,
        groups: plan.run.groups,
        inheritFd: plan.run.dirFd,
      });
  const gate = new ResultGate(plan.journal?.keptResult);
  const retests = new EarlyRetest(
    () => checkOracle(plan, plan.options.timeoutMs ?? INITIAL_CHECK_LIMIT_MS, judge, remote),
    judge,
  );
  let journal: JournalFile | undefined;
  try {
    if (plan.journal !== undefined)
      journal = await startJournal(plan.journal, mode === "quiet" ? undefined : say, (text) =>
        say(`warning: ${text}`),
      );
    const test = limits.gate(judge.test(oracle));
    const result = await reduce(plan.input, test, {
      ...plan.options.reduce,
      jobs,
      // Tests on workers take none of this machine's cores.
      ...(remote ? { spare: () => true } : {}),
      pipeline: plan.pipeline,
      ...(plan.frontEnd ? { syntax: plan.frontEnd } : {}),
      ...(journal ? { journal } : {}),
      assumeInteresting: true,
      idleWork: retests.run,
      signal,
      onEvent: (event) => {
        limits.listener(event);
        progress.listener(event);
        report?.listener(event);
        events?.record(event);
        if (event.type === "improved" && gate.admit(event.content)) {
          writer?.write(event.content);
          history.push(event.content);
        }
      },
    });
    if (gate.missed) writer?.write(result.output);
    const runs = oracle.counters;
    const timeouts: TimeoutSummary = {
      mode: plan.options.timeoutMs === undefined ? "adaptive" : "fixed",
      limitMs: oracle.timeoutLimitMs(),
      runs: runs.timeouts,
      totalMs: runs.timeoutMs,
      retests: runs.retests,
    };
    const early =
      result.kind === "done" && !signal.aborted ? await retests.answerFor(result.output) : undefined;
    return { result, writer, timeouts, early };
  } finally {
    journal?.close();
    progress.finish();
    await retests.close();
    await oracle.close();
  }
}

/**
 * A test may write to `$WHITTLE_INPUT` or to the input itself. Whatever it did, the input (or, in
 * place, its backup) holds the original bytes again when whittle ends; a symlinked input keeps its
 * link, and the bytes go back into the file it links to.
 */
async function guardOriginal(plan: RunPlan, say: Say): Promise<void> {
  const backup = plan.backupPath;
  const { path, link } = plan.original;
  // Named truthfully: what changed, and where the bytes went back.
  const what = backup ?? (link !== undefined ? `${path} (the target of the symlink ${link.path})` : path);
  const into = backup === undefined && link !== undefined ? ` into ${path}` : "";
  try {
    if (backup !== undefined) {
      if (!(await restoreIfChanged(backup, plan.input, plan.inputLike))) return;
    } else {
      const { relinked, rewritten } = await restoreOriginal(plan.original, plan.input);
      if (relinked) {
        say(
          `warning: the test replaced the symlink ${link!.path}; whittle made it a symlink to ${link!.target} again`,
        );
      }
      if (!rewritten) return;
    }
    say(`warning: the test changed ${what}; whittle wrote the original bytes back${into}`);
  } catch (error) {
    say(`warning: the test changed ${what}, and restoring it failed: ${describeError(error)}`);
  }
}

async function writeStatsOrSay(
  plan: RunPlan,
  say: Say,
  io: CliIo,
  signal: AbortSignal,
  summary: StatsSummary,
): Promise<void> {
  if (plan.statsPath === undefined) return;
  const statsPath = plan.statsPath;
  try {
    await withFifoWait(
      io,
      signal,
      say,
      `waiting for a reader of the FIFO ${plan.options.stats} to write the statistics into (Ctrl-C gives up)`,
      (fifo) => writeStats(statsPath, withSchedule(summary, plan), plan.options.reduce, fifo),
    );
  } catch (error) {
    say(`warning: cannot write the statistics to ${plan.options.stats}: ${describeError(error)}`);
  }
}

function summarize(
  say: Say,
  mode: ProgressMode,
  plan: RunPlan,
  result: ReduceResult,
  delivery: Delivery,
  wallMs: number,
  timeouts: TimeoutSummary,
): void {
  const input = plan.input;
  const s = result.stats;
  if (result.kind === "done" && result.emptyIsInteresting) {
    say(
      "warning: the test finds the EMPTY input interesting, so the result is an empty file. The test " +
        "probably does not check for the failure itself (e.g. it only checks an exit code that any " +
        "input gives); make it match the exact error message.",
    );
  }
  if (result.kind === "failed") {
    // whittle's own errors say what happened and what to do; anything else is named as a failure.
    const why =
      result.error instanceof WhittleError
        ? result.error.message
        : `the reduction failed: ${describeError(result.error)}`;
    say(`error: ${why}`);
  }
  if (mode !== "quiet" || result.kind !== "done" || delivery.kind !== "written") {
    const how =
      result.kind === "done"
        ? "done"
        : result.kind === "stopped"
          ? (limitOf(result.reason)?.message ?? "interrupted")
          : "failed";
    say(
      `${how}: ${formatBytes(input.length)} → ${formatBytes(result.output.length)} ` +
        `(${formatSaved(input.length, result.output.length)} smaller) in ${formatDuration(wallMs)}; ${s.tests} tests, ${s.cacheHits} cache hits, ` +
        `${s.syntaxSkips ? `${s.syntaxSkips} syntax skips, ` : ""}${s.iterations} rounds` +
        `${timeouts.runs ? `, ${timeouts.runs} timeouts (${formatDuration(timeouts.totalMs)})` : ""}` +
        `${s.timeoutSkips ? `, ${s.timeoutSkips} taken for timeouts untested` : ""}` +
        `${timeouts.retests ? `, ${timeouts.retests} re-tests after the timeout rose` : ""}` +
        `${s.killed ? `, ${s.killed} killed by a signal` : ""}.`,
    );
    const passes = Object.entries(s.passes).filter(([, p]) => p.tests > 0 || p.bytesRemoved > 0);
    if (passes.length > 0)
      say(
        `per pass (tests, bytes removed, time): ` +
          passes
            .map(
              ([name, p]) =>
                `${name} ${p.tests}, ${formatBytes(p.bytesRemoved)}, ${formatDuration(p.ms)}` +
                parenthesized([
                  // A rewrite that keeps the length (`literal`'s 7 → 0) removes no byte, but it changed
                  // the input, and what it buys shows in the passes after it.
                  ...(p.improvements > 0 && p.bytesRemoved === 0
                    ? [`${p.improvements} ${p.improvements === 1 ? "change" : "changes"} of the same size`]
                    : []),
                  ...(p.timeouts ? [`${p.timeouts} timeouts, ${formatDuration(p.timeoutMs)}`] : []),
                  ...(p.timeoutSkips ? [`${p.timeoutSkips} taken for timeouts`] : []),
                ]),
            )
            .join("; "),
      );
  }
  const what = result.kind === "done" ? "Result" : "Best result so far";
  switch (delivery.kind) {
    case "written":
      if (mode !== "quiet" || result.kind !== "done") say(`${what} in ${plan.outputName}`);
      break;
    case "fallback":
      say(
        `error: cannot write the result to ${plan.outputName} (${describeError(delivery.error)}); ` +
          `${what.toLowerCase()} saved as ${delivery.path}`,
      );
      break;
    case "lost":
      say(
        `error: cannot write the result to ${plan.outputName} (${describeError(delivery.error)}), nor anywhere else` +
          (delivery.onDisk !== undefined
            ? `; ${plan.outputName} holds an earlier interesting result of ${formatBytes(delivery.onDisk)}`
            : ""),
      );
      break;
  }
}

function reportNotInteresting(say: Say, plan: RunPlan, run: CommandRun, why: string | undefined): void {
  const how =
    run.outcome === "timeout"
      ? `timed out after ${formatDuration(run.activeMs)} (raise --timeout if the test is just slow)`
      : run.signal
        ? `was killed by ${run.signal}`
        : `exited with code ${run.exitCode}`;
  say(
    `error: the original input is not interesting: the test ${how}; ` +
      (why ??
        `it must exit 0 on ${plan.options.input === "-" ? "the input from stdin" : plan.options.input}`) +
      ".",
  );
  const fromStdin = plan.options.input === "-";
  const repro = reproduction(plan.command, plan.fileName, fromStdin ? undefined : plan.inputPath);
  say(`the test ran as: ${repro.argv}`);
  say(
    `in a fresh temporary directory holding a copy of the input as ${plan.fileName}. To reproduce` +
      `${fromStdin ? " (with the same input on stdin)" : ""}:`,
  );
  say(`  ${repro.script}`);
  const tail = run.outputTail.trimEnd();
  if (tail) {
    say("last output of the test:");
    for (const line of tail.split("\n").slice(-20)) say(`  | ${line}`);
  } else {
    say("the test printed nothing.");
  }
  if (/No such file or directory|not found/i.test(tail)) {
    say(
      "hint: the test runs in a fresh temporary directory, not where you started whittle: refer to " +
        "your own files by absolute path, or through $WHITTLE_CWD.",
    );
  }
}

/** " (a; b)" for the parts given, nothing for none. */
function parenthesized(parts: readonly string[]): string {
  return parts.length === 0 ? "" : ` (${parts.join("; ")})`;
}
