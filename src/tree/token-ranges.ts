import type { Tree } from "./tree.js";

/**
 * A set of the input's tokens, as sorted, disjoint, non-adjacent ranges of token indices (positions in
 * `tree.tokens`): `[start0, end0, start1, end1, …]`, each range `[start, end)` non-empty. What a tree
 * candidate removes from the input, whatever edits removed it (hdd/hang-memory.ts compares them).
 */
export type TokenRanges = Int32Array;

export const NO_TOKENS: TokenRanges = new Int32Array(0);

/** The tokens of the node ids `[from, to)` (ids are in pre-order, so a subtree is one id range). */
function idRange(tree: Tree, from: number, to: number, out: number[]): void {
  const start = tree.tokenIndex(from);
  const end = tree.tokenIndex(to);
  if (end > start) out.push(start, end);
}

/** Appends `[start, end)` to ranges sorted by start, joining it to the last if they overlap or touch. */
function append(out: number[], start: number, end: number): void {
  if (out.length > 0 && start <= out[out.length - 1]!) {
    if (end > out[out.length - 1]!) out[out.length - 1] = end;
  } else out.push(start, end);
}

/** Sorts and merges `[start, end)` pairs (overlapping or adjacent ranges become one). */
export function normalize(pairs: readonly number[]): TokenRanges {
  const order: number[] = [];
  for (let i = 0; i < pairs.length; i += 2) order.push(i);
  order.sort((a, b) => pairs[a]! - pairs[b]!);
  const out: number[] = [];
  for (const i of order) append(out, pairs[i]!, pairs[i + 1]!);
  return Int32Array.from(out);
}

/** The tokens of the subtrees of `ids` (a removed node takes its whole subtree). */
export function subtreeTokens(tree: Tree, ids: Iterable<number>): TokenRanges {
  const pairs: number[] = [];
  for (const id of ids) idRange(tree, id, tree.lastDescendant(id) + 1, pairs);
  return normalize(pairs);
}

/** The tokens that hoisting `node` to its descendant `by` removes: the subtree of `node` but `by`'s. */
export function hoistTokens(tree: Tree, node: number, by: number): TokenRanges {
  const pairs: number[] = [];
  idRange(tree, node, by, pairs);
  idRange(tree, tree.lastDescendant(by) + 1, tree.lastDescendant(node) + 1, pairs);
  return normalize(pairs);
}

/** The tokens in `a` or `b`. */
export function union(a: TokenRanges, b: TokenRanges): TokenRanges {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out: number[] = [];
  let [i, j] = [0, 0];
  // Both are sorted: take the one that starts first, joining what overlaps or touches.
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]! <= b[j]!)) {
      append(out, a[i]!, a[i + 1]!);
      i += 2;
    } else {
      append(out, b[j]!, b[j + 1]!);
      j += 2;
    }
  }
  return Int32Array.from(out);
}

/** Whether every token of `inner` is in `outer`. */
export function covers(outer: TokenRanges, inner: TokenRanges): boolean {
  let i = 0;
  for (let j = 0; j < inner.length; j += 2) {
    const [start, end] = [inner[j]!, inner[j + 1]!];
    // The range of `outer` that could hold `start`: the first that ends after it.
    while (i < outer.length && outer[i + 1]! <= start) i += 2;
    if (i >= outer.length || outer[i]! > start || outer[i + 1]! < end) return false;
  }
  return true;
}
