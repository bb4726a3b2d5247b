/**
 * A line diff of the original and the result, for the report's side-by-side view. A reduction
 * mostly deletes, so the result's lines are nearly a subsequence of the original's: an exact longest
 * common subsequence where its table is small enough (a big original against a small result is),
 * else a greedy in-order match, which finds every line of a pure deletion.
 */

export type DiffOp =
  | { readonly kind: "same"; readonly left: number; readonly right: number }
  | { readonly kind: "removed"; readonly left: number }
  | { readonly kind: "added"; readonly right: number };

/** Cells of the LCS table above which the greedy match is used instead (4 bytes each). */
export const LCS_CELL_LIMIT = 4_000_000;

/** The edit script turning `a` into `b`, as indices into both, in order. */
export function diffLines(a: readonly string[], b: readonly string[]): DiffOp[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const ops: DiffOp[] = [];
  for (let i = 0; i < start; i++) ops.push({ kind: "same", left: i, right: i });
  const n = endA - start;
  const m = endB - start;
  const middle =
    (n + 1) * (m + 1) <= LCS_CELL_LIMIT ? lcsPairs(a, b, start, n, m) : greedyPairs(a, b, start, endA, endB);
  let i = start;
  let j = start;
  for (const [pi, pj] of middle) {
    while (i < pi) ops.push({ kind: "removed", left: i++ });
    while (j < pj) ops.push({ kind: "added", right: j++ });
    ops.push({ kind: "same", left: i++, right: j++ });
  }
  while (i < endA) ops.push({ kind: "removed", left: i++ });
  while (j < endB) ops.push({ kind: "added", right: j++ });
  for (let k = 0; endA + k < a.length; k++) ops.push({ kind: "same", left: endA + k, right: endB + k });
  return ops;
}

/** The matched pairs of a longest common subsequence of a[s, s+n) and b[s, s+m). */
function lcsPairs(
  a: readonly string[],
  b: readonly string[],
  s: number,
  n: number,
  m: number,
): [number, number][] {
  // t[i][j]: the LCS length of the suffixes a[s+i..] and b[s+j..], row-major with width m+1.
  const w = m + 1;
  const t = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      t[i * w + j] =
        a[s + i] === b[s + j]
          ? t[(i + 1) * w + j + 1]! + 1
          : Math.max(t[(i + 1) * w + j]!, t[i * w + j + 1]!);
    }
  }
  const pairs: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[s + i] === b[s + j]) {
      pairs.push([s + i, s + j]);
      i++;
      j++;
    } else if (t[(i + 1) * w + j]! >= t[i * w + j + 1]!) i++;
    else j++;
  }
  return pairs;
}

/** Each line of b[s, endB) matched to the next equal line of a[s, endA) after the last match. */
function greedyPairs(
  a: readonly string[],
  b: readonly string[],
  s: number,
  endA: number,
  endB: number,
): [number, number][] {
  const where = new Map<string, number[]>();
  for (let i = s; i < endA; i++) {
    const list = where.get(a[i]!);
    if (list === undefined) where.set(a[i]!, [i]);
    else list.push(i);
  }
  const pairs: [number, number][] = [];
  let after = s - 1;
  for (let j = s; j < endB; j++) {
    const list = where.get(b[j]!);
    if (list === undefined) continue;
    // The first index > after, by binary search.
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]! > after) hi = mid;
      else lo = mid + 1;
    }
    if (lo < list.length) {
      after = list[lo]!;
      pairs.push([after, j]);
    }
  }
  return pairs;
}

/**
 * Which characters of two lines differ: y's characters matched in order, each to the next equal
 * character of x (the greedy subsequence a deletion leaves); unmatched characters on either side
 * differ. Quadratic at worst, so callers pass short lines.
 */
export function charDiff(x: string, y: string): { left: boolean[]; right: boolean[]; matched: number } {
  const left = new Array<boolean>(x.length).fill(true);
  const right = new Array<boolean>(y.length).fill(true);
  let matched = 0;
  let from = 0;
  for (let j = 0; j < y.length; j++) {
    const at = x.indexOf(y[j]!, from);
    if (at < 0) continue;
    left[at] = false;
    right[j] = false;
    matched++;
    from = at + 1;
  }
  return { left, right, matched };
}
