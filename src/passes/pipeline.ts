import type { Compatibility } from "../hdd/search.js";
import { parsePhase, treePass, type TreeFrontEnd } from "../hdd/phases.js";
import { atomPipeline, ddminAtoms } from "./atoms.js";
import type { Pass, PassContext } from "./pass.js";
import type { DdminOptions } from "../ddmin/ddmin.js";
import { ddminBlanks, ddminGlyphs } from "./glyphs.js";
import { ddminHidden } from "./hidden.js";
import { hasLexicon } from "./lexicon.js";
import { shrinkLiterals } from "./literal.js";
import { renameIdentifiers } from "./rename.js";
import { ddminTokens } from "./tokens.js";
import type { AtomMode } from "../atoms/atoms.js";
import type { Algorithm } from "../ddmin/minimize.js";
import { WhittleError } from "../errors.js";

/**
 * A phase that cannot run: an "invalid-option" error, whose message the command prints as it is.
 * (The pipelines here are the command's and the library's alike.)
 */
function phaseError(message: string): WhittleError {
  return new WhittleError("invalid-option", message);
}

/**
 * Phases that are not tree phases: ddmin over a flat list (lines, characters, characters other than
 * whitespace, runs of whitespace, the grammar's tokens, or the hidden text between them), and the
 * rewriting passes of a built-in language's tokens (consistent renaming of identifiers, shrinking
 * of literals).
 */
export const FLAT_PHASES = [
  "line",
  "char",
  "glyph",
  "blank",
  "token",
  "hidden",
  "rename",
  "literal",
] as const;

/**
 * The default pipeline with a grammar: long chains of single compatible descendants hoisted at once
 * first (`chain`: a test or a few per chain, where HOIST and coarse HDD take one per level; free
 * when there is none, as in most inputs), then on large inputs the largest nodes first (`biggest`,
 * see BIGGEST_MIN_INPUT), then coarse HDD (only the nodes whose replacement is empty —
 * list elements, optional parts — level by level from the root: the cheapest tree pass, which
 * takes most of a large input away before hoisting tries its many candidates), then hoisting, then
 * HDDH to a fixpoint (HOIST*+HDDH* of the hoisting paper, the combination that gave the smallest
 * results there most often), then the polish of what the tree phases leave: tokens, the characters
 * of the tokens whose text the grammar does not fix (identifiers, literals, a macro's body, error
 * regions, comments: `glyph`), and runs of whitespace; with a built-in language, after the tokens,
 * consistent renaming and literal shrinking (a test or two each on the shared cases: creduce-file2-c
 * 39 → 33 non-whitespace characters, and `glyph` then needs 1 test instead of 11). The tree phases
 * reduce each level with DEFAULT_TREE_ALGORITHM, the polish with DEFAULT_POLISH_ALGORITHM (adaptive
 * deletion over long lists, ddmin over short ones: its complements remove what only goes together,
 * as `{"a":[` and `]}` around a value that hoisting cannot reach), ddmin's subsets limited to coarse
 * rounds (SUBSET_GRANULARITY). A ddmin over all characters (`char`)
 * no longer ends it: on the shared cases it removed nothing visible the others leave, at up to a
 * third of the run's tests (README, "The default grammar pipeline").
 */
export const DEFAULT_TREE_PHASES: readonly string[] = [
  "chain",
  "biggest",
  "coarse",
  "hoist*",
  "prune+hoist*",
  "token",
  "glyph",
  "blank",
];

/**
 * The default pipeline runs `biggest` only on inputs of at least this many bytes. Below it, coarse
 * HDD's ddmin over a level's nodes is the cheaper first cut: with `biggest` first, the shared cases of
 * 18–35 KB took up to 3.7 times the tests (hello-world-big-c 553 against 148, creduce-file2-c 261
 * against 143, and 44 non-whitespace characters against 33), while on the two 130 KB JavaScript cases
 * it leaves coarse HDD a third of the input or less to do level by level (README, "The default
 * grammar pipeline").
 */
export const BIGGEST_MIN_INPUT = 64 * 1024;

/** `pass`, run only when the input it starts from has at least BIGGEST_MIN_INPUT bytes. */
function forLargeInputs(pass: Pass): Pass {
  return {
    name: pass.name,
    run: (context) =>
      context.current.length < BIGGEST_MIN_INPUT ? Promise.resolve({ kind: "done" }) : pass.run(context),
  };
}

/** What reduces each level in the default pipeline's tree phases (unless --algorithm is given). */
export const DEFAULT_TREE_ALGORITHM: Algorithm = "probdd";

/**
 * In the default pipeline's polish (the passes after the tree phases), ddmin tests subsets only in
 * rounds of at most this many parts. A subset of a finer split keeps less than a sixteenth of the
 * input, which after the tree phases and hoisting is next to never interesting, and each such round
 * costs as many tests as it has parts: measured on the shared cases, the token pass took 189 tests
 * instead of 248 for the same tokens of zeller-bug-c (145 with no subsets at all), while
 * json-obj-arr-87's best result (one token of 15 kept) needs the subsets of its finest round (with
 * none, 16 non-whitespace characters instead of 2).
 */
export const SUBSET_GRANULARITY = 16;

/**
 * What reduces each list in the default pipeline's polish (unless --algorithm is given): adaptive
 * deletion (ddmin/adaptive.ts) for lists of more than SUBSET_GRANULARITY units, ddmin for shorter
 * ones. After the tree phases most tokens and characters are needed, and the scan tries each once
 * where ddmin's rounds try each about three times: on the shared cases (bench section efficiency,
 * bench/results/2026-11-26-ac76869), zeller-bug-c's token pass took 59 tests instead of 189 and its
 * glyph pass 17 instead of 66 for the same result, and the whole default 809 tests instead of 1,033
 * with every result as small or smaller. The pairs adaptive deletion tries after a fruitless scan
 * cost 98 tests more on those cases (915, bench/results/2026-11-27-bf006d1) for what only goes in
 * twos (a YAML key and its value: the real-oracle YAML test). Short lists keep ddmin: json-obj-arr-87's best result
 * (one token of 15 kept) needs a subset, and the scan left 16 non-whitespace characters instead of 2.
 */
export const DEFAULT_POLISH_ALGORITHM: Algorithm = "adaptive";

function polished(pass: Pass): Pass {
  return {
    name: pass.name,
    run: (context) => {
      // Not an option of the command or the library: the ddmin options of this pipeline's polish.
      const options: PassContext["options"] & DdminOptions = {
        ...context.options,
        subsetGranularity: SUBSET_GRANULARITY,
        algorithm: DEFAULT_POLISH_ALGORITHM,
        adaptiveAbove: SUBSET_GRANULARITY,
      };
      return pass.run({ ...context, options });
    },
  };
}

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
    // The built-in languages rename identifiers and shrink literals after the token pass; an ANTLR
    // grammar cannot say which tokens those are.
    const phases = hasLexicon(frontEnd)
      ? DEFAULT_TREE_PHASES.flatMap((p) => (p === "token" ? ["token", "rename", "literal"] : [p]))
      : DEFAULT_TREE_PHASES;
    return buildPipeline(phases, atom, frontEnd, compatible).map((pass) =>
      pass.name === "hdd:biggest"
        ? forLargeInputs(pass)
        : !treeAlgorithm
          ? pass
          : pass.name.startsWith("hdd:")
            ? withAlgorithm(pass, DEFAULT_TREE_ALGORITHM)
            : polished(pass),
    );
  }
  return phases.map((name) => {
    if (name === "line" || name === "char") return ddminAtoms(name);
    if (name === "glyph") return ddminGlyphs(frontEnd);
    if (name === "blank") return ddminBlanks();
    if (!frontEnd)
      throw phaseError(
        `--phase ${name} works on a parse tree: give a grammar with --grammar or a language with --language`,
      );
    if (name === "token") return ddminTokens(frontEnd);
    if (name === "hidden") return ddminHidden(frontEnd);
    if (name === "rename" || name === "literal") {
      // An ANTLR grammar's token types are named as its author liked (ID, Identifier, NAME, …), and
      // nothing in it says which are identifiers, numbers or strings, nor which names are free.
      if (!hasLexicon(frontEnd))
        throw phaseError(
          `--phase ${name} works with the built-in languages only (--language): an ANTLR grammar does not say which of its tokens are identifiers, numbers or strings`,
        );
      return name === "rename" ? renameIdentifiers(frontEnd) : shrinkLiterals(frontEnd);
    }
    try {
      return treePass(parsePhase(name), frontEnd, compatible);
    } catch (error) {
      throw phaseError(`--phase: ${(error as Error).message}, or one of ${FLAT_PHASES.join(", ")}`);
    }
  });
}
