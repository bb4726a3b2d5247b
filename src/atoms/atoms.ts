import { isUtf8 } from "node:buffer";
import type { Configuration } from "../ddmin/configuration.js";

/**
 * Atoms are the units ddmin removes. They are offsets into the input's bytes, not one object per
 * atom: atom i is bytes [start(i), start(i + 1)). Joining any configuration reproduces exactly the
 * selected bytes: line terminators, invalid UTF-8 and all.
 */
export type AtomKind = "line" | "char";
export type AtomMode = AtomKind | "both";
export const ATOM_MODES: readonly AtomMode[] = ["line", "char", "both"];

/** Which atom passes a mode runs, in order: "both" is lines first, then characters of that result. */
export function atomPasses(mode: AtomMode): AtomKind[] {
  return mode === "both" ? ["line", "char"] : [mode];
}

/** Atom boundaries: 4 bytes per atom below 4 GiB of input, 8 above. */
type Bounds = Uint32Array | Float64Array;

/**
 * The atoms of one input. Memory: the input itself plus `count + 1` boundaries (4 bytes each), or
 * nothing at all when every atom is one byte (ASCII text, or bytes that are not valid UTF-8).
 */
export class Atoms {
  private constructor(
    readonly bytes: Uint8Array,
    readonly count: number,
    /** starts[i] is where atom i begins; starts[count] = bytes.length. Absent: atom i is byte i. */
    private readonly starts: Bounds | undefined,
  ) {}

  /** Every byte its own atom; no boundary table. */
  static bytes(bytes: Uint8Array): Atoms {
    return new Atoms(bytes, bytes.length, undefined);
  }

  /** @internal */
  static withStarts(bytes: Uint8Array, starts: Bounds): Atoms {
    return new Atoms(bytes, starts.length - 1, starts);
  }

  /** Whether every atom is a single byte (then no boundary table is kept). */
  get singleBytes(): boolean {
    return this.starts === undefined;
  }

  /** The byte offset where atom `i` starts (`i` = count gives the input's length). */
  start(i: number): number {
    return this.starts === undefined ? i : this.starts[i]!;
  }

  /** Atom `i`'s bytes: a view into the input, made on demand. */
  atom(i: number): Uint8Array {
    return this.bytes.subarray(this.start(i), this.start(i + 1));
  }

  /** The bytes of the atoms a configuration selects, in order: one copy per run of consecutive atoms. */
  join(config: Configuration): Uint8Array {
    const runs = config.runCount;
    let length = 0;
    for (let k = 0; k < runs; k++) length += this.start(config.runEnd(k)) - this.start(config.runStart(k));
    const out = new Uint8Array(length);
    let at = 0;
    for (let k = 0; k < runs; k++) {
      const from = this.start(config.runStart(k));
      const to = this.start(config.runEnd(k));
      out.set(this.bytes.subarray(from, to), at);
      at += to - from;
    }
    return out;
  }

  /** The size in bytes of what `join` would return, without joining. */
  byteLength(config: Configuration): number {
    let length = 0;
    for (let k = 0; k < config.runCount; k++) {
      length += this.start(config.runEnd(k)) - this.start(config.runStart(k));
    }
    return length;
  }
}

export function splitAtoms(bytes: Uint8Array, kind: AtomKind): Atoms {
  return kind === "line" ? splitLines(bytes) : splitChars(bytes);
}

function newBounds(count: number, inputLength: number): Bounds {
  return inputLength < 0xffffffff ? new Uint32Array(count + 1) : new Float64Array(count + 1);
}

/** Lines, each with its own terminator (LF, or CRLF since CR precedes the LF); the last may have none. */
export function splitLines(bytes: Uint8Array): Atoms {
  let count = 0;
  for (let lf = bytes.indexOf(0x0a); lf >= 0; lf = bytes.indexOf(0x0a, lf + 1)) count++;
  const unterminated = bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a;
  if (unterminated) count++;
  const starts = newBounds(count, bytes.length);
  let i = 0;
  for (let lf = bytes.indexOf(0x0a); lf >= 0; lf = bytes.indexOf(0x0a, lf + 1)) starts[++i] = lf + 1;
  starts[count] = bytes.length;
  return Atoms.withStarts(bytes, starts);
}

/**
 * Characters: Unicode code points when the bytes are valid UTF-8 (a multi-byte character is never
 * cut in two), single bytes otherwise (binary input stays reducible and exact). Nothing is allocated
 * per character; ASCII text and invalid UTF-8 need no boundary table at all.
 */
export function splitChars(bytes: Uint8Array): Atoms {
  if (!isValidUtf8(bytes)) return Atoms.bytes(bytes);
  // In valid UTF-8 every code point starts with exactly one byte that is not 10xxxxxx.
  let count = 0;
  for (let i = 0; i < bytes.length; i++) if ((bytes[i]! & 0xc0) !== 0x80) count++;
  if (count === bytes.length) return Atoms.bytes(bytes);
  const starts = newBounds(count, bytes.length);
  let c = 0;
  for (let i = 0; i < bytes.length; i++) if ((bytes[i]! & 0xc0) !== 0x80) starts[c++] = i;
  starts[count] = bytes.length;
  return Atoms.withStarts(bytes, starts);
}

/** Whether the bytes are valid UTF-8 (Node's validator: no decoding, no allocation). */
export function isValidUtf8(bytes: Uint8Array): boolean {
  return bytes.length === 0 || isUtf8(bytes);
}

/** The bytes of the atoms a configuration selects, in order. */
export function joinAtoms(atoms: Atoms, config: Configuration): Uint8Array {
  return atoms.join(config);
}
