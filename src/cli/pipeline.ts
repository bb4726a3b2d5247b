import type { Compatibility } from "../hdd/search.js";
import { parsePhase, treePass, type TreeFrontEnd } from "../hdd/phases.js";
import { atomPipeline, ddminAtoms } from "../passes/atoms.js";
import type { Pass } from "../passes/pass.js";
import { ddminBlanks, ddminGlyphs } from "../passes/glyphs.js";
import { ddminHidden } from "../passes/hidden.js";
import { ddminTokens } from "../passes/tokens.js";
import type { AtomMode } from "../atoms/atoms.js";
import type { Algorithm } from "../ddmin/minimize.js";
import { UsageError } from "./args.js";

/**
 * Phases that are ddmin over a flat list: lines, characters, characters other than whitespace, runs
 * of whitespace, the grammar's tokens, or the hidden text between them (comments).
 */
export const FLAT_PHASES = ["line", "char", "glyph", "blank", "token", "hidden"] as const;

/**
 * The default pipeline with a grammar: long chains of single compatible descendants hoisted at once
 * first (`chain`: a test or a few per chain, where HOIST and coarse HDD take one per level; free
 * when there is none, as in most inputs), then coarse HDD (only the nodes whose replacement is empty —
 * list elements, optional parts — level by level from the root: the cheapest tree pass, which
 * takes most of a large input away before hoisting tries its many candidates), then hoisting, then
 * HDDH to a fixpoint (HOIST*+HDDH* of the hoisting paper, the combination that gave the smallest
 * results there most often), then the polish of what the tree phases leave: tokens, the visible
 * characters, runs of whitespace, and last all characters (for what only goes with the whitespace
 * around it, such as a preprocessor line's end). The tree phases reduce each level with
 * DEFAULT_TREE_ALGORITHM, the polish with the run's algorithm (ddmin by default: its complements
 * remove what only goes together, as `{"a":[` and `]}` around a value that hoisting cannot reach).
 * Chosen by the `hdd` benchmark (README, "The default grammar pipeline").
 */
export const DEFAULT_TREE_PHASES: readonly string[] = [
  "chain",
  "coarse",
  "hoist*",
  "prune+hoist*",
  "token",
  "glyph",
  "blank",
  "char",
];

/** What reduces each level in the default pipeline's tree phases (unless --algorithm is given). */
export const DEFAULT_TREE_ALGORITHM: Algorithm = "probdd";

/** `pass` with `algorithm` reducing its lists, whatever the run's option says. */
function withAlgorithm(pass: Pass, algorithm: Algorithm): Pass {
  return {
    name: pass.name,
    run: (context) => pass.run({ ...context, options: { ...context.options, algorithm } }),
  };
}

/**
 * The passes a run makes: the `--phase` list in order, or the default — ddmin over the atoms of
 * `--atom` without a grammar, DEFAULT_TREE_PHASES with one, whose tree phases use
 * DEFAULT_TREE_ALGORITHM when `treeAlgorithm` (the caller's algorithm was not asked for).
 */
export function buildPipeline(
  phases: readonly string[],
  atom: AtomMode,
  frontEnd: TreeFrontEnd | undefined,
  compatible?: Compatibility,
  treeAlgorithm = true,
): Pass[] {
  if (phases.length === 0) {
    if (!frontEnd) return atomPipeline(atom);
    return buildPipeline(DEFAULT_TREE_PHASES, atom, frontEnd, compatible).map((pass) =>
      treeAlgorithm && pass.name.startsWith("hdd:") ? withAlgorithm(pass, DEFAULT_TREE_ALGORITHM) : pass,
    );
  }
  return phases.map((name) => {
    if (name === "line" || name === "char") return ddminAtoms(name);
    if (name === "glyph") return ddminGlyphs();
    if (name === "blank") return ddminBlanks();
    if (!frontEnd)
      throw new UsageError(
        `--phase ${name} works on a parse tree: give a grammar with --grammar or a language with --language`,
      );
    if (name === "token") return ddminTokens(frontEnd);
    if (name === "hidden") return ddminHidden(frontEnd);
    try {
      return treePass(parsePhase(name), frontEnd, compatible);
    } catch (error) {
      throw new UsageError(`--phase: ${(error as Error).message}, or one of ${FLAT_PHASES.join(", ")}`);
    }
  });
}
