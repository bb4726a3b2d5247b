import { fullConfiguration } from "../ddmin/configuration.js";
import type { TreeSearch } from "./search.js";

/**
 * BIGGEST stops when the largest node left is smaller than 1/BIGGEST_STOP_FRACTION of the current
 * input or than BIGGEST_MIN_BYTES, whichever is larger: the level-by-level phases that follow do the
 * fine work. Chosen by measurement on js-yaml-flow-error (130 KB, 77,314 non-whitespace characters),
 * the phase alone: stopping at 1/64 of the input left 54,066 characters after 100 tests, at 1/256
 * 18,966 after 549, at 64 bytes 15,872 after 715; with coarse HDD and the rest after it, 5 minutes
 * gave 17,844 characters from 1/64 and 6,497 from 64 bytes (20,084 without the phase). Finer pays on
 * a large input; the fraction only bounds the tests on inputs of many megabytes (about
 * BIGGEST_STOP_FRACTION nodes a level of the tree reach the stop size).
 */
export const BIGGEST_STOP_FRACTION = 1024;
export const BIGGEST_MIN_BYTES = 64;

/** How many heap nodes one round looks ahead per parallel job (see biggest()). */
const LOOKAHEAD_PER_JOB = 8;

/**
 * A max-heap of nodes by size, ties in document order (the lower id first), so that the order of
 * the pops is a function of the sizes alone.
 */
class NodeHeap {
  constructor(
    private readonly ids: number[] = [],
    private readonly sizes: number[] = [],
  ) {}

  get length(): number {
    return this.ids.length;
  }
  clone(): NodeHeap {
    return new NodeHeap([...this.ids], [...this.sizes]);
  }
  topSize(): number {
    return this.sizes[0] ?? 0;
  }
  private above(i: number, j: number): boolean {
    const a = this.sizes[i]!;
    const b = this.sizes[j]!;
    return a > b || (a === b && this.ids[i]! < this.ids[j]!);
  }
  private swap(i: number, j: number): void {
    [this.ids[i], this.ids[j]] = [this.ids[j]!, this.ids[i]!];
    [this.sizes[i], this.sizes[j]] = [this.sizes[j]!, this.sizes[i]!];
  }
  push(id: number, size: number): void {
    this.ids.push(id);
    this.sizes.push(size);
    for (let i = this.ids.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (!this.above(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }
  pop(): number {
    const top = this.ids[0]!;
    const lastId = this.ids.pop()!;
    const lastSize = this.sizes.pop()!;
    if (this.ids.length > 0) {
      this.ids[0] = lastId;
      this.sizes[0] = lastSize;
      for (let i = 0; ;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let best = i;
        if (left < this.ids.length && this.above(left, best)) best = left;
        if (right < this.ids.length && this.above(right, best)) best = right;
        if (best === i) break;
        this.swap(i, best);
        i = best;
      }
    }
    return top;
  }
}

/**
 * The size in bytes of every node of the edited tree as it renders now (its tokens with the hidden
 * text before each; a removed node, its replacement; a hoisted node, what replaces it). Children
 * have higher ids than their parent, so one pass from the last id down computes them all.
 */
function presentSizes(search: TreeSearch): Float64Array {
  const { tree, edits } = search;
  const sizes = new Float64Array(tree.size);
  const resolve = (id: number): number => {
    for (let h = edits.hoistOf(id); h !== undefined; h = edits.hoistOf(id)) id = h;
    return id;
  };
  for (let id = tree.size - 1; id >= 0; id--) {
    if (edits.isRemoved(id)) sizes[id] = tree.replacement(id).length;
    else if (tree.isToken(id)) sizes[id] = tree.end(id) - tree.gapStart(id);
    else {
      let sum = 0;
      for (const child of tree.children(id)) sum += sizes[resolve(child)]!;
      sizes[id] = sum;
    }
  }
  return sizes;
}

/**
 * BIGGEST: the largest nodes first, across levels (Perses and treereduce keep such a queue; not a
 * phase of the papers). A max-heap holds the nodes of the edited tree by their size in bytes, from
 * the root's children on. The largest is popped; if its minimal replacement is shorter than it, that
 * candidate is tested: an interesting one is committed (the node and its subtree are gone); otherwise,
 * or when the replacement would not make it shorter, its children go on the heap. It stops when the
 * largest node left is smaller than the stop size (BIGGEST_STOP_FRACTION, BIGGEST_MIN_BYTES),
 * leaving the small nodes to the level-by-level phases. The nodes in the heap are disjoint subtrees,
 * untouched by the edits so far, so their sizes stay exact while their ancestors shrink.
 *
 * With parallel jobs, each round simulates the pops that would follow if every test failed, takes
 * the first candidates of that sequence (LOOKAHEAD_PER_JOB per job) and tests them with
 * findInteresting: the first interesting in that order is committed, the pops before it are
 * replayed. That is what the sequential search tests, in the same order: the result does not
 * depend on -j. Returns whether any node was replaced. (Trying the top 8 disjoint nodes of the heap
 * at once first, doubling on success and halving on failure, as Shrink Ray's cuts do, was measured on
 * js-yaml-flow-error: 705 tests against 714 to the same 15,872 characters, not worth its code.)
 */
export async function biggest(search: TreeSearch): Promise<boolean> {
  const tree = search.tree;
  const evaluator = search.evaluator.scope("other");
  const sizes = presentSizes(search);
  let total = sizes[0]!;
  const stopSize = (): number => Math.max(BIGGEST_MIN_BYTES, total / BIGGEST_STOP_FRACTION);
  const resolve = (id: number): number => {
    for (let h = search.edits.hoistOf(id); h !== undefined; h = search.edits.hoistOf(id)) id = h;
    return id;
  };
  /** A node worth a test: its replacement makes the input shorter. */
  const testable = (id: number): boolean =>
    !tree.isFixed(id) && !search.edits.isRemoved(id) && tree.replacement(id).length < sizes[id]!;
  /** The node is not replaced: its present children go on the heap. */
  const expand = (heap: NodeHeap, id: number): void => {
    if (search.edits.isRemoved(id)) return;
    for (const child of tree.children(id)) {
      const c = resolve(child);
      heap.push(c, sizes[c]!);
    }
  };
  let heap = new NodeHeap();
  expand(heap, resolve(0));
  let changed = false;
  const lookahead = Math.max(1, Math.floor(search.options.jobs)) * LOOKAHEAD_PER_JOB;
  try {
    for (let round = 1; ; round++) {
      search.signal.throwIfAborted();
      // The pops that follow if every test fails, up to `lookahead` candidates.
      const ahead = heap.clone();
      const candidates: number[] = [];
      while (candidates.length < lookahead && ahead.length > 0 && ahead.topSize() >= stopSize()) {
        const id = ahead.pop();
        if (testable(id)) candidates.push(id);
        expand(ahead, id);
      }
      if (candidates.length === 0) return changed;
      search.emit({
        type: "frontier",
        pass: search.pass,
        largest: heap.topSize(),
        stop: Math.ceil(stopSize()),
      });
      const base = search.edits;
      const found = await search.firstInteresting(
        evaluator,
        candidates.length,
        (i) => search.key(base.withRemoved(new Set([candidates[i]!])), fullConfiguration(0)),
        (i) => ({
          kind: "replace",
          index: i,
          round,
          granularity: candidates.length,
          level: tree.depth(candidates[i]!),
        }),
      );
      if (found === undefined) {
        heap = ahead;
        continue;
      }
      const node = candidates[found.index]!;
      evaluator.commit(found.key);
      for (let id = heap.pop(); id !== node; id = heap.pop()) expand(heap, id);
      search.edits = base.remove([node]);
      total -= sizes[node]! - tree.replacement(node).length;
      changed = true;
    }
  } finally {
    evaluator.close();
  }
}
