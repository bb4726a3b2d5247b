import { splitChars } from "../atoms/atoms.js";
import { fullConfiguration } from "../ddmin/configuration.js";
import { reduceList } from "./list.js";
import type { Pass, PassContext } from "./pass.js";

/** ASCII whitespace. */
function isBlank(byte: number): boolean {
  return byte === 0x20 || (byte >= 0x09 && byte <= 0x0d);
}

/**
 * ddmin over the visible characters of the current input: every character except ASCII whitespace
 * is a unit, and whitespace always stays. A character-level polish for grammar-aware runs: after
 * the tree phases, a ddmin over all characters spends most of its tests on the blanks between
 * tokens (measured on zeller-bug-c: 694 tests that removed only whitespace), while a result's size
 * that matters — to a compiler and to the benchmarks, which count non-whitespace characters — is
 * its visible characters.
 */
export function ddminGlyphs(): Pass {
  return rangePass("ddmin:glyph", (current) => {
    const atoms = splitChars(current);
    const ranges: number[] = [];
    for (let i = 0; i < atoms.count; i++) {
      const start = atoms.start(i);
      const end = atoms.start(i + 1);
      if (end - start !== 1 || !isBlank(current[start]!)) ranges.push(start, end);
    }
    return ranges;
  });
}

/**
 * ddmin over the runs of whitespace of the current input: a run left out is deleted whole, and
 * everything else stays. What `glyph` leaves: blanks whose removal matters to the test (a line
 * break that ends a preprocessor directive) or not at all, each run one unit instead of one per
 * character.
 *
 * Most whitespace is there for people, so the pass first tries the trivial answer (the rule of
 * Hypothesis's shrinker: try a trivial value first): every run whose deletion cannot join two
 * tokens into one (see `looseRuns`) deleted at once, then the same without the runs that hold a
 * line break (they may end a directive or a statement). One test each; the first of them that is
 * interesting is kept, and ddmin then reduces the runs that remain as usual — so the result is
 * 1-minimal over runs either way, at a cost of at most two tests more than ddmin alone.
 */
export function ddminBlanks(): Pass {
  return rangePass("ddmin:blank", blankRuns, (current, ranges) => {
    const loose = looseRuns(current, ranges);
    const withoutBreaks = loose.filter(
      (unit) => !current.subarray(ranges[2 * unit], ranges[2 * unit + 1]).includes(0x0a),
    );
    return [loose, withoutBreaks];
  });
}

/** The runs of whitespace of `current`, as start, end pairs. */
function blankRuns(current: Uint8Array): number[] {
  const ranges: number[] = [];
  for (let i = 0; i < current.length;) {
    if (!isBlank(current[i]!)) {
      i++;
      continue;
    }
    const start = i;
    while (i < current.length && isBlank(current[i]!)) i++;
    ranges.push(start, i);
  }
  return ranges;
}

/** Letters, digits, `_`, `$` and every byte of a multi-byte UTF-8 character: what words are made of. */
function isWordByte(byte: number): boolean {
  return (
    (byte >= 0x30 && byte <= 0x39) ||
    (byte >= 0x41 && byte <= 0x5a) ||
    (byte >= 0x61 && byte <= 0x7a) ||
    byte === 0x5f ||
    byte === 0x24 ||
    byte >= 0x80
  );
}

/** Brackets and separators: in the usual languages they never form a longer token with a neighbour. */
function isSeparator(byte: number): boolean {
  return "()[]{},;".includes(String.fromCharCode(byte));
}

/**
 * The runs (unit numbers) whose deletion cannot join the characters on either side into one token
 * in the usual languages: at the start or end of the input, beside a bracket or separator, or
 * between a word character and punctuation. Runs between two word characters (`int x`) or between
 * two other punctuation characters (`a - -b`, `x / *p`) stay. A guess about the language, used only
 * to order the tests: ddmin still tries every run.
 */
function looseRuns(current: Uint8Array, ranges: readonly number[]): number[] {
  const loose: number[] = [];
  for (let unit = 0; 2 * unit < ranges.length; unit++) {
    const before = current[ranges[2 * unit]! - 1];
    const after = current[ranges[2 * unit + 1]!];
    if (before === undefined || after === undefined || isSeparator(before) || isSeparator(after)) {
      loose.push(unit);
    } else if (isWordByte(before) !== isWordByte(after)) {
      loose.push(unit);
    }
  }
  return loose;
}

/**
 * A pass whose units are disjoint byte ranges of the current input, in order (`rangesOf` gives
 * start, end pairs): a configuration keeps its units' bytes and all bytes outside every unit.
 * `firstTries`, if given, lists sets of units to delete at once before ddmin starts: they are
 * tested in order until one is interesting (which becomes the new best, and ddmin starts from it).
 */
function rangePass(
  name: string,
  rangesOf: (current: Uint8Array) => number[],
  firstTries?: (current: Uint8Array, ranges: readonly number[]) => number[][],
): Pass {
  return {
    name,
    async run(context) {
      const found = context.current;
      const foundRanges = rangesOf(found);
      context.emit({ type: "pass", pass: name, units: foundRanges.length / 2, size: found.length });
      const first = firstTries
        ? await firstInteresting(context, foundRanges, firstTries(found, foundRanges))
        : undefined;
      if (first?.kind === "stopped") return first;
      const current = first?.bytes ?? found;
      const ranges = first ? rangesOf(current) : foundRanges;
      return reduceList({ ...context, current }, ranges.length / 2, (config) =>
        render(current, ranges, config),
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
): Promise<{ kind: "found"; bytes: Uint8Array } | { kind: "stopped"; reason: unknown } | undefined> {
  const { current, evaluator, signal } = context;
  if (tries.length === 0) return undefined;
  const scoped = evaluator.scope("other");
  try {
    for (const [index, deleted] of tries.entries()) {
      if (deleted.length === 0 || (index > 0 && sameUnits(deleted, tries[index - 1]!))) continue;
      const drop = new Set(deleted);
      const kept = Array.from({ length: ranges.length / 2 }, (_, unit) => unit).filter(
        (unit) => !drop.has(unit),
      );
      const bytes = render(current, ranges, kept);
      const key = { config: fullConfiguration(0), content: () => bytes };
      const label = { kind: "complement" as const, index, round: 0, granularity: tries.length };
      if (await scoped.test(key, signal, label)) {
        scoped.commit(key);
        return { kind: "found", bytes };
      }
    }
    return undefined;
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

/** `current` with every unit of `ranges` that is not in `kept` (ascending unit numbers) cut out. */
function render(current: Uint8Array, ranges: readonly number[], kept: Iterable<number>): Uint8Array {
  const units = ranges.length / 2;
  const out = new Uint8Array(current.length);
  let length = 0;
  let at = 0;
  let next = 0; // the first unit not yet decided
  const drop = (unit: number): void => {
    const from = ranges[2 * unit]!;
    out.set(current.subarray(at, from), length);
    length += from - at;
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
