import { splitChars } from "../atoms/atoms.js";
import { reduceList } from "./list.js";
import type { Pass } from "./pass.js";

/** ASCII whitespace: the bytes a `glyph` pass keeps. */
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
  const name = "ddmin:glyph";
  return {
    name,
    async run(context) {
      const { current, emit } = context;
      const atoms = splitChars(current);
      const units: number[] = [];
      for (let i = 0; i < atoms.count; i++) {
        const start = atoms.start(i);
        if (atoms.start(i + 1) - start !== 1 || !isBlank(current[start]!)) units.push(i);
      }
      emit({ type: "pass", pass: name, units: units.length, size: current.length });
      return reduceList(context, units.length, (config) => {
        // Bytes of the units left out are dropped; everything else is copied in runs.
        const out = new Uint8Array(current.length);
        let length = 0;
        let at = 0;
        let next = 0; // position in `units` of the next unit not yet decided
        for (const kept of config) {
          for (; next < kept; next++) {
            const i = units[next]!;
            const from = atoms.start(i);
            out.set(current.subarray(at, from), length);
            length += from - at;
            at = atoms.start(i + 1);
          }
          next = kept + 1;
        }
        for (; next < units.length; next++) {
          const i = units[next]!;
          const from = atoms.start(i);
          out.set(current.subarray(at, from), length);
          length += from - at;
          at = atoms.start(i + 1);
        }
        out.set(current.subarray(at), length);
        length += current.length - at;
        return out.slice(0, length);
      });
    },
  };
}
