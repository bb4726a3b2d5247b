import { closeSync, constants, openSync, readSync, statSync, writeSync } from "node:fs";
import { resolve } from "node:path";
import type { ReductionEvent } from "../reduce/events.js";
import type { Outcome } from "../outcome.js";
import { EXIT } from "./exit.js";
import { canonical, sameFile, sameFileAsAny, whyNotWritable } from "./files.js";
import { UsageError } from "./args.js";
import type { RunPlan } from "./plan.js";
import { AntlrFrontEnd } from "../grammar/front-end.js";
import { optionsJson } from "./stats-file.js";

/** The version of the events file's schema, in every line's `v` (docs/events.md). */
export const EVENTS_VERSION = 1;

/**
 * A reduction event as the events file holds it: an improvement without its content (its size
 * says how large it is; the result file holds the bytes), a test's end with its duration.
 */
export type RecordedReductionEvent =
  | Exclude<ReductionEvent, { readonly type: "improved" } | { readonly type: "test-end" }>
  | Omit<Extract<ReductionEvent, { readonly type: "improved" }>, "content">
  | (Extract<ReductionEvent, { readonly type: "test-end" }> & { readonly ms: number });

/** How a run ended, by its exit code (see EXIT). */
export type RunOutcome = "done" | "failed" | "usage-error" | "not-interesting" | "limit" | "interrupted";

/** The events only the command knows: the run's start, its initial check, its end. */
export type RunEvent =
  | {
      readonly type: "start";
      /** whittle's version. */
      readonly whittle: string;
      /** The input as named on the command line, and its size in bytes. */
      readonly input: string;
      readonly size: number;
      readonly options: Readonly<Record<string, unknown>>;
    }
  /** The command's check of the original, before the reduction; `ms`: the test's active time. */
  | {
      readonly type: "check";
      readonly what: "original";
      readonly size: number;
      readonly outcome: Outcome;
      readonly ms: number;
    }
  /**
   * The last line, however the run ended after it started: `exit` is the exit code, `size` the best
   * result's size, `tests` the tests run (as --stats counts them), `error` what went wrong.
   */
  | {
      readonly type: "end";
      readonly outcome: RunOutcome;
      readonly exit: number;
      readonly size: number;
      readonly tests: number;
      readonly error?: string;
    };

/** One line of the events file: an event, its schema version and its time in ms since the start. */
export type EventRecord = { readonly v: typeof EVENTS_VERSION; readonly t: number } & (
  RecordedReductionEvent | RunEvent
);

/** Where the events go: a file (by its resolved path) or stdout. */
export type EventsTarget = { readonly kind: "stdout" } | { readonly kind: "file"; readonly path: string };

/** A file this large is not read to find out whether it is an events file. */
const FIRST_LINE_LIMIT = 256;

/** The files a run must keep, that the events file may not be (see checkEventsTarget). */
export interface GuardedFiles {
  readonly inputs: readonly string[];
  readonly output: string | undefined;
  readonly outputIsStdout: boolean;
  readonly backup: string | undefined;
  readonly backups: readonly string[];
  readonly stats: string | undefined;
}

/**
 * Where `--events` writes: "-" is stdout (not when the result goes there too); a file may be none
 * of the files whittle keeps or writes otherwise, and only an events file whittle wrote, an empty
 * file or a device or FIFO (a tool reading the run live) is written over. Anything else: UsageError.
 */
export async function checkEventsTarget(
  given: string,
  cwd: string,
  guarded: GuardedFiles,
): Promise<EventsTarget> {
  if (given === "-") {
    if (guarded.outputIsStdout)
      throw new UsageError("--events - and --output - both write to stdout: name a file for one of them");
    return { kind: "stdout" };
  }
  const path = resolve(cwd, given);
  const named: [string, string | undefined][] = [
    ...guarded.inputs.map((p): [string, string] => ["the input", p]),
    ["the output", guarded.output],
    ["the backup of the input", guarded.backup],
    ["the statistics file", guarded.stats],
  ];
  for (const [what, other] of named) {
    if (other !== undefined && (await sameFile(path, other)))
      throw new UsageError(`--events ${given} would overwrite ${what}: name another file`);
  }
  const backup = await sameFileAsAny(path, guarded.backups);
  if (backup !== undefined)
    throw new UsageError(
      `--events ${given} would overwrite ${backup}, a backup of the input: name another file`,
    );
  const why = await whyNotWritable(path);
  if (why !== undefined) throw new UsageError(`cannot write the events to ${given}: ${why}`);
  if (!mayHoldEvents(path))
    throw new UsageError(
      `--events ${given} would overwrite a file that is not an events file of whittle: name another file (or remove it)`,
    );
  return { kind: "file", path: await canonical(path) };
}

/** Whether `path` is absent, not a regular file, empty, or starts like a line of an events file. */
function mayHoldEvents(path: string): boolean {
  let fd: number;
  try {
    if (!statSync(path).isFile()) return true;
    fd = openSync(path, "r");
  } catch {
    return true;
  }
  try {
    const head = Buffer.alloc(FIRST_LINE_LIMIT);
    const n = readSync(fd, head, 0, head.length, 0);
    return n === 0 || /^\{"v":\d+,"t":/.test(head.subarray(0, n).toString("utf8"));
  } finally {
    closeSync(fd);
  }
}

/** The `start` event of a run (without its type): what is reduced, and how. */
export function startOf(plan: RunPlan, version: string): Omit<Extract<RunEvent, { type: "start" }>, "type"> {
  const o = plan.options;
  return {
    whittle: version,
    input: o.input,
    size: plan.input.length,
    options: {
      command: o.command,
      output: plan.outputName,
      inPlace: o.inPlace,
      stats: o.stats ?? null,
      timeoutMs: o.timeoutMs ?? null,
      // The built-in language the input is reduced along (given or detected), if any.
      language:
        plan.frontEnd !== undefined && !(plan.frontEnd instanceof AntlrFrontEnd)
          ? plan.frontEnd.language.name
          : null,
      grammar: o.grammar,
      format: o.format ?? null,
      start: o.start ?? null,
      pipeline: plan.pipeline.map((pass) => pass.name),
      reduce: optionsJson(o.reduce),
    },
  };
}

/** How a run ended, from its exit code. */
function outcomeOf(exit: number): RunOutcome {
  if (exit === EXIT.done) return "done";
  if (exit === EXIT.usage) return "usage-error";
  if (exit === EXIT.notInteresting) return "not-interesting";
  if (exit === EXIT.limit) return "limit";
  return exit >= 128 ? "interrupted" : "failed";
}

/**
 * The events file of one run: every event as one JSON line, written with a synchronous write the
 * moment it happens, so that a reader tailing the file follows the run live, and nothing is lost
 * when the run ends abruptly. A write that fails (a full disk, a reader gone) is said once and
 * ends the file; the run goes on.
 */
export class EventsLog {
  private readonly started = performance.now();
  private readonly testStarts = new Map<number, number>();
  private size = 0;
  private tests = 0;
  private ended = false;
  private broken = false;
  private removeExitHook = (): void => undefined;

  private constructor(
    private readonly write: (line: string) => void,
    private readonly close: () => void,
    private readonly warn: (text: string) => void,
  ) {}

  /**
   * Opens `target` (truncating a file; a FIFO must have a reader already, or the run would hang
   * before it starts) and writes the `start` event.
   */
  static open(
    target: EventsTarget,
    how: {
      stdout: NodeJS.WritableStream;
      warn: (text: string) => void;
      /** The real process: an exit before `end` (a crash: lifecycle.ts) still writes the end. */
      processWide: boolean;
    },
    start: Omit<Extract<RunEvent, { type: "start" }>, "type">,
  ): EventsLog {
    const { stdout, warn } = how;
    let log: EventsLog;
    if (target.kind === "stdout") {
      log = new EventsLog(
        (line) => void stdout.write(line),
        () => undefined,
        warn,
      );
    } else {
      const fd = openEventsFile(target.path);
      log = new EventsLog(
        (line) => writeAll(fd, line),
        () => closeSync(fd),
        warn,
      );
    }
    log.size = start.size;
    log.record({ type: "start", ...start });
    if (how.processWide) {
      const onExit = (code: number): void => void log.end(code, "whittle exited before the run ended");
      process.once("exit", onExit);
      log.removeExitHook = () => process.off("exit", onExit);
    }
    return log;
  }

  /** Writes one event (the reduction's or the command's). */
  record(event: ReductionEvent | RunEvent): void {
    if (this.ended) return;
    const now = performance.now();
    let recorded: RecordedReductionEvent | RunEvent;
    switch (event.type) {
      case "improved":
        this.size = event.size;
        recorded = { type: "improved", pass: event.pass, size: event.size };
        break;
      case "test-start":
        this.tests++;
        this.testStarts.set(event.id, now);
        recorded = event;
        break;
      case "test-end": {
        const startedAt = this.testStarts.get(event.id) ?? now;
        this.testStarts.delete(event.id);
        recorded = { ...event, ms: millis(now - startedAt) };
        break;
      }
      case "check":
        recorded = "ms" in event ? { ...event, ms: millis(event.ms) } : event;
        break;
      default:
        recorded = event;
    }
    this.append({ v: EVENTS_VERSION, t: millis(now - this.started), ...recorded });
  }

  /** Writes the `end` event (once: later calls do nothing) and closes the file; returns `exit`. */
  end(exit: number, error?: string): number {
    if (this.ended) return exit;
    this.record({
      type: "end",
      outcome: outcomeOf(exit),
      exit,
      size: this.size,
      tests: this.tests,
      ...(error !== undefined ? { error } : {}),
    });
    this.ended = true;
    this.removeExitHook();
    try {
      this.close();
    } catch {
      // nothing left to lose: every line was written synchronously
    }
    return exit;
  }

  private append(record: EventRecord): void {
    if (this.broken) return;
    try {
      this.write(JSON.stringify(record) + "\n");
    } catch (error) {
      this.broken = true;
      this.warn(
        `cannot write the events any more: ${(error as Error).message}; the run goes on without them`,
      );
    }
  }
}

/** Milliseconds to the microsecond: enough for 2 ms tests, without float noise in the file. */
function millis(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/** Opens the events file for writing; a FIFO without a reader is a usage error, not a hang. */
function openEventsFile(path: string): number {
  let fifo = false;
  try {
    fifo = statSync(path).isFIFO();
  } catch {
    // a new file
  }
  if (fifo) {
    try {
      closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new UsageError(
        `cannot write the events to the FIFO ${path}: ${code === "ENXIO" ? "nothing reads from it" : (error as Error).message}`,
      );
    }
    return openSync(path, constants.O_WRONLY);
  }
  try {
    return openSync(path, "w");
  } catch (error) {
    throw new UsageError(`cannot write the events to ${path}: ${(error as Error).message}`);
  }
}

/** Writes all of `line` (a pipe or FIFO may take part of a long line at a time). */
function writeAll(fd: number, line: string): void {
  const written = writeSync(fd, line);
  if (written === Buffer.byteLength(line)) return;
  const bytes = Buffer.from(line, "utf8");
  for (let at = written; at < bytes.length;) at += writeSync(fd, bytes, at);
}
