import type { Configuration } from "./configuration.js";
import { ddmin, type DdminHooks, type DdminOptions, type DdminResult } from "./ddmin.js";
import { probdd } from "./probdd.js";

/** The algorithms that reduce a list of units. */
export const ALGORITHMS = ["ddmin", "probdd"] as const;
export type Algorithm = (typeof ALGORITHMS)[number];

/** Reduces one list of units with the algorithm the options name: ddmin, or ProbDD. */
export function minimize(
  initial: Configuration | ArrayLike<number>,
  hooks: DdminHooks,
  options: DdminOptions,
): Promise<DdminResult> {
  return options.algorithm === "probdd"
    ? probdd(initial, hooks, { ddStar: options.ddStar })
    : ddmin(initial, hooks, options);
}
