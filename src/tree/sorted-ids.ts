/**
 * Node ids as an ascending Int32Array: a set that answers "which is the next at or after this id"
 * with a binary search, which is what rendering asks (ids are in pre-order, so a subtree is one id
 * range, and the nodes before the next edited one are as the input has them).
 */
export type SortedIds = Int32Array;

/** The distinct ids of `ids`, ascending. */
export function sortedIds(ids: Iterable<number>): SortedIds {
  const out = Int32Array.from(ids).sort();
  let n = 0;
  for (let i = 0; i < out.length; i++) if (i === 0 || out[i] !== out[n - 1]) out[n++] = out[i]!;
  return n === out.length ? out : out.slice(0, n);
}

/**
 * The index of the first of ascending `ids` that is at least `value` (`ids.length` if none),
 * searching from index `start` on.
 */
export function lowerBound(ids: Int32Array, value: number, start = 0): number {
  let [lo, hi] = [start, ids.length];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The smallest of `ids` at least `from`, or Infinity. */
export function nextId(ids: SortedIds, from: number): number {
  const i = lowerBound(ids, from);
  return i < ids.length ? ids[i]! : Infinity;
}

/** Whether `ids` hold `id`. */
export function hasId(ids: SortedIds, id: number): boolean {
  return nextId(ids, id) === id;
}

/** The ids in `a` or `b`. */
export function mergeIds(a: SortedIds, b: SortedIds): SortedIds {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  const out = new Int32Array(a.length + b.length);
  let [i, j, n] = [0, 0, 0];
  while (i < a.length || j < b.length) {
    const next = j >= b.length || (i < a.length && a[i]! <= b[j]!) ? a[i++]! : b[j++]!;
    if (n === 0 || out[n - 1] !== next) out[n++] = next;
  }
  return n === out.length ? out : out.slice(0, n);
}
