import type { Configuration } from "./configuration.js";
import { Partition } from "./partition.js";

/**
 * Which candidates a ddmin round tests, and in which order (Hodován & Kiss, "Practical improvements
 * to the minimizing Delta Debugging algorithm", Sections 3.3 and 4).
 */

/** The order of the two reduce cases: the original (subsets first), swapped, or subsets skipped. */
export type Strategy = "subsets-first" | "complements-first" | "complements-only";
export const STRATEGIES: readonly Strategy[] = ["subsets-first", "complements-first", "complements-only"];

/** Syntactic order in which the parts of one loop are visited. */
export type Order = "forward" | "backward";
export const ORDERS: readonly Order[] = ["forward", "backward"];

/** A candidate of a round: the subset Δi or the complement ∇i = c − Δi of part `index`. */
export interface CandidateRef {
  readonly kind: "subset" | "complement";
  readonly index: number;
}

export interface RoundOrder {
  readonly strategy: Strategy;
  readonly subsetOrder: Order;
  readonly complementOrder: Order;
  /**
   * Subsets are tested only in rounds of at most this many parts (undefined: in every round, as the
   * papers do). Beyond the papers, for the polish after the tree phases: see SUBSET_GRANULARITY.
   */
  readonly subsetGranularity?: number;
}

/**
 * One loop of a round: `length` candidates, the p-th made on demand, so that a round at granularity
 * n holds no list of 2n candidates (n can be the number of atoms).
 */
export interface Loop {
  readonly length: number;
  at(position: number): CandidateRef;
}

function visit(n: number, order: Order): (position: number) => number {
  return order === "forward" ? (p) => p : (p) => n - 1 - p;
}

/** The loops of `roundLoops`, lazily. */
export function roundLoopOrder(n: number, complementOffset: number, order: RoundOrder): Loop[] {
  const subsetAt = visit(n, order.subsetOrder);
  const complementAt = visit(n, order.complementOrder);
  const subsets: Loop = { length: n, at: (p) => ({ kind: "subset", index: subsetAt(p) }) };
  const complements: Loop = {
    length: n,
    at: (p) => ({ kind: "complement", index: (complementAt(p) + complementOffset) % n }),
  };
  if (order.subsetGranularity !== undefined && n > order.subsetGranularity) return [complements];
  switch (order.strategy) {
    case "subsets-first":
      return [subsets, complements];
    case "complements-first":
      return [complements, subsets];
    case "complements-only":
      return [complements];
  }
}

/** Loops one after another as one loop (a combined round). */
export function concatLoops(loops: readonly Loop[]): Loop {
  const length = loops.reduce((sum, loop) => sum + loop.length, 0);
  return {
    length,
    at(position) {
      let p = position;
      for (const loop of loops) {
        if (p < loop.length) return loop.at(p);
        p -= loop.length;
      }
      throw new RangeError(`position ${position} of a loop of ${length}`);
    },
  };
}

/**
 * The loops of one round at granularity n, in sequential order: each loop is a list of candidates,
 * and the sequential algorithm commits the first interesting candidate of the first loop that has one.
 *
 * Complement scans are rotated by `complementOffset`: after the complement of part k was taken, the
 * parts before k were just tested against a larger configuration, so the next scan starts at part k
 * (what picire does, and what the counts of Table 3(a) were measured with).
 */
export function roundLoops(n: number, complementOffset: number, order: RoundOrder): CandidateRef[][] {
  return roundLoopOrder(n, complementOffset, order).map((loop) =>
    Array.from({ length: loop.length }, (_, p) => loop.at(p)),
  );
}

/**
 * Where ddmin goes when `hit` is interesting: to the subset (a partition of one part, split at the
 * next round; offset 0) or to the complement (the other parts kept; the rotation offset stays at the
 * removed part's place).
 */
export function reducedTo(parts: Partition, hit: CandidateRef): { parts: Partition; offset: number } {
  return hit.kind === "subset"
    ? { parts: Partition.whole(parts.part(hit.index)), offset: 0 }
    : { parts: parts.without(hit.index), offset: hit.index };
}

export function candidateOf(parts: Partition, ref: CandidateRef): Configuration {
  return ref.kind === "subset" ? parts.part(ref.index) : parts.complement(ref.index);
}

/**
 * At granularity 2 the subsets and complements are the same two configurations (Δ1 = ∇2, Δ2 = ∇1).
 * Sequential rounds meet the second copy in the cache; a combined parallel round would run it
 * beside the first, so only the first occurrence in scan order is kept: the sequential scan would
 * commit that one too (it reaches it first), so deterministic results do not change.
 */
export function withoutTwins(loop: Loop, n: number): Loop {
  if (n !== 2) return loop;
  const seen = new Set<number>();
  const kept: CandidateRef[] = [];
  for (let p = 0; p < loop.length; p++) {
    const ref = loop.at(p);
    const part = ref.kind === "subset" ? ref.index : 1 - ref.index;
    if (seen.has(part)) continue;
    seen.add(part);
    kept.push(ref);
  }
  return { length: kept.length, at: (p) => kept[p]! };
}
