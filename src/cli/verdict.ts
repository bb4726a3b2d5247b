/**
 * How the command line judges a candidate: the test's exit status by default; or declarative
 * expectations (--expect-exit, --expect-signal, --expect-stdout, --expect-stderr, --same-failure);
 * each over one run, or K of up to M runs (--repeat M --need K). Also the final re-test of the
 * result, which finds a test that is not repeatable.
 */
import { InvalidArgumentError, Option, type OptionValues } from "commander";
import { CommandOracle, type CommandRun } from "../oracle/command.js";
import type { QueueOracle } from "../queue/oracle.js";
import {
  describeExpectations,
  describeFailure,
  hasExpectations,
  judgeRun,
  needsOutput,
  parseSignal,
  recordFailure,
  unmet,
  type Expectations,
} from "../oracle/expect.js";
import {
  decide,
  ONE_RUN,
  policyProblem,
  repeatedTest,
  type RepeatCounters,
  type RepeatPolicy,
  type SingleTest,
} from "../oracle/repeat.js";
import type { Outcome } from "../outcome.js";
import { formatBytes } from "./progress.js";

/** How much of stdout and of stderr a run keeps when a verdict looks at them. */
export const CAPTURE_BYTES = 64 * 1024;
/** Earlier results kept for the final re-test's fallback: at most this many, and this many bytes. */
const HISTORY_COUNT = 8;
const HISTORY_BYTES = 64 * 1024 * 1024;

/** The command line's verdict options. */
export interface VerdictOptions {
  readonly policy: RepeatPolicy;
  readonly expect: Omit<Expectations, "sameFailure">;
  readonly sameFailure: boolean;
}

function wholeNumber(min: number, max: number): (text: string) => number {
  return (text) => {
    const n = Number(text);
    if (!/^\s*\d+\s*$/.test(text) || n < min || n > max) {
      throw new InvalidArgumentError(`must be a whole number from ${min} to ${max}.`);
    }
    return n;
  };
}

function regex(text: string): RegExp {
  try {
    return new RegExp(text, "m");
  } catch (error) {
    throw new InvalidArgumentError(`is not a valid regular expression: ${(error as Error).message}.`);
  }
}

function signalName(text: string): NodeJS.Signals {
  const signal = parseSignal(text);
  if (signal === undefined)
    throw new InvalidArgumentError("must be a signal name (SIGSEGV, SEGV) or number.");
  return signal;
}

/** The commander options of the verdict. */
export function verdictFlags(): Option[] {
  return [
    new Option(
      "--repeat <m>",
      "run the test up to M times on each candidate (flaky tests; default 1; the result is always tested once more at the end)",
    ).argParser(wholeNumber(1, 1000)),
    new Option("--need <k>", "a candidate is interesting when K of its runs are (default 1)").argParser(
      wholeNumber(1, 1000),
    ),
    new Option(
      "--expect-exit <n>",
      "interesting when the test exits with N (128+S: killed by signal S), instead of 0",
    ).argParser(wholeNumber(0, 255)),
    new Option(
      "--expect-signal <signal>",
      "interesting when the test dies of this signal (name or number)",
    ).argParser(signalName),
    new Option(
      "--expect-stdout <regex>",
      "interesting when the test's stdout matches (first 64 KiB)",
    ).argParser(regex),
    new Option(
      "--expect-stderr <regex>",
      "interesting when the test's stderr matches (first 64 KiB)",
    ).argParser(regex),
    new Option(
      "--same-failure",
      "interesting when the test fails as on the original: same status or signal, same first error line",
    ),
  ];
}

/** The verdict options from what commander parsed, or what is wrong with them. */
export function verdictOptionsOf(o: OptionValues): VerdictOptions | string {
  const policy = {
    repeat: (o["repeat"] as number | undefined) ?? 1,
    need: (o["need"] as number | undefined) ?? 1,
  };
  const problem = policyProblem(policy);
  if (problem !== undefined) return problem;
  const pick = <K extends keyof Expectations>(key: K, value: unknown): Partial<Expectations> =>
    value === undefined ? {} : { [key]: value };
  return {
    policy,
    expect: {
      ...pick("exit", o["expectExit"]),
      ...pick("signal", o["expectSignal"]),
      ...pick("stdout", o["expectStdout"]),
      ...pick("stderr", o["expectStderr"]),
    },
    sameFailure: o["sameFailure"] === true,
  };
}

export const DEFAULT_VERDICT: VerdictOptions = { policy: ONE_RUN, expect: {}, sameFailure: false };

/** Judges runs of the test for one whittle run; records the original's failure for --same-failure. */
export class Judge {
  readonly counters: RepeatCounters = { disagreements: 0, extraRuns: 0 };
  #expect: Expectations;

  constructor(readonly options: VerdictOptions = DEFAULT_VERDICT) {
    this.#expect = options.expect;
  }

  /** Whether the exit status alone is not the verdict. */
  get judged(): boolean {
    return this.options.sameFailure || hasExpectations(this.#expect);
  }

  /** CommandOracleOptions.captureStreams: set only when a verdict reads the output. */
  get captureStreams(): number | undefined {
    return this.options.sameFailure || needsOutput(this.#expect) ? CAPTURE_BYTES : undefined;
  }

  /** One run's outcome. On the original with --same-failure, before it is recorded: any failure. */
  #outcome(run: CommandRun): Outcome {
    if (!this.judged) return run.outcome;
    const outcome = judgeRun(run, this.#expect);
    if (this.options.sameFailure && this.#expect.sameFailure === undefined && outcome === "interesting") {
      return recordFailure(run) !== undefined ? "interesting" : "not-interesting";
    }
    return outcome;
  }

  /**
   * Checks the original as every candidate is checked: returns the deciding run (the first
   * interesting one, else the last) with the verdict as its outcome. With --same-failure, the
   * failure of that interesting run becomes the one every candidate must show.
   */
  async checkOriginal(runOnce: () => Promise<CommandRun>): Promise<CommandRun> {
    if (this.options.sameFailure) this.#expect = this.options.expect;
    const decision = await decide(runOnce, (run) => this.#outcome(run), this.options.policy);
    const deciding =
      decision.runs.find((r) => r.outcome === "interesting") ?? decision.runs[decision.runs.length - 1]!;
    if (decision.outcome === "interesting" && this.options.sameFailure) {
      this.#expect = { ...this.options.expect, sameFailure: recordFailure(deciding.run)! };
    }
    return { ...deciding.run, outcome: decision.outcome };
  }

  /** What a failed check of the original missed, in words (empty for the default verdict). */
  whyNot(run: CommandRun): string | undefined {
    if (!this.judged) return undefined;
    if (run.outcome === "timeout") return "it must end within the timeout";
    if (this.options.sameFailure && recordFailure(run) === undefined) {
      return "--same-failure needs the test to fail on the original (a non-zero status or a signal)";
    }
    const missed = unmet(run, this.#expect);
    return missed.length > 0 ? `expected ${missed.join(", ")}` : undefined;
  }

  /** The line said at the start: how candidates are judged (what was recorded), or undefined. */
  describe(): string | undefined {
    const parts: string[] = [];
    if (this.options.sameFailure && this.#expect.sameFailure !== undefined) {
      parts.push(`recorded the original's failure: ${describeFailure(this.#expect.sameFailure)}`);
    }
    const others = describeExpectations({ ...this.#expect, sameFailure: undefined });
    if (others !== "") parts.push(`interesting: ${others}`);
    const { repeat, need } = this.options.policy;
    if (repeat > 1) parts.push(`each candidate interesting when ${need} of up to ${repeat} runs are`);
    return parts.length > 0 ? parts.join("; ") : undefined;
  }

  /** The reduction's test: the oracle itself by default, else its runs judged and repeated. */
  test(oracle: CommandOracle | QueueOracle): SingleTest {
    const plain: SingleTest =
      oracle instanceof CommandOracle
        ? oracle.toOracle()
        : async (c: Uint8Array, s: AbortSignal) => (await oracle.run(c, s)).outcome;
    if (!this.judged && this.options.policy.repeat === 1) return plain;
    // With --queue the runs are not judged here (the command line refuses --expect-… and
    // --same-failure with it): a worker sends back the outcome, not the output.
    const one: SingleTest =
      this.judged && oracle instanceof CommandOracle
        ? Object.assign(async (c: Uint8Array, s: AbortSignal) => this.#outcome(await oracle.run(c, s)), {
            prepare: (c: Uint8Array) => oracle.prepare(c),
          })
        : plain;
    return repeatedTest(one, this.options.policy, this.counters);
  }

  /** Whether `runOnce` (on one candidate) is interesting now, judged like every candidate. */
  async retest(runOnce: () => Promise<CommandRun>): Promise<boolean> {
    const decision = await decide(runOnce, (run) => this.#outcome(run), this.options.policy);
    this.counters.extraRuns += decision.runs.length - 1;
    if (decision.disagreed) this.counters.disagreements++;
    return decision.outcome === "interesting";
  }

  /** The summary's line about repeated runs, or undefined when there is nothing to say. */
  summary(): string | undefined {
    const { repeat, need } = this.options.policy;
    const { disagreements, extraRuns } = this.counters;
    if (repeat === 1 && disagreements === 0) return undefined;
    return (
      `--repeat ${repeat} --need ${need}: ${extraRuns} extra runs; the runs of ${disagreements} ` +
      `candidate${disagreements === 1 ? "" : "s"} disagreed${disagreements > 0 ? " (the test is flaky)" : ""}`
    );
  }
}

/** The last few results of a reduction, newest last, bounded in number and bytes. */
export class ResultHistory {
  readonly #items: Uint8Array[] = [];
  #bytes = 0;

  push(content: Uint8Array): void {
    this.#items.push(content);
    this.#bytes += content.length;
    while (this.#items.length > HISTORY_COUNT || (this.#items.length > 1 && this.#bytes > HISTORY_BYTES)) {
      this.#bytes -= this.#items.shift()!.length;
    }
  }

  /** The kept results other than `final`, newest first. */
  before(final: Uint8Array): Uint8Array[] {
    return this.#items.filter((item) => !Buffer.from(item).equals(final)).reverse();
  }
}

/** The end of a reduction: its result confirmed, or the last result that was. */
export interface FinalCheck {
  /** Whether the result was interesting again. */
  readonly repeatable: boolean;
  /** What the output is to hold: the result, or the last result that was confirmed. */
  readonly content: Uint8Array;
  /** Which that is: the result, an earlier result, or the original. */
  readonly delivered: "result" | "earlier" | "original";
  /** Whether it was made during the reduction, in a slot no test wanted (EarlyRetest). */
  readonly early: boolean;
}

/** The flaky-test figures of a run, as --stats records them. */
export interface VerdictSummary {
  /** --repeat M and --need K. */
  readonly repeat: number;
  readonly need: number;
  /** Runs beyond each candidate's first, and candidates whose runs disagreed (final re-test included). */
  readonly extraRuns: number;
  readonly disagreements: number;
  /** The final re-test of the result; absent when the run did not reach it. */
  readonly finalCheck?: {
    repeatable: boolean;
    delivered: FinalCheck["delivered"];
    bytes: number;
    early: boolean;
  };
}

/** What --stats says of the repeated runs and of the final re-test (`final`, if it was made). */
export function verdictSummary(judge: Judge, final: FinalCheck | undefined): VerdictSummary {
  const { repeat, need } = judge.options.policy;
  const { extraRuns, disagreements } = judge.counters;
  return {
    repeat,
    need,
    extraRuns,
    disagreements,
    ...(final !== undefined
      ? {
          finalCheck: {
            repeatable: final.repeatable,
            delivered: final.delivered,
            bytes: final.content.length,
            early: final.early,
          },
        }
      : {}),
  };
}

/**
 * Tests the result once more (as every candidate: M runs with --repeat). If it is not interesting
 * now, says so loudly, and looks for the last result that is: the earlier results kept (newest
 * first), else the original (confirmed by the initial check).
 */
export async function checkFinal(
  judge: Judge,
  run: (content: Uint8Array) => Promise<CommandRun>,
  result: Uint8Array,
  history: ResultHistory,
  original: Uint8Array,
  say: (text: string) => void,
): Promise<FinalCheck> {
  if (await judge.retest(() => run(result)))
    return { repeatable: true, content: result, delivered: "result", early: false };
  say(
    `WARNING: THE TEST IS NOT REPEATABLE: the result (${formatBytes(result.length)}) was interesting when it ` +
      `was found, but not when tested again at the end.`,
  );
  let confirmed: Uint8Array | undefined;
  for (const earlier of history.before(result)) {
    if (await judge.retest(() => run(earlier))) {
      confirmed = earlier;
      break;
    }
  }
  say(
    confirmed !== undefined
      ? `an earlier result (${formatBytes(confirmed.length)}) was interesting again: the output holds it, the last result that was confirmed.`
      : `no earlier result was interesting again: the output holds the original (${formatBytes(original.length)}), the last result that was confirmed.`,
  );
  const { repeat } = judge.options.policy;
  say(
    repeat === 1
      ? "Make the test deterministic, or give each candidate several runs: --repeat M --need K (e.g. --repeat 5 --need 1)."
      : `Make the test deterministic, or raise --repeat (now ${repeat}) or lower --need.`,
  );
  return confirmed !== undefined
    ? { repeatable: false, content: confirmed, delivered: "earlier", early: false }
    : { repeatable: false, content: original, delivered: "original", early: false };
}
