import type { Compatibility } from "../hdd/search.js";
import { parsePhase, treePass, type TreeFrontEnd } from "../hdd/phases.js";
import { ddminAtoms } from "./atoms.js";
import type { Pass } from "./pass.js";
import { ddminBlanks, ddminGlyphs } from "./glyphs.js";
import { ddminHidden } from "./hidden.js";
import { hasLexicon } from "./lexicon.js";
import { shrinkLiterals } from "./literal.js";
import { renameIdentifiers } from "./rename.js";
import { ddminTokens } from "./tokens.js";
import type { AtomMode } from "../atoms/atoms.js";
import {
  atomSchedule,
  compileSchedule,
  DEFAULT_TREE_SCHEDULE,
  forRun,
  type ScheduleFacts,
  type ScheduleStep,
} from "./schedule.js";
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

export {
  BIGGEST_MIN_INPUT,
  DEFAULT_POLISH_ALGORITHM,
  DEFAULT_TREE_ALGORITHM,
  DEFAULT_TREE_PHASES,
  SUBSET_GRANULARITY,
} from "./schedule.js";

/** A step of the default schedule as one run makes it: its pass's name, none when left out. */
export interface PlannedStep {
  readonly step: ScheduleStep;
  readonly pass: string | undefined;
  /** What the run's language is, as the step's condition asks (StepCondition). */
  readonly facts: ScheduleFacts;
}

/**
 * The passes a run makes and, for the default pipeline, the schedule they come from (undefined with
 * `--phase`): DEFAULT_TREE_SCHEDULE with a grammar, the atoms of `--atom` without one (schedule.ts).
 * Its steps take their own algorithms when `treeAlgorithm` (the caller's algorithm was not asked
 * for), the run's otherwise. With the `input`, whether it has names is the input's (a page without
 * scripts has none); without it, the language's.
 */
export function planPipeline(
  phases: readonly string[],
  atom: AtomMode,
  frontEnd: TreeFrontEnd | undefined,
  compatible?: Compatibility,
  treeAlgorithm = true,
  input?: Uint8Array,
): { passes: Pass[]; schedule: PlannedStep[] | undefined } {
  if (phases.length > 0) return { passes: buildPhases(phases, frontEnd, compatible), schedule: undefined };
  const schedule = forRun(frontEnd ? DEFAULT_TREE_SCHEDULE : atomSchedule(atom), !treeAlgorithm);
  const lexical = frontEnd !== undefined && hasLexicon(frontEnd) ? frontEnd : undefined;
  const facts: ScheduleFacts = {
    builtInLanguage: lexical !== undefined,
    names:
      lexical !== undefined &&
      (input === undefined ? lexical.lexicon.identifierKinds.size > 0 : lexical.hasNames(input)),
  };
  // The phases built so far, in order: compileSchedule builds the steps of the run one by one.
  const built: string[] = [];
  const compiled = compileSchedule(
    schedule,
    (phase) => {
      const pass = buildPass(phase, built, frontEnd, compatible);
      built.push(phase);
      return pass;
    },
    facts,
  );
  return {
    passes: compiled.flatMap(({ pass }) => (pass ? [pass] : [])),
    schedule: compiled.map(({ step, pass }) => ({ step, pass: pass?.name, facts })),
  };
}

/**
 * The passes a run makes: the `--phase` list in order, or the default schedule's (planPipeline).
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

/** The passes of the phases named (`--phase`), in order. */
function buildPhases(
  phases: readonly string[],
  frontEnd: TreeFrontEnd | undefined,
  compatible: Compatibility | undefined,
): Pass[] {
  return phases.map((name, i) => buildPass(name, phases.slice(0, i), frontEnd, compatible));
}

/**
 * The pass of the phase `name`, which comes after the phases `before`: a glyph pass after a rename
 * pass leaves identifiers to it (ddminGlyphs).
 */
function buildPass(
  name: string,
  before: readonly string[],
  frontEnd: TreeFrontEnd | undefined,
  compatible: Compatibility | undefined,
): Pass {
  if (name === "line" || name === "char") return ddminAtoms(name);
  if (name === "glyph") return ddminGlyphs(frontEnd, { names: !before.includes("rename") });
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
}
