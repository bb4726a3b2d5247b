/**
 * Declarative verdicts: whether a run of the test is interesting, decided from its exit status,
 * signal and output instead of "exit 0". Used when the test command is the program under test
 * itself (`whittle crash.c --expect-signal SIGSEGV -- ./compiler {}`), with no script around it.
 *
 * A status is the shell's: a process killed by signal N has status 128 + N. bash (the shell runner,
 * and any wrapper script) reports it that way, so exit 139 and SIGSEGV are one answer everywhere.
 */
import { constants } from "node:os";
import type { Outcome } from "../outcome.js";
import type { CommandRun } from "./command.js";

/** The parts of a run a verdict looks at. */
export type RunFacts = Pick<CommandRun, "outcome" | "exitCode" | "signal" | "stdout" | "stderr">;

/** How a test failed: its status, and the first error line of its output, masked (see failureLine). */
export interface FailureSignature {
  readonly status: number;
  readonly line: string | undefined;
}

/** What a run must show to be interesting; every one given must hold. */
export interface Expectations {
  /** The status (0–255; 128 + N for signal N). */
  readonly exit?: number;
  /** The signal the test dies of (or exits with 128 + its number). */
  readonly signal?: NodeJS.Signals;
  /** A regular expression stdout must match (within its first captured bytes). */
  readonly stdout?: RegExp;
  readonly stderr?: RegExp;
  /** The failure recorded on the original (--same-failure). */
  readonly sameFailure?: FailureSignature;
}

/** Whether any expectation is given: then the exit status alone is no longer the verdict. */
export function hasExpectations(e: Expectations): boolean {
  return (
    e.exit !== undefined ||
    e.signal !== undefined ||
    e.stdout !== undefined ||
    e.stderr !== undefined ||
    e.sameFailure !== undefined
  );
}

/** Whether judging needs the run's stdout and stderr (CommandOracleOptions.captureStreams). */
export function needsOutput(e: Expectations): boolean {
  return e.stdout !== undefined || e.stderr !== undefined || e.sameFailure !== undefined;
}

/** A signal's name from "SIGSEGV", "segv" or "11"; undefined if there is no such signal. */
export function parseSignal(text: string): NodeJS.Signals | undefined {
  const signals = constants.signals as Record<string, number>;
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) {
    const number = Number(trimmed);
    return Object.keys(signals).find((name) => signals[name] === number) as NodeJS.Signals | undefined;
  }
  const upper = trimmed.toUpperCase();
  const name = upper.startsWith("SIG") ? upper : `SIG${upper}`;
  return name in signals ? (name as NodeJS.Signals) : undefined;
}

/** The signal's number (0 if unknown). */
function signalNumber(name: NodeJS.Signals): number {
  return (constants.signals as Record<string, number>)[name] ?? 0;
}

/** The run's status as a shell sees it; undefined for a run that timed out or vanished. */
export function statusOf(run: RunFacts): number | undefined {
  if (run.outcome === "timeout") return undefined;
  if (run.signal !== null) return 128 + signalNumber(run.signal);
  return run.exitCode ?? undefined;
}

/** Whether a status is an exit with 128 + N or death by signal N, and if so N's name. */
function signalOfStatus(status: number): NodeJS.Signals | undefined {
  return status > 128 && status <= 192 ? parseSignal(String(status - 128)) : undefined;
}

/** A status in words: "exit 3", "signal SIGSEGV (status 139)". */
export function describeStatus(status: number): string {
  const signal = signalOfStatus(status);
  return signal === undefined ? `exit ${status}` : `signal ${signal} (status ${status})`;
}

/**
 * The lines that name a failure: sanitizers, assertions, panics, exceptions, errors. A Python
 * traceback's own first line says nothing about the error (its last line does), so it, and the
 * shell's crash message, only count when no other line is found.
 */
const FAILURE_LINE =
  /ERROR: \w*Sanitizer|runtime error:|Assertion .* failed|assertion failed|panicked at|Exception|Error:|error:|Segmentation fault|Aborted|Bus error/;
const FALLBACK_LINE = /Traceback|core dumped|Killed/;
/** How much of the line is kept. */
const LINE_LIMIT = 240;

/**
 * The first failure line of `text`, with what differs between two runs of one failure masked:
 * hex addresses (0x…), paths (/a/b), and numbers (pids, line numbers, sizes). Undefined if none.
 */
export function failureLine(text: string): string | undefined {
  const lines = text.split(/\r?\n/);
  const line = lines.find((l) => FAILURE_LINE.test(l)) ?? lines.find((l) => FALLBACK_LINE.test(l));
  if (line === undefined) return undefined;
  return line
    .trim()
    .replace(/0[xX][0-9a-fA-F]+/g, "<hex>")
    .replace(/(?:[\w.+~-]*\/)+[\w.+~-]+/g, "<path>")
    .replace(/\d+/g, "N")
    .slice(0, LINE_LIMIT);
}

/**
 * How the run failed, or undefined if it did not (status 0) or timed out. The error line is looked
 * for in stdout, then in stderr.
 */
export function recordFailure(run: RunFacts): FailureSignature | undefined {
  const status = statusOf(run);
  if (status === undefined || status === 0) return undefined;
  return { status, line: failureLine(`${run.stdout ?? ""}\n${run.stderr ?? ""}`) };
}

/** A failure in one line: `signal SIGSEGV (status 139), first error line "…"`. */
export function describeFailure(failure: FailureSignature): string {
  const line =
    failure.line === undefined ? "no error line in its output" : `first error line "${failure.line}"`;
  return `${describeStatus(failure.status)}, ${line}`;
}

/** The expectations in words, for the line whittle prints at the start. */
export function describeExpectations(e: Expectations): string {
  const parts: string[] = [];
  if (e.exit !== undefined) parts.push(describeStatus(e.exit));
  if (e.signal !== undefined) parts.push(`signal ${e.signal}`);
  if (e.stdout !== undefined) parts.push(`stdout matching ${String(e.stdout)}`);
  if (e.stderr !== undefined) parts.push(`stderr matching ${String(e.stderr)}`);
  if (e.sameFailure !== undefined) parts.push(`the original's failure: ${describeFailure(e.sameFailure)}`);
  return parts.join(", ");
}

/** The expectations that `run` does not meet, in words (empty: it meets them all). */
export function unmet(run: RunFacts, e: Expectations): string[] {
  const status = statusOf(run);
  const missed: string[] = [];
  if (status === undefined) return ["it timed out"];
  if (e.exit !== undefined && status !== e.exit) missed.push(describeStatus(e.exit));
  if (e.signal !== undefined && status !== 128 + signalNumber(e.signal)) missed.push(`signal ${e.signal}`);
  if (e.stdout !== undefined && !e.stdout.test(run.stdout ?? ""))
    missed.push(`stdout matching ${String(e.stdout)}`);
  if (e.stderr !== undefined && !e.stderr.test(run.stderr ?? ""))
    missed.push(`stderr matching ${String(e.stderr)}`);
  if (e.sameFailure !== undefined) {
    const failure = recordFailure(run);
    if (failure?.status !== e.sameFailure.status || failure.line !== e.sameFailure.line) {
      missed.push(`the original's failure (${describeFailure(e.sameFailure)})`);
    }
  }
  return missed;
}

/**
 * The outcome of a run under the expectations. A timeout stays a timeout; a run that misses them is
 * not interesting, except one killed from outside (SIGKILL, or a vanished runner), which stays
 * `killed` (never cached: it says nothing reliable about the candidate).
 */
export function judgeRun(run: RunFacts, e: Expectations): Outcome {
  if (run.outcome === "timeout") return "timeout";
  if (unmet(run, e).length === 0) return "interesting";
  const fromOutside = run.outcome === "killed" && (run.signal === null || run.signal === "SIGKILL");
  return fromOutside && e.signal !== "SIGKILL" ? "killed" : "not-interesting";
}
