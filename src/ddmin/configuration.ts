/**
 * A configuration is an ordered set of atom indices (ascending). The reducers never see bytes: a
 * serializer turns a configuration back into a candidate when a test needs it.
 *
 * It is stored as runs of consecutive indices, [start, end) pairs in one Uint32Array, not one number
 * per atom: ddmin only ever cuts a configuration into contiguous parts and glues parts back together,
 * so the full configuration of a 100 MB input is one run (8 bytes), and a part or a complement costs
 * a few runs more than the configuration it came from. The worst case (every other atom kept) is 4
 * bytes per atom. Runs are never empty and never adjacent (a run ending where the next starts is one
 * run), so every set of indices has exactly one encoding, which the configuration cache relies on.
 *
 * Atom indices are below 2^32 − 1 (the length of a Uint8Array input bounds them).
 */
export class Configuration implements Iterable<number> {
  private constructor(
    /** start0, end0, start1, end1, …: runs of atom indices, ascending, non-empty, not adjacent. */
    private readonly runs: Uint32Array,
    /** The number of atoms. */
    readonly length: number,
  ) {}

  static readonly EMPTY = new Configuration(new Uint32Array(0), 0);

  /** The configuration [0, 1, …, size − 1]: every atom of the input, as one run. */
  static full(size: number): Configuration {
    if (size <= 0) return Configuration.EMPTY;
    return new Configuration(Uint32Array.of(0, size), size);
  }

  /** A configuration from strictly ascending atom indices (a plain array works). */
  static of(indices: ArrayLike<number>): Configuration {
    const runs = new RunWriter(2);
    let previous = -1;
    for (let i = 0; i < indices.length; i++) {
      const atom = indices[i]!;
      if (!Number.isInteger(atom) || atom <= previous || atom >= 0xffffffff) {
        throw new RangeError(
          `configuration: indices must be ascending whole numbers, got ${atom} after ${previous}`,
        );
      }
      runs.append(atom, atom + 1);
      previous = atom;
    }
    return runs.finish();
  }

  /** How many runs of consecutive atoms the configuration has. */
  get runCount(): number {
    return this.runs.length / 2;
  }

  /** The first atom of run k. */
  runStart(k: number): number {
    return this.runs[2 * k]!;
  }

  /** One past the last atom of run k. */
  runEnd(k: number): number {
    return this.runs[2 * k + 1]!;
  }

  *[Symbol.iterator](): Iterator<number> {
    for (let k = 0; k < this.runs.length; k += 2) {
      for (let atom = this.runs[k]!, end = this.runs[k + 1]!; atom < end; atom++) yield atom;
    }
  }

  toArray(): number[] {
    return [...this];
  }

  /** The atoms at positions [from, to) of this configuration (0 ≤ from ≤ to ≤ length). */
  slice(from: number, to: number): Configuration {
    const out = new RunWriter(8);
    this.writeRange(out, from, to);
    return out.finish();
  }

  /** This configuration without the atoms at positions [from, to): a complement ∇i. */
  without(from: number, to: number): Configuration {
    const out = new RunWriter(this.runs.length + 2);
    this.writeRange(out, 0, from);
    this.writeRange(out, to, this.length);
    return out.finish();
  }

  /** Appends the atoms at positions [from, to) to `out`, run by run. */
  private writeRange(out: RunWriter, from: number, to: number): void {
    if (from >= to) return;
    const before = this.atomsBefore();
    // The run that holds position `from`: the last k with before[k] ≤ from.
    let lo = 0;
    let hi = this.runCount - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (before[mid]! <= from) lo = mid;
      else hi = mid - 1;
    }
    for (let k = lo; k < this.runCount && before[k]! < to; k++) {
      const start = this.runs[2 * k]!;
      const first = start + Math.max(0, from - before[k]!);
      const last = start + Math.min(this.runs[2 * k + 1]! - start, to - before[k]!);
      out.append(first, last);
    }
  }

  /** before[k]: how many atoms the runs before run k hold. Built on first use (4 bytes per run). */
  private before: Uint32Array | undefined;
  private atomsBefore(): Uint32Array {
    if (this.before === undefined) {
      this.before = new Uint32Array(this.runCount);
      for (let k = 1; k < this.runCount; k++) {
        this.before[k] = this.before[k - 1]! + this.runs[2 * k - 1]! - this.runs[2 * k - 2]!;
      }
    }
    return this.before;
  }

  /** The smallest index at least `from` that is not in the configuration. */
  nextAbsent(from: number): number {
    // The last run that starts at or before `from`: if it holds `from`, its end is the answer.
    let [lo, hi] = [0, this.runCount - 1];
    if (hi < 0 || this.runs[0]! > from) return from;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.runs[2 * mid]! <= from) lo = mid;
      else hi = mid - 1;
    }
    return Math.max(from, this.runs[2 * lo + 1]!);
  }

  /** The same indices as another configuration? */
  equals(other: Configuration): boolean {
    if (other.length !== this.length || other.runs.length !== this.runs.length) return false;
    for (let i = 0; i < this.runs.length; i++) if (this.runs[i] !== other.runs[i]) return false;
    return true;
  }

  /** Is every index of this configuration in `other`? (Each run lies within one of `other`'s.) */
  isSubsetOf(other: Configuration): boolean {
    if (this.length > other.length) return false;
    let k = 0;
    for (let i = 0; i < this.runs.length; i += 2) {
      const start = this.runs[i]!;
      const end = this.runs[i + 1]!;
      // other's runs ending at or before `start` cannot hold this run, nor any later one.
      while (k < other.runs.length && other.runs[k + 1]! <= start) k += 2;
      if (k >= other.runs.length || other.runs[k]! > start || other.runs[k + 1]! < end) return false;
    }
    return true;
  }

  /** @internal Concatenation, for `concatParts`. */
  static concat(parts: readonly Configuration[], without: number): Configuration {
    let capacity = 0;
    for (let i = 0; i < parts.length; i++) if (i !== without) capacity += parts[i]!.runs.length;
    const out = new RunWriter(capacity);
    for (let i = 0; i < parts.length; i++) {
      if (i === without) continue;
      const runs = parts[i]!.runs;
      for (let k = 0; k < runs.length; k += 2) out.append(runs[k]!, runs[k + 1]!);
    }
    return out.finish();
  }

  /** @internal */
  static fromWriter(runs: Uint32Array, length: number): Configuration {
    return length === 0 ? Configuration.EMPTY : new Configuration(runs, length);
  }
}

/** Builds the runs of a configuration from ascending runs, merging adjacent ones; grows as needed. */
class RunWriter {
  private runs: Uint32Array;
  private used = 0;
  private atoms = 0;

  constructor(capacity: number) {
    this.runs = new Uint32Array(Math.max(2, capacity));
  }

  append(start: number, end: number): void {
    this.atoms += end - start;
    if (this.used > 0 && this.runs[this.used - 1] === start) {
      this.runs[this.used - 1] = end;
      return;
    }
    if (this.used === this.runs.length) {
      const grown = new Uint32Array(this.runs.length * 2);
      grown.set(this.runs);
      this.runs = grown;
    }
    this.runs[this.used++] = start;
    this.runs[this.used++] = end;
  }

  finish(): Configuration {
    // Small slack is kept as a view; a large one (a writer that grew) is trimmed by a copy.
    const runs =
      this.runs.length - this.used > 16 ? this.runs.slice(0, this.used) : this.runs.subarray(0, this.used);
    return Configuration.fromWriter(runs, this.atoms);
  }
}

/** The configuration [0, 1, …, size − 1]: every atom of the input. */
export function fullConfiguration(size: number): Configuration {
  return Configuration.full(size);
}

/** Concatenates parts (subsets) back into one configuration, optionally leaving one part out (∇i). */
export function concatParts(parts: readonly Configuration[], without = -1): Configuration {
  return Configuration.concat(parts, without);
}
