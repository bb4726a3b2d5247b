/** Median, minimum and maximum of a set of repeated measurements. */
export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly n: number;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function spread(values: readonly number[]): Spread {
  return {
    median: median(values),
    min: values.length ? Math.min(...values) : Number.NaN,
    max: values.length ? Math.max(...values) : Number.NaN,
    n: values.length,
  };
}

/** Element-wise ratios a[i] / b[i] of measurements taken in the same repetition. */
export function pairRatios(a: readonly number[], b: readonly number[]): number[] {
  const n = Math.min(a.length, b.length);
  return Array.from({ length: n }, (_, i) => a[i]! / b[i]!);
}

/** Spread of the ratios a[i] / b[i]. */
export function ratioSpread(a: readonly number[], b: readonly number[]): Spread {
  return spread(pairRatios(a, b));
}

/** Geometric mean (for averaging ratios). */
export function geomean(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  return Math.exp(values.reduce((s, v) => s + Math.log(v), 0) / values.length);
}
