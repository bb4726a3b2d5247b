import { splitChars } from "../atoms/atoms.js";
import { reduceList } from "./list.js";
import type { Pass } from "./pass.js";

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
 */
export function ddminBlanks(): Pass {
  return rangePass("ddmin:blank", (current) => {
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
  });
}

/**
 * A pass whose units are disjoint byte ranges of the current input, in order (`rangesOf` gives
 * start, end pairs): a configuration keeps its units' bytes and all bytes outside every unit.
 */
function rangePass(name: string, rangesOf: (current: Uint8Array) => number[]): Pass {
  return {
    name,
    async run(context) {
      const { current, emit } = context;
      const ranges = rangesOf(current);
      const units = ranges.length / 2;
      emit({ type: "pass", pass: name, units, size: current.length });
      return reduceList(context, units, (config) => {
        // Copy everything up to each unit left out, then skip it.
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
        for (const kept of config) {
          for (; next < kept; next++) drop(next);
          next = kept + 1;
        }
        for (; next < units; next++) drop(next);
        out.set(current.subarray(at), length);
        length += current.length - at;
        return out.slice(0, length);
      });
    },
  };
}
