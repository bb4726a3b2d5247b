import type { Configuration } from "../ddmin/configuration.js";

/**
 * Atoms are the units ddmin removes. Every atom is a view into the input's bytes, so joining any
 * configuration reproduces exactly the selected bytes: line terminators, invalid UTF-8 and all.
 */
export type AtomKind = "line" | "char";
export type AtomMode = AtomKind | "both";
export const ATOM_MODES: readonly AtomMode[] = ["line", "char", "both"];

/** Which atom passes a mode runs, in order: "both" is lines first, then characters of that result. */
export function atomPasses(mode: AtomMode): AtomKind[] {
  return mode === "both" ? ["line", "char"] : [mode];
}

export function splitAtoms(bytes: Uint8Array, kind: AtomKind): Uint8Array[] {
  return kind === "line" ? splitLines(bytes) : splitChars(bytes);
}

/** Lines, each with its own terminator (LF, or CRLF since CR precedes the LF); the last may have none. */
export function splitLines(bytes: Uint8Array): Uint8Array[] {
  const lines: Uint8Array[] = [];
  let start = 0;
  for (;;) {
    const lf = bytes.indexOf(0x0a, start);
    if (lf < 0) break;
    lines.push(bytes.subarray(start, lf + 1));
    start = lf + 1;
  }
  if (start < bytes.length) lines.push(bytes.subarray(start));
  return lines;
}

/**
 * Characters: Unicode code points when the bytes are valid UTF-8 (a multi-byte character is never
 * cut in two), single bytes otherwise (binary input stays reducible and exact).
 */
export function splitChars(bytes: Uint8Array): Uint8Array[] {
  if (!isValidUtf8(bytes)) return Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1));
  const chars: Uint8Array[] = [];
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const width = b < 0x80 ? 1 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
    chars.push(bytes.subarray(i, i + width));
    i += width;
  }
  return chars;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

export function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    utf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The bytes of the atoms a configuration selects, in order. */
export function joinAtoms(atoms: readonly Uint8Array[], config: Configuration): Uint8Array {
  let length = 0;
  for (const i of config) length += atoms[i]!.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const i of config) {
    const atom = atoms[i]!;
    out.set(atom, at);
    at += atom.length;
  }
  return out;
}
