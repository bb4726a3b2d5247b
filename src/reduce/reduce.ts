import { NotInterestingError, OutOfMemoryError } from "../errors.js";
import { atomPipeline } from "../passes/atoms.js";
import type { Pass } from "../passes/pass.js";
import { isInteresting, toOutcome, type Outcome } from "../outcome.js";
import type { EventListener, ReductionEvent } from "./events.js";
import { resolveOptions, type ReduceOptions, type ResolvedOptions } from "./options.js";
import { Evaluator, type Oracle } from "./evaluator.js";
import type { OutcomeJournal } from "./journal.js";
import { checkMemory, isAllocationFailure, measureBudget, type MemoryBudget } from "./memory.js";
import { StatsCollector, type ReductionStats } from "./stats.js";
import { SyntaxFilter, type SyntaxCheck } from "./syntax-filter.js";
import { checkRunOptions } from "./run-options.js";
import { defaultSpare } from "./idle-cores.js";
import type { IdleWork, IdleWorkFn } from "./idle-work.js";
import { passesAhead, runPasses } from "./run-passes.js";
import type { BuiltInLanguage } from "../grammar/tree-sitter/languages.js";

export interface ReduceRunOptions extends ReduceOptions {
  /** Stops the reduction: running tests are cancelled and the result is `stopped`. */
  signal?: AbortSignal;
  /** Receives every event (tests, cache hits, rounds, improvements). */
  onEvent?: EventListener;
  /** Skip the up-front check that the input is interesting (the caller has done it). */
  assumeInteresting?: boolean;
  /** The passes to run, in order (default: ddmin over the atoms of `atom`: lines, then characters). */
  pipeline?: readonly Pass[];
  /**
   * The grammar of the input, for the syntax filter (option `syntaxFilter`): candidates with more
   * syntax errors than the best so far are not interesting, without a test. Without it, no filter.
   */
  syntax?: SyntaxCheck;
  /**
   * The oracle's answers of an earlier, interrupted run of the same reduction, recalled instead of
   * testing again; every new answer is recorded in it (journal.ts).
   */
  journal?: OutcomeJournal;
  /** What the reduction may allocate (default: measured from the OS and V8 when it starts). */
  memory?: MemoryBudget;
  /**
   * Reduce along a built-in language (tree-sitter), with the command's default pipeline for it: the
   * tree phases, then the polish of tokens, names, literals, characters and whitespace. The
   * original must parse without syntax errors (WhittleError "syntax" otherwise). Not with
   * `pipeline`, `syntax` or `grammar`.
   */
  language?: BuiltInLanguage;
  /**
   * Or along an ANTLR v4 grammar: its files (a combined grammar, or lexer and parser), with the
   * command's default pipeline for a grammar; an original it rejects is reduced along ANTLR's error
   * recovery, as the command does.
   */
  grammar?: readonly string[];
  /** With `grammar`: the start rule (default: the parser's first rule). */
  start?: string;
  /**
   * With `jobs` > 1: whether a test started now beside the running ones would have a core to
   * itself, asked before a speculative test the search is not likely to need (probdd.ts,
   * BUSY_MIN_REACH). Default: always with more jobs than cores (the tests wait rather than compute),
   * else whether a whole core of this machine was idle in the last quarter of a second (IdleCores);
   * an oracle whose tests run elsewhere (the queue's workers) should say always.
   */
  spare?: () => boolean;
  /**
   * With `jobs` > 1: work on the best input so far (the original, then each improvement) that runs
   * only in a slot no test wants, and gives it up to any test that asks (its signal aborts; it waits
   * for an idle slot again). A newer best aborts the work on the one before; work still running when
   * the reduction ends goes on. The command re-tests the best input there (IdleWork).
   */
  idleWork?: IdleWorkFn;
}

/**
 * The outcome of a reduction. Every kind carries the smallest interesting input found so far, so a
 * caller can always keep it: `done` (the reduction finished), `stopped` (`signal` was aborted) and
 * `failed` (the oracle or anything else threw; `error` says what).
 */
export type ReduceResult =
  | {
      readonly kind: "done";
      readonly output: Uint8Array;
      readonly stats: ReductionStats;
      /**
       * The empty input is interesting: the test probably does not check the failure at all. The
       * output is then empty and nothing else was tried.
       */
      readonly emptyIsInteresting: boolean;
    }
  | {
      readonly kind: "stopped";
      readonly output: Uint8Array;
      readonly stats: ReductionStats;
      readonly reason: unknown;
    }
  | {
      readonly kind: "failed";
      readonly output: Uint8Array;
      readonly stats: ReductionStats;
      readonly error: unknown;
    };

/**
 * Reduces `input` to a smaller input that `oracle` still finds interesting: ddmin over lines,
 * characters, or lines then characters, with the configured variant, cache and parallelism; with
 * `language` or `grammar`, the command's default pipeline along that grammar.
 *
 * Before reducing it checks the original (unless `assumeInteresting`) and then the empty input; both
 * checks are counted apart from the reduction's tests (`stats.checks`), as the papers count. Invalid
 * options (an unknown key, a value of the wrong type: InvalidOptionError naming it), an original input that is not interesting and a reduction whose estimated memory is not
 * available (`OutOfMemoryError`, before any test) throw; every later failure is a `failed` result,
 * an allocation that fails during the run as an `OutOfMemoryError` carrying the best input so far.
 */
export async function reduce(
  input: Uint8Array,
  oracle: Oracle,
  options: ReduceRunOptions = {},
): Promise<ReduceResult> {
  checkRunOptions(options);
  const resolved: ResolvedOptions = resolveOptions(options);
  if (options.language !== undefined || options.grammar !== undefined) {
    // Loaded only when asked for: the grammars' parsers are large.
    const { grammarPipeline } = await import("./grammar-pipeline.js");
    const choice =
      options.language !== undefined
        ? { language: options.language }
        : { grammar: options.grammar!, start: options.start };
    const { pipeline, syntax } = await grammarPipeline(
      input,
      choice,
      resolved.atom,
      options.algorithm !== undefined,
    );
    options = { ...options, pipeline, syntax };
  }
  const shortfall = checkMemory(input, resolved, options.memory ?? measureBudget());
  if (shortfall) throw new OutOfMemoryError(shortfall.message, { best: input, ...shortfall });
  const collector = new StatsCollector(resolved.cache, input.length);
  const listener = options.onEvent;
  let best = input;
  let idle: IdleWork | undefined;
  const emit = (event: ReductionEvent): void => {
    if (event.type === "improved") {
      best = event.content;
      idle?.offer(best);
    }
    collector.listener(event);
    listener?.(event);
  };
  const signal = options.signal ?? new AbortController().signal;
  const check = async (what: "original" | "empty", candidate: Uint8Array): Promise<Outcome> => {
    const outcome = toOutcome(await oracle(candidate, signal));
    signal.throwIfAborted();
    emit({ type: "check", what, size: candidate.length, outcome });
    return outcome;
  };

  try {
    if (!options.assumeInteresting) {
      const outcome = await check("original", input);
      if (!isInteresting(outcome)) {
        throw new NotInterestingError(
          `the original input is not interesting (the oracle answered ${outcome})`,
        );
      }
    }
    // The empty input is checked once the passes are ready (atoms split, input parsed: a long
    // synchronous step while a test runs would delay its answer and inflate its duration) and ask
    // for their first test (Evaluator.holdTests). With one job that test follows the check at once,
    // and the passes' events are held back until the check is answered, so they come after its
    // "check" event, as if it had run first. With more, the first tests run beside the check and
    // their events pass at once, but no answer reaches a pass before the check's: if the empty input
    // is interesting, nothing the passes did counts.
    let held: ReductionEvent[] | undefined = resolved.jobs > 1 ? undefined : [];
    const passEmit = (event: ReductionEvent): void => {
      if (held === undefined) emit(event);
      else held.push(event);
    };
    let afterCheck: Promise<void> | undefined;
    const startCheck = (): Promise<void> => {
      if (afterCheck !== undefined) return afterCheck;
      const answered =
        input.length === 0
          ? Promise.resolve()
          : check("empty", new Uint8Array(0)).then((outcome) => {
              if (isInteresting(outcome)) throw EMPTY_IS_INTERESTING;
            });
      afterCheck = answered.then(() => {
        const events = held ?? [];
        held = undefined;
        for (const event of events) emit(event);
      });
      // Settled below in every case; this keeps a rejection that comes first from being unhandled.
      afterCheck.catch(() => undefined);
      return afterCheck;
    };

    const evaluator = new Evaluator(
      oracle,
      passEmit,
      resolved.cache,
      { cacheFail: resolved.cacheFail, evict: resolved.cacheEvict },
      SyntaxFilter.of(resolved.syntaxFilter, options.syntax, input),
      options.journal,
    );
    evaluator.holdTests(startCheck, resolved.jobs === 1);
    if (resolved.jobs > 1) {
      evaluator.limitJobs(resolved.jobs, options.spare ?? defaultSpare(resolved.jobs));
    }
    if (options.idleWork !== undefined) {
      idle = evaluator.idleWork(options.idleWork, signal);
      idle?.offer(best);
    }
    let stopped: { reason: unknown } | undefined;
    let passFailure: { error: unknown } | undefined;
    try {
      const passes = options.pipeline ?? atomPipeline(resolved.atom);
      const outcome = await runPasses(passes, passesAhead(resolved.jobs), {
        evaluator,
        options: resolved,
        signal,
        emit: passEmit,
        best: () => best,
      });
      if (outcome.kind === "stopped") stopped = { reason: outcome.reason };
    } catch (error) {
      passFailure = { error };
    } finally {
      idle?.close();
      evaluator.close();
    }
    // The check's answer comes first: a pass may have failed, or ended without a test, before it
    // asked for it.
    const checkFailure = await startCheck().then(
      () => undefined,
      (error: unknown) => ({ error }),
    );
    if (checkFailure?.error === EMPTY_IS_INTERESTING) {
      emit({ type: "improved", pass: "check", size: 0, content: new Uint8Array(0) });
      return { kind: "done", output: best, stats: collector.stats, emptyIsInteresting: true };
    }
    if (checkFailure !== undefined) throw checkFailure.error;
    if (passFailure !== undefined) throw passFailure.error;
    if (stopped !== undefined) {
      return { kind: "stopped", output: best, stats: collector.stats, reason: stopped.reason };
    }
    return { kind: "done", output: best, stats: collector.stats, emptyIsInteresting: false };
  } catch (error) {
    if (error instanceof NotInterestingError) throw error;
    if (signal.aborted)
      return { kind: "stopped", output: best, stats: collector.stats, reason: signal.reason };
    return { kind: "failed", output: best, stats: collector.stats, error: asOutOfMemory(error, best) };
  }
}

/** Why the held tests do not run: the empty input is interesting (see reduce). */
const EMPTY_IS_INTERESTING = new Error("the empty input is interesting");

/** An allocation that failed during the run, as an OutOfMemoryError carrying the best input so far. */
function asOutOfMemory(error: unknown, best: Uint8Array): unknown {
  if (!isAllocationFailure(error)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new OutOfMemoryError(`ran out of memory while reducing (${reason}); the best input so far is kept`, {
    best,
    cause: error,
  });
}
