import type { Configuration } from "./configuration.js";

/**
 * The split factor ν of ddmin^ν (Hodován & Kiss, "Generalizing the split factor of ddmin",
 * Algorithm 3): an integer ≥ 2, or `Infinity`, which makes the very first split go down to single
 * atoms (the paper's onemin when subsets are skipped).
 */
export type SplitFactor = number;

/**
 * A configuration cut into n contiguous, pairwise disjoint parts Δ1 … Δn. Only the n + 1 cut
 * positions are stored (4 bytes per part); a part Δi or its complement ∇i is made when a test needs
 * it, so a round at granularity n never holds n configurations at once.
 */
export class Partition {
  private constructor(
    readonly config: Configuration,
    /** cuts[i] is the position in `config` where part i starts; cuts[n] = |config|. */
    private readonly cuts: Uint32Array,
  ) {}

  /** The whole configuration as one part (the state right after a reduction to a subset). */
  static whole(config: Configuration): Partition {
    return new Partition(config, Uint32Array.of(0, config.length));
  }

  /**
   * Splits `config` into `n` parts (n ≤ |config|). As in Zeller's reference implementation, part i
   * takes ⌊remaining / (n − i)⌋ of the atoms still left, so earlier parts are never larger than later
   * ones: 8 atoms in 3 parts are 2 + 3 + 3.
   */
  static split(config: Configuration, n: number): Partition {
    const cuts = new Uint32Array(n + 1);
    let start = 0;
    for (let i = 0; i < n; i++) {
      start += Math.floor((config.length - start) / (n - i));
      cuts[i + 1] = start;
    }
    return new Partition(config, cuts);
  }

  /** n, the number of parts. */
  get count(): number {
    return this.cuts.length - 1;
  }

  /** The subset Δi. */
  part(i: number): Configuration {
    return this.config.slice(this.cuts[i]!, this.cuts[i + 1]!);
  }

  /** The complement ∇i = c − Δi. */
  complement(i: number): Configuration {
    return this.config.without(this.cuts[i]!, this.cuts[i + 1]!);
  }

  /** The other n − 1 parts, as a partition of ∇i (what a reduction to a complement keeps). */
  without(i: number): Partition {
    const removed = this.cuts[i + 1]! - this.cuts[i]!;
    const cuts = new Uint32Array(this.cuts.length - 1);
    for (let j = 0; j < cuts.length; j++) cuts[j] = j <= i ? this.cuts[j]! : this.cuts[j + 1]! - removed;
    return new Partition(this.complement(i), cuts);
  }
}

/**
 * Splits `config` into `n` contiguous, pairwise disjoint parts Δ1 … Δn (n ≤ |config|), each made
 * at once (see `Partition` for the lazy form ddmin uses).
 */
export function split(config: Configuration, n: number): Configuration[] {
  const partition = Partition.split(config, n);
  return Array.from({ length: n }, (_, i) => partition.part(i));
}

/**
 * Granularity after "increase granularity" in ddmin^ν: min(|c|, n·ν). With ν = ∞ this is |c|.
 * The same rule, with n = 1, gives the initial granularity min(|c|, ν) and the granularity after a
 * reduction to a subset (Algorithm 3, and μ^ν(1) = ν for a complement that leaves one part).
 */
export function nextGranularity(size: number, n: number, splitFactor: SplitFactor): number {
  return Math.min(size, n * splitFactor);
}
