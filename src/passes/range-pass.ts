import { fullConfiguration } from "../ddmin/configuration.js";
import { reduceList } from "./list.js";
import type { PassEvaluator } from "../reduce/evaluator.js";
import type { Pass, PassContext } from "./pass.js";

/** What a deleted unit leaves by default: nothing. */
export const NO_BYTES = new Uint8Array(0);

/**
 * A pass whose units are disjoint byte ranges of the current input, in order (`rangesOf` gives
 * start, end pairs): a configuration keeps its units' bytes and all bytes outside every unit.
 * `firstTries`, if given, lists sets of units to delete at once before ddmin starts: they are
 * tested in order until one is interesting (which becomes the new best, and ddmin starts from it).
 */
export function rangePass(
  name: string,
  rangesOf: (current: Uint8Array) => number[],
  firstTries?: (current: Uint8Array, ranges: readonly number[]) => number[][],
  fillOf: (current: Uint8Array, ranges: readonly number[]) => (unit: number) => Uint8Array = () => () =>
    NO_BYTES,
): Pass {
  return {
    name,
    async run(context) {
      const found = context.current;
      const foundRanges = rangesOf(found);
      context.emit({ type: "pass", pass: name, units: foundRanges.length / 2, size: found.length });
      const first = firstTries
        ? await firstInteresting(
            context,
            foundRanges,
            firstTries(found, foundRanges),
            fillOf(found, foundRanges),
          )
        : undefined;
      if (first?.kind === "stopped") return first;
      const current = first?.bytes ?? found;
      const ranges = first ? rangesOf(current) : foundRanges;
      const fill = fillOf(current, ranges);
      return reduceList({ ...context, current }, ranges.length / 2, (config) =>
        render(current, ranges, config, fill),
      );
    },
  };
}

/**
 * Tests `current` with each set of units of `tries` deleted, in order, until one is interesting:
 * that one is committed and returned. Undefined when none is (or there were none).
 */
async function firstInteresting(
  context: PassContext,
  ranges: readonly number[],
  tries: readonly (readonly number[])[],
  fill: (unit: number) => Uint8Array,
): Promise<{ kind: "found"; bytes: Uint8Array } | Stopped | undefined> {
  const { current, signal } = context;
  if (tries.length === 0) return undefined;
  return inOtherScope(context, async (scoped) => {
    for (const [index, deleted] of tries.entries()) {
      if (deleted.length === 0 || (index > 0 && sameUnits(deleted, tries[index - 1]!))) continue;
      const drop = new Set(deleted);
      const kept = Array.from({ length: ranges.length / 2 }, (_, unit) => unit).filter(
        (unit) => !drop.has(unit),
      );
      const bytes = render(current, ranges, kept, fill);
      const key = { config: fullConfiguration(0), content: () => bytes };
      const label = { kind: "complement" as const, index, round: 0, granularity: tries.length };
      if (await scoped.test(key, signal, label)) {
        scoped.commit(key);
        return { kind: "found", bytes };
      }
    }
    return undefined;
  });
}

type Stopped = { readonly kind: "stopped"; readonly reason: unknown };

/**
 * Runs `body` with the pass's evaluator scoped to candidates that are not configurations (whole
 * inputs a pass made before or beside its list). A test stopped by the pass's signal makes it
 * "stopped"; any other error closes the evaluator and is thrown.
 */
export async function inOtherScope<T>(
  context: PassContext,
  body: (scoped: PassEvaluator) => Promise<T>,
): Promise<T | Stopped> {
  const { evaluator, signal } = context;
  const scoped = evaluator.scope("other");
  try {
    return await body(scoped);
  } catch (error) {
    evaluator.close();
    if (signal.aborted) return { kind: "stopped", reason: signal.reason };
    throw error;
  } finally {
    scoped.close();
  }
}

function sameUnits(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((unit, i) => unit === b[i]);
}

/**
 * `current` with every unit of `ranges` that is not in `kept` (ascending unit numbers) cut out, and
 * `fill(unit)` in its place (never longer than the unit).
 */
export function render(
  current: Uint8Array,
  ranges: readonly number[],
  kept: Iterable<number>,
  fill: (unit: number) => Uint8Array,
): Uint8Array {
  const units = ranges.length / 2;
  const out = new Uint8Array(current.length);
  let length = 0;
  let at = 0;
  let next = 0; // the first unit not yet decided
  const drop = (unit: number): void => {
    const from = ranges[2 * unit]!;
    out.set(current.subarray(at, from), length);
    length += from - at;
    const filler = fill(unit);
    out.set(filler, length);
    length += filler.length;
    at = ranges[2 * unit + 1]!;
  };
  for (const unit of kept) {
    for (; next < unit; next++) drop(next);
    next = unit + 1;
  }
  for (; next < units; next++) drop(next);
  out.set(current.subarray(at), length);
  length += current.length - at;
  return out.slice(0, length);
}
