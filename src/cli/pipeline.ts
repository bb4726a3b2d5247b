import type { AtomMode } from "../atoms/atoms.js";
import type { TreeFrontEnd } from "../hdd/phases.js";
import type { Compatibility } from "../hdd/search.js";
import { WhittleError } from "../errors.js";
import type { Pass } from "../passes/pass.js";
import { planPipeline as plan, type PlannedStep } from "../passes/pipeline.js";
import { UsageError } from "./args.js";

export {
  BIGGEST_MIN_INPUT,
  DEFAULT_POLISH_ALGORITHM,
  DEFAULT_TREE_ALGORITHM,
  DEFAULT_TREE_PHASES,
  FLAT_PHASES,
  SUBSET_GRANULARITY,
} from "../passes/pipeline.js";

export type { PlannedStep } from "../passes/pipeline.js";

/**
 * The command's pipeline (passes/pipeline.ts, shared with the library): a phase that cannot run is
 * a usage error (exit 2).
 */
export function buildPipeline(
  phases: readonly string[],
  atom: AtomMode,
  frontEnd: TreeFrontEnd | undefined,
  compatible?: Compatibility,
  treeAlgorithm = true,
  input?: Uint8Array,
): Pass[] {
  return planPipeline(phases, atom, frontEnd, compatible, treeAlgorithm, input).passes;
}

/** The passes and the default schedule they come from (passes/pipeline.ts), as buildPipeline. */
export function planPipeline(
  phases: readonly string[],
  atom: AtomMode,
  frontEnd: TreeFrontEnd | undefined,
  compatible?: Compatibility,
  treeAlgorithm = true,
  input?: Uint8Array,
): { passes: Pass[]; schedule: PlannedStep[] | undefined } {
  try {
    return plan(phases, atom, frontEnd, compatible, treeAlgorithm, input);
  } catch (error) {
    if (error instanceof WhittleError && error.code === "invalid-option") throw new UsageError(error.message);
    throw error;
  }
}
