import { readFile, stat, writeFile } from "node:fs/promises";
import { basename, resolve } from "node:path";
import { isValidUtf8 } from "../atoms/atoms.js";
import { WhittleError } from "../errors.js";
import { availableParallelism } from "node:os";
import { CommandOracle, type CommandRun } from "../oracle/command.js";
import { TimeoutPolicy } from "../oracle/timeout-policy.js";
import { reduce, type ReduceResult } from "../reduce/reduce.js";
import { parseArgs, InfoShown, UsageError, type CliOptions } from "./args.js";
import { EXIT } from "./exit.js";
import { backupOnce, defaultOutputPath, OrderedWriter, writeAtomic } from "./files.js";
import { formatBytes, formatDuration, Progress, type ProgressMode } from "./progress.js";

/** The streams and process hooks the command uses, injectable for tests. */
export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** Registers handlers for SIGINT/SIGTERM; returns a function that removes them. */
  onInterrupt(handler: (signal: string) => void): () => void;
}

/** Without --timeout: the initial check may take this long; tests get an adaptive limit (timeout-policy.ts). */
const INITIAL_CHECK_LIMIT_MS = 300_000;

export const processIo: CliIo = {
  stdout: process.stdout,
  stderr: process.stderr,
  onInterrupt(handler) {
    process.on("SIGINT", handler);
    process.on("SIGTERM", handler);
    return () => {
      process.off("SIGINT", handler);
      process.off("SIGTERM", handler);
    };
  },
};

/** Runs the whittle command; resolves to its exit code (see EXIT). */
export async function runCli(
  argv: readonly string[],
  version: string,
  io: CliIo = processIo,
): Promise<number> {
  const say = (text: string): void => void io.stderr.write(`whittle: ${text}\n`);
  let options: CliOptions;
  try {
    options = parseArgs(argv, version);
  } catch (error) {
    if (error instanceof InfoShown) return EXIT.done;
    if (error instanceof UsageError) {
      if (error.message) say(`error: ${error.message} (see whittle --help)`);
      return EXIT.usage;
    }
    throw error;
  }

  const controller = new AbortController();
  let interrupted = false;
  const removeHandlers = io.onInterrupt((signal) => {
    if (interrupted) {
      say("still stopping: cancelling tests and cleaning up…");
      return;
    }
    interrupted = true;
    controller.abort(new Error(`interrupted by ${signal}`));
  });
  try {
    return await reduceFile(options, io, controller.signal, say);
  } catch (error) {
    if (
      error instanceof WhittleError &&
      (error.code === "test-not-executable" || error.code === "invalid-option")
    ) {
      say(`error: ${error.message}`);
      return EXIT.usage;
    }
    say(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return EXIT.internal;
  } finally {
    removeHandlers();
  }
}

async function reduceFile(
  o: CliOptions,
  io: CliIo,
  signal: AbortSignal,
  say: (text: string) => void,
): Promise<number> {
  // The input: it must be a readable regular file.
  const inputPath = resolve(o.input);
  let input: Uint8Array;
  try {
    if (!(await stat(inputPath)).isFile()) {
      say(`error: input ${o.input} is not a regular file`);
      return EXIT.usage;
    }
    input = await readFile(inputPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    say(`error: cannot read input ${o.input}: ${code === "ENOENT" ? "no such file" : String(error)}`);
    return EXIT.usage;
  }

  // The test: a --test script is resolved against our cwd (the test runs elsewhere).
  const command = [...o.command];
  command[0] = o.command[0]!.includes("/") ? resolve(o.command[0]!) : o.command[0]!;
  await CommandOracle.checkExecutable(command[0]);

  const outputPath = o.inPlace
    ? inputPath
    : o.output === "-"
      ? undefined
      : resolve(o.output ?? defaultOutputPath(o.input));
  if (outputPath === inputPath && !o.inPlace) {
    say("error: the output would overwrite the input; use --in-place to reduce the input itself");
    return EXIT.usage;
  }

  /** How the output is named to the user. */
  const outputName = o.inPlace ? o.input : outputPath ? (o.output ?? defaultOutputPath(o.input)) : "stdout";
  const fileName = basename(inputPath);
  const env = { WHITTLE_INPUT: inputPath, WHITTLE_CWD: process.cwd() };
  const mode: ProgressMode = o.quiet ? "quiet" : o.verbose ? "verbose" : io.stderr.isTTY ? "live" : "plain";

  // The initial check, counted apart from the reduction's tests.
  const check = new CommandOracle({
    command,
    fileName,
    env,
    timeoutMs: o.timeoutMs ?? INITIAL_CHECK_LIMIT_MS,
    runner: "spawn", // [timeouts] one test: no bash worker to start, so its duration is the test's own
  });
  let initial: CommandRun;
  try {
    initial = await check.run(input, signal);
  } catch (error) {
    if (signal.aborted) {
      say("interrupted during the initial check; nothing was written");
      return EXIT.interrupted;
    }
    throw error;
  } finally {
    await check.close();
  }
  if (initial.outcome !== "interesting") {
    reportNotInteresting(say, o, command, fileName, initial);
    return EXIT.notInteresting;
  }
  // [timeouts] --timeout fixes the limit; otherwise it adapts to the durations of the tests, starting
  // from the initial check's (timeout-policy.ts).
  const cpus = availableParallelism();
  const timeoutPolicy =
    o.timeoutMs === undefined ? new TimeoutPolicy({ jobs: o.jobs ?? cpus, cpus }) : undefined;
  timeoutPolicy?.observeInitial(initial.durationMs);
  const timeoutText =
    o.timeoutMs !== undefined
      ? formatDuration(o.timeoutMs)
      : `adaptive (now ${formatDuration(timeoutPolicy!.limitMs())})`;
  // [/timeouts]
  if (mode !== "quiet") {
    say(
      `${o.input}: ${formatBytes(input.length)}, interesting (initial check ${formatDuration(initial.durationMs)}); ` +
        `reducing with ${o.atom} atoms, ${o.strategy}, timeout ${timeoutText}` +
        ` → ${outputName}${o.inPlace ? " (in place)" : ""}`,
    );
  }

  if (mode !== "quiet" && o.atom !== "line" && !isValidUtf8(input)) {
    say("the input is not valid UTF-8: character atoms are single bytes, and every byte is kept exactly");
  }

  // From here on the output always holds an interesting input: first the original, then each improvement.
  try {
    if (o.inPlace) {
      const backup = await backupOnce(inputPath);
      if (mode !== "quiet") say(`kept the original as ${backup}`);
    } else if (outputPath) {
      await writeAtomic(outputPath, input);
    }
  } catch (error) {
    const what = o.inPlace ? `back up ${o.input}` : `write the output ${outputName}`;
    say(`error: cannot ${what}: ${(error as Error).message}`);
    return EXIT.usage;
  }
  const writer = outputPath ? new OrderedWriter(outputPath) : undefined;
  const progress = new Progress(mode, input.length, io.stderr);
  const oracle = new CommandOracle({
    command,
    fileName,
    env,
    timeoutMs: o.timeoutMs,
    timeoutPolicy,
    captureOutput: false,
    recycleDirectories: true,
  });

  // What the reduction is asked to do, passed to reduce() and recorded in --stats.
  const reduceOptions = {
    atom: o.atom,
    splitFactor: o.splitFactor,
    strategy: o.strategy,
    subsetOrder: o.subsetOrder,
    complementOrder: o.complementOrder,
    ddStar: o.ddStar,
    jobs: o.jobs,
    combine: o.combine,
    firstWins: o.firstWins,
    cache: o.cache,
    cacheFail: o.cacheFail,
    cacheEvict: o.cacheEvict,
  };
  const started = Date.now();
  let result: ReduceResult;
  try {
    result = await reduce(input, (candidate, s) => oracle.test(candidate, s), {
      ...reduceOptions,
      assumeInteresting: true,
      signal,
      onEvent: (event) => {
        progress.listener(event);
        if (event.type === "improved") writer?.write(event.content);
      },
    });
  } finally {
    progress.finish();
    await writer?.flush();
    await oracle.close();
  }
  const wallMs = Date.now() - started;
  // [timeouts] What the tests that timed out cost, re-tests included.
  const runs = oracle.counters;
  const timeoutLimitMs = oracle.timeoutLimitMs();
  // [/timeouts]

  if (!outputPath) io.stdout.write(result.output);
  if (o.stats) {
    const s = result.stats;
    const summary = {
      result: result.kind === "done" ? "done" : "interrupted",
      tests: s.tests,
      cacheHits: s.cacheHits,
      iterations: s.iterations,
      timeouts: s.timeouts,
      cancelled: s.cancelled,
      inputBytes: s.inputBytes,
      outputBytes: result.output.length,
      wallMs,
      initialCheckMs: Math.round(initial.durationMs),
      // [timeouts] the limit at the end (fixed or adaptive), the runs that timed out and their time
      timeoutMs: timeoutLimitMs ?? null,
      timeoutMode: o.timeoutMs === undefined ? "adaptive" : "fixed",
      timedOutRuns: runs.timeouts,
      timeoutTotalMs: Math.round(runs.timeoutMs),
      retests: runs.retests,
      // [/timeouts]
      cache: s.cache,
      options: {
        ...reduceOptions,
        splitFactor: Number.isFinite(o.splitFactor) ? o.splitFactor : "inf",
        jobs: o.jobs ?? null,
      },
    };
    await writeFile(o.stats, JSON.stringify(summary, null, 2) + "\n");
  }

  if (mode !== "quiet" || result.kind === "stopped") {
    const s = result.stats;
    const saved = input.length === 0 ? 0 : 100 * (1 - result.output.length / input.length);
    say(
      `${result.kind === "done" ? "done" : "interrupted"}: ${formatBytes(input.length)} → ${formatBytes(result.output.length)} ` +
        `(${saved.toFixed(1)}% smaller) in ${formatDuration(wallMs)}; ${s.tests} tests, ${s.cacheHits} cache hits, ` +
        `${s.iterations} rounds` +
        // [timeouts]
        `${runs.timeouts ? `, ${runs.timeouts} timeouts (${formatDuration(runs.timeoutMs)})` : ""}` +
        `${runs.retests ? `, ${runs.retests} re-tests after the timeout rose` : ""}. ` +
        // [/timeouts]
        `${result.kind === "done" ? "Result" : "Best so far"} in ${outputName}`,
    );
  }
  return result.kind === "done" ? EXIT.done : EXIT.interrupted;
}

function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

function reportNotInteresting(
  say: (text: string) => void,
  o: CliOptions,
  command: readonly string[],
  fileName: string,
  run: CommandRun,
): void {
  const how =
    run.outcome === "timeout"
      ? `timed out after ${formatDuration(run.durationMs)} (raise --timeout if the test is just slow)`
      : run.signal
        ? `was killed by ${run.signal}`
        : `exited with code ${run.exitCode}`;
  const args = command.slice(1);
  const argv = args.includes("{}")
    ? [command[0]!, ...args.map((a) => (a === "{}" ? `./${fileName}` : a))]
    : [...command, `./${fileName}`];
  say(`error: the original input is not interesting: the test ${how}; it must exit 0 on ${o.input}.`);
  say(`the test ran as: ${argv.map(shellQuote).join(" ")}`);
  say(`in a fresh temporary directory holding a copy of the input as ${fileName}. To reproduce:`);
  say(
    `  d=$(mktemp -d) && cp ${shellQuote(resolve(o.input))} "$d/${fileName}" && (cd "$d" && ${argv.map(shellQuote).join(" ")}); echo "exit $?"`,
  );
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
