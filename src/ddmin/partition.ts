import type { Configuration } from "./configuration.js";

/**
 * The split factor ν of ddmin^ν (Hodován & Kiss, "Generalizing the split factor of ddmin",
 * Algorithm 3): an integer ≥ 2, or `Infinity`, which makes the very first split go down to single
 * atoms (the paper's onemin when subsets are skipped).
 */
export type SplitFactor = number;

/**
 * Splits `config` into `n` contiguous, pairwise disjoint parts Δ1 … Δn (n ≤ |config|).
 *
 * As in Zeller's reference implementation, part i takes ⌊remaining / (n − i)⌋ of the atoms still
 * left, so earlier parts are never larger than later ones: 8 atoms in 3 parts are 2 + 3 + 3.
 */
export function split(config: Configuration, n: number): Configuration[] {
  const parts: Configuration[] = [];
  let start = 0;
  for (let i = 0; i < n; i++) {
    const stop = start + Math.floor((config.length - start) / (n - i));
    parts.push(config.slice(start, stop));
    start = stop;
  }
  return parts;
}

/**
 * Granularity after "increase granularity" in ddmin^ν: min(|c|, n·ν). With ν = ∞ this is |c|.
 * The same rule, with n = 1, gives the initial granularity min(|c|, ν) and the granularity after a
 * reduction to a subset (Algorithm 3, and μ^ν(1) = ν for a complement that leaves one part).
 */
export function nextGranularity(size: number, n: number, splitFactor: SplitFactor): number {
  return Math.min(size, n * splitFactor);
}
