import { atomPasses, splitAtoms } from "../atoms/atoms.js";
import { createCache } from "../cache/index.js";
import { fullConfiguration } from "../ddmin/configuration.js";
import { ddmin } from "../ddmin/ddmin.js";
import { NotInterestingError, OutOfMemoryError } from "../errors.js";
import { isInteresting, toOutcome } from "../outcome.js";
import type { EventListener, ReductionEvent } from "./events.js";
import { checkMemory, isAllocationFailure, measureBudget, type MemoryBudget } from "./memory.js";
import { resolveOptions, type ReduceOptions, type ResolvedOptions } from "./options.js";
import { AtomProblem, type Oracle } from "./problem.js";
import { StatsCollector, type ReductionStats } from "./stats.js";

export interface ReduceRunOptions extends ReduceOptions {
  /** Stops the reduction: running tests are cancelled and the result is `stopped`. */
  signal?: AbortSignal;
  /** Receives every event (tests, cache hits, rounds, improvements). */
  onEvent?: EventListener;
  /** Skip the up-front check that the input is interesting (the caller has done it). */
  assumeInteresting?: boolean;
  /** What the reduction may allocate (default: measured from the OS and V8 when it starts). */
  memory?: MemoryBudget;
}

/** The outcome of a reduction; both kinds carry the smallest interesting input found. */
export type ReduceResult =
  | { readonly kind: "done"; readonly output: Uint8Array; readonly stats: ReductionStats }
  | {
      readonly kind: "stopped";
      readonly output: Uint8Array;
      readonly stats: ReductionStats;
      readonly reason: unknown;
    };

/**
 * Reduces `input` to a smaller input that `oracle` still finds interesting: ddmin over lines,
 * characters, or lines then characters, with the configured variant, cache and parallelism.
 *
 * Throws `OutOfMemoryError` (code "out-of-memory", carrying the best input so far) when the estimated
 * memory is not available before it starts, or when an allocation fails during the run.
 */
export async function reduce(
  input: Uint8Array,
  oracle: Oracle,
  options: ReduceRunOptions = {},
): Promise<ReduceResult> {
  const shortfall = checkMemory(input, resolveOptions(options), options.memory ?? measureBudget());
  if (shortfall) throw new OutOfMemoryError(shortfall.message, { best: input, ...shortfall });
  let best = input;
  const onEvent: EventListener = (event) => {
    if (event.type === "improved") best = event.content;
    options.onEvent?.(event);
  };
  try {
    return await reduceWithin(input, oracle, { ...options, onEvent });
  } catch (error) {
    if (!isAllocationFailure(error)) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new OutOfMemoryError(
      `ran out of memory while reducing (${reason}); the best input so far is kept`,
      {
        best,
        cause: error,
      },
    );
  }
}

async function reduceWithin(
  input: Uint8Array,
  oracle: Oracle,
  options: ReduceRunOptions,
): Promise<ReduceResult> {
  const resolved: ResolvedOptions = resolveOptions(options);
  const collector = new StatsCollector(resolved.cache, input.length);
  const listener = options.onEvent;
  let best = input;
  const emit = (event: ReductionEvent): void => {
    if (event.type === "improved") best = event.content;
    collector.listener(event);
    listener?.(event);
  };
  const signal = options.signal;

  if (!options.assumeInteresting) {
    const outcome = toOutcome(await oracle(input, signal ?? new AbortController().signal));
    if (!isInteresting(outcome)) {
      throw new NotInterestingError(`the original input is not interesting (the oracle answered ${outcome})`);
    }
  }

  let testId = 0;
  const passes = atomPasses(resolved.atom);
  for (let pass = 0; pass < passes.length; pass++) {
    const atomKind = passes[pass]!;
    const atoms = splitAtoms(best, atomKind);
    emit({ type: "pass", pass, atom: atomKind, atoms: atoms.count, size: best.length });
    const cache = createCache(resolved.cache, { cacheFail: resolved.cacheFail, evict: resolved.cacheEvict });
    const problem = new AtomProblem(atoms, oracle, cache, emit, () => ++testId, signal);
    const result = await ddmin(fullConfiguration(atoms.count), problem, resolved);
    emit({ type: "cache-stats", stats: cache.stats() });
    if (result.kind === "stopped") {
      return { kind: "stopped", output: best, stats: collector.stats, reason: result.reason };
    }
  }
  return { kind: "done", output: best, stats: collector.stats };
}
