import type { Configuration } from "./configuration.js";
import { ddmin, type DdminHooks, type DdminOptions, type DdminResult } from "./ddmin.js";
import { adaptive } from "./adaptive.js";
import { probdd } from "./probdd.js";

/** The algorithms that reduce a list of units. */
export const ALGORITHMS = ["ddmin", "probdd", "adaptive"] as const;
export type Algorithm = (typeof ALGORITHMS)[number];

/** Reduces one list of units with the algorithm the options name: ddmin, ProbDD, or adaptive deletion (adaptive.ts). */
export function minimize(
  initial: Configuration | ArrayLike<number>,
  hooks: DdminHooks,
  options: DdminOptions,
): Promise<DdminResult> {
  switch (options.algorithm) {
    case "probdd":
      return probdd(initial, hooks, {
        ddStar: options.ddStar,
        jobs: options.jobs,
        ...(options.p0 !== undefined ? { p0: options.p0 } : {}),
        ...(options.calibration ? { calibration: options.calibration } : {}),
      });
    case "adaptive":
      // Short lists go to ddmin (see DdminOptions.adaptiveAbove).
      return initial.length <= (options.adaptiveAbove ?? 0)
        ? ddmin(initial, hooks, options)
        : adaptive(initial, hooks, options);
    default:
      return ddmin(initial, hooks, options);
  }
}
