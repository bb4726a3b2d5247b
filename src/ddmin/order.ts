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
}

function visit(n: number, order: Order): number[] {
  const indices = Array.from({ length: n }, (_, i) => i);
  return order === "forward" ? indices : indices.reverse();
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
  const subsets = visit(n, order.subsetOrder).map((index): CandidateRef => ({ kind: "subset", index }));
  const complements = visit(n, order.complementOrder).map((i): CandidateRef => ({
    kind: "complement",
    index: (i + complementOffset) % n,
  }));
  switch (order.strategy) {
    case "subsets-first":
      return [subsets, complements];
    case "complements-first":
      return [complements, subsets];
    case "complements-only":
      return [complements];
  }
}
