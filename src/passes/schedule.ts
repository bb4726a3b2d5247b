import { atomPasses, type AtomMode } from "../atoms/atoms.js";
import type { DdminOptions } from "../ddmin/ddmin.js";
import type { Algorithm } from "../ddmin/minimize.js";
import type { Pass, PassContext } from "./pass.js";

/**
 * The default pipeline as data (issue 23, after Shrink Ray's pass tiers): which phases run, in
 * which order, with which list algorithm, under which condition, and why. `compileSchedule` turns a
 * schedule into passes; `--help`, `--stats` and the start line describe the same value.
 */

/**
 * When a step runs. `minInputBytes`: when the input it starts from (the best so far) has at least
 * that many bytes. `builtInLanguage`: only with a built-in language (tree-sitter), whose tokens say
 * which are identifiers and literals; with an ANTLR grammar the step is not in the pipeline at all;
 * with `names`, only with a built-in language whose input has identifiers (true) or has none (false:
 * JSON, YAML, an HTML page without scripts).
 */
export type StepCondition =
  { readonly minInputBytes: number } | { readonly builtInLanguage: true; readonly names?: boolean };

/** The list algorithm's settings for a step, beyond the run's options (see DdminOptions). */
export interface StepDdmin {
  /** ddmin tests subsets only in rounds of at most this many parts. */
  readonly subsetGranularity?: number;
  /** With algorithm "adaptive": lists of at most this many units are reduced by ddmin instead. */
  readonly adaptiveAbove?: number;
  /**
   * `adaptiveAbove` and `subsetGranularity` hold only with an ANTLR grammar: with a built-in
   * language, every list is reduced by adaptive deletion (see DEFAULT_POLISH_ALGORITHM).
   */
  readonly ddminOnlyWithGrammar?: boolean;
  /** With algorithm "probdd" in a tree phase: each search's p0 learned from the pass's earlier ones. */
  readonly learnP0?: boolean;
  /** With algorithm "adaptive": whether neighbouring pairs are tried after a fruitless scan (default yes). */
  readonly pairs?: boolean;
}

export interface ScheduleStep {
  /** The phase, as `--phase` spells it. */
  readonly phase: string;
  /**
   * What reduces the step's lists: its own algorithm, or "run" for the run's options as they are
   * (`--algorithm`, ddmin by default). With `--algorithm` given, every step is "run" (forRun).
   */
  readonly algorithm: Algorithm | "run";
  readonly condition?: StepCondition;
  readonly ddmin?: StepDdmin;
  /** Why the step is there, in one line. */
  readonly reason: string;
}

export type Schedule = readonly ScheduleStep[];

/**
 * The default pipeline runs `biggest` only on inputs of at least this many bytes. Below it, coarse
 * HDD's ddmin over a level's nodes is the cheaper first cut: with `biggest` first, the shared cases of
 * 18–35 KB took up to 3.7 times the tests (hello-world-big-c 553 against 148, creduce-file2-c 261
 * against 143, and 44 non-whitespace characters against 33), while on the two 130 KB JavaScript cases
 * it leaves coarse HDD a third of the input or less to do level by level (README, "The default
 * grammar pipeline").
 */
export const BIGGEST_MIN_INPUT = 64 * 1024;

/** What reduces each level in the default pipeline's tree phases (unless --algorithm is given). */
export const DEFAULT_TREE_ALGORITHM: Algorithm = "probdd";

/**
 * In the default pipeline's tree phases, ProbDD's initial probability is learned per pass from the
 * units its earlier levels decided (learnedP0 in ddmin/probdd.ts) instead of the paper's fixed 0.1:
 * after coarse HDD nearly every unit a level of `prune+hoist*` has is needed, and from 0.1 ProbDD
 * tries groups that fail before it tests each unit alone. Measured (bench/results/2026-11-28-learned-p0):
 * the same results on the shared cases and six generated JavaScript programs, with prune+hoist*'s
 * tests on those programs about 95 → 63 a program.
 */
export const LEARN_TREE_P0 = true;

/**
 * In the default pipeline's polish (the passes after the tree phases) with an ANTLR grammar, ddmin
 * tests subsets only in rounds of at most this many parts (with a built-in language the polish runs
 * no ddmin since 2026-12-07: DEFAULT_POLISH_ALGORITHM). A subset of a finer split keeps less than a
 * sixteenth of the input, which after the tree phases and hoisting is next to never interesting,
 * and each such round costs as many tests as it has parts: measured on the shared cases, the token
 * pass took 189 tests instead of 248 for the same tokens of zeller-bug-c (145 with no subsets at
 * all), while json-obj-arr-87's best result (one token of 15 kept) needed the subsets of its finest
 * round (with none, 16 non-whitespace characters instead of 2; before supertype hoisting).
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
 * twos (a YAML key and its value: the real-oracle YAML test). With an ANTLR grammar, short lists keep
 * ddmin: a subset finds `87` in `[87]` (the JSON grammar's test), which neither single tries nor
 * neighbouring pairs can. With a built-in language they no longer need it, since `prune+hoist*`
 * hoists across supertypes (json-obj-arr-87 reaches its one token of 15 in the tree phases): with
 * adaptive deletion there too, the shared and new-user cases keep every result, json-extra-comma
 * takes 33 tests instead of 51, and six generated JavaScript programs' token pass 13–14 instead of
 * 26–28 each (bench/results/2026-12-07-adaptive-short).
 */
export const DEFAULT_POLISH_ALGORITHM: Algorithm = "adaptive";

/**
 * The glyph pass's lists, of any length, by adaptive deletion without its neighbouring pairs: one
 * test per character that stays. What is left for it after the token, rename and literal passes is
 * nearly always needed (on the shared cases it now removes nothing), where ddmin's rounds over a
 * short list tried each character two or three times and the pairs once more.
 * Measured (section efficiency, bench/results/2026-11-29-glyph-scan): 713 tests against 767 on
 * the ten shared cases, the same results (hello-world-big-c 117 against 134, mozilla-select-html 31
 * against 42, json-extra-comma 49 against 62). Two characters that only go together (an escape such
 * as `\n`) are not looked for, nor the middle of a word whose two ends are needed (ddminGlyphs).
 */
export const GLYPH_DDMIN: StepDdmin = Object.freeze({ adaptiveAbove: 0, pairs: false });

/** The steps for built-in languages with identifiers, and for those without (see StepCondition). */
const NAMES: StepCondition = { builtInLanguage: true, names: true };
const NO_NAMES: StepCondition = { builtInLanguage: true, names: false };

/** A tree phase of the default pipeline: its levels reduced by DEFAULT_TREE_ALGORITHM. */
function tree(phase: string, reason: string): ScheduleStep {
  return { phase, algorithm: DEFAULT_TREE_ALGORITHM, ddmin: { learnP0: LEARN_TREE_P0 }, reason };
}

/** A polish phase of the default pipeline: DEFAULT_POLISH_ALGORITHM, ddmin's subsets in coarse rounds. */
function polish(phase: string, reason: string, condition?: StepCondition): ScheduleStep {
  return {
    phase,
    algorithm: DEFAULT_POLISH_ALGORITHM,
    ...(condition ? { condition } : {}),
    ddmin: {
      subsetGranularity: SUBSET_GRANULARITY,
      adaptiveAbove: SUBSET_GRANULARITY,
      ddminOnlyWithGrammar: true,
    },
    reason,
  };
}

function frozen(schedule: ScheduleStep[]): Schedule {
  for (const step of schedule) {
    if (step.condition) Object.freeze(step.condition);
    if (step.ddmin) Object.freeze(step.ddmin);
    Object.freeze(step);
  }
  return Object.freeze(schedule);
}

/**
 * The default pipeline with a grammar: the comments and other hidden text first (`hidden`), then long
 * chains of single compatible descendants hoisted at once (`chain`: a test or a few per chain, where
 * HOIST and coarse HDD take one per level; free
 * when there is none, as in most inputs), then on large inputs the largest nodes first (`biggest`,
 * see BIGGEST_MIN_INPUT), then coarse HDD (only the nodes whose replacement is empty —
 * list elements, optional parts — level by level from the root: the cheapest tree pass, which
 * takes most of a large input away before hoisting tries its many candidates), then hoisting, then
 * (built-in languages with identifiers) renaming and literal shrinking, then HDDH to a fixpoint
 * (HOIST*+HDDH* of the hoisting paper, the combination that gave the smallest results there most
 * often; HDDH's hoisting, unlike HOIST's, also within the grammar's supertypes: SUPERTYPE_HOISTING
 * in hdd/phases.ts), then the polish of what the tree phases leave: tokens, the characters
 * of the tokens whose text the grammar does not fix (identifiers, literals, a macro's body, error
 * regions, comments: `glyph`), and runs of whitespace (for a built-in language without identifiers,
 * literal shrinking before `glyph`; see the comments at those steps). The tree phases
 * reduce each level with DEFAULT_TREE_ALGORITHM, the polish with DEFAULT_POLISH_ALGORITHM (adaptive
 * deletion; with an ANTLR grammar, ddmin over short lists: its complements remove what only goes
 * together, as `{"a":[` and `]}` around a value that hoisting cannot reach), ddmin's subsets limited
 * to coarse rounds (SUBSET_GRANULARITY). A ddmin over all characters (`char`) no longer ends it: on the shared
 * cases it removed nothing visible the others leave, at up to a third of the run's tests (README,
 * "The default grammar pipeline"). `biggest` keeps the run's options: it reduces no list.
 */
export const DEFAULT_TREE_SCHEDULE: Schedule = frozen([
  // Comments first: the tree phases keep them (they belong to no node), so each pass after would
  // carry them and the polish would wear them down character by character. Its first test removes
  // them all; with none (most inputs after a fuzzer) it costs nothing. Measured by hand against
  // `hidden` before `rename` or `token` and not at all (bench/results/2026-11-29-hidden-first).
  polish("hidden", "comments and other hidden text, all at once first; free when there is none"),
  tree("chain", "long chains of single compatible descendants hoisted at once; free when there is none"),
  {
    phase: "biggest",
    algorithm: "run",
    condition: { minInputBytes: BIGGEST_MIN_INPUT },
    reason: "the largest nodes first, across levels; below 64 KiB coarse HDD is the cheaper first cut",
  },
  tree("coarse", "coarse HDD, the cheapest tree pass: what has an empty replacement, level by level"),
  tree("hoist*", "hoisting: nodes replaced by compatible descendants, to a fixpoint"),
  // `rename` and `literal` come before `prune+hoist*` (HDDH*) rather than with the polish: HDDH
  // replaces a node by its minimal replacement, and for a name or a number that is a rewrite (`arr` →
  // `a`, `7` → `0`), so an HDDH iteration whose only changes were such rewrites still had to be
  // followed by a whole second iteration to reach its fixpoint, whose every test failed. With the
  // names and literals already short, HDDH's first iteration usually changes nothing of the kind.
  // Measured (bench/results/2026-11-29-rename-first): on the ten shared cases (section efficiency) 669
  // tests against 716 for the same 168 characters (zeller-bug-c 161 against 198); on six generated
  // JavaScript programs with a node oracle at -j 1, 678 tests against 786 (`prune+hoist*` 33 a program
  // against 55), the same 38 characters; on js-yaml-flow-error after 10 minutes at -j 2, 1,756
  // non-whitespace characters against 3,051 (renaming took 2 KB of the 7 KB that hoisting left).
  polish("rename", "identifiers renamed consistently to short names", NAMES),
  polish("literal", "numbers and strings shortened, before HDDH", NAMES),
  tree(
    "prune+hoist*",
    "HDDH to a fixpoint, hoisting also within the grammar's supertypes: the hoisting paper's smallest results most often",
  ),
  polish("token", "the grammar's tokens"),
  // Without names (JSON, YAML, HTML without scripts) nothing is renamed, and literals are most of what the tree
  // phases remove: shrinking each of them first costs a test each (json-obj-arr-87: 7 tests where
  // HDDH then saved 2), so there `literal` keeps its place after the tokens.
  polish("literal", "numbers and strings shortened, after the tokens", NO_NAMES),
  {
    ...polish("glyph", "the characters of the tokens the grammar does not fix, whitespace kept"),
    // Every list by the scan, without pairs: see GLYPH_DDMIN.
    ddmin: GLYPH_DDMIN,
  },
  polish("blank", "runs of whitespace, each down to what must stay"),
]);

/**
 * The phases of the default pipeline with a grammar, in order, those of built-in languages only
 * (rename, literal) left out: see DEFAULT_TREE_SCHEDULE.
 */
export const DEFAULT_TREE_PHASES: readonly string[] = Object.freeze(
  DEFAULT_TREE_SCHEDULE.filter(
    (step) => !(step.condition !== undefined && "builtInLanguage" in step.condition),
  ).map((step) => step.phase),
);

/** The default pipeline without a grammar: ddmin over the atoms of `--atom`, lines first for "both". */
export function atomSchedule(mode: AtomMode): Schedule {
  return frozen(
    atomPasses(mode).map((kind) => ({
      phase: kind,
      algorithm: "run",
      reason:
        kind === "line"
          ? "lines first: they bring a file to a size where characters are cheap"
          : mode === "both"
            ? "the characters of the line-minimal result"
            : "characters (--atom char)",
    })),
  );
}

/** `schedule` as a run makes it: with `--algorithm` given, every step takes the run's options. */
export function forRun(schedule: Schedule, algorithmGiven: boolean): Schedule {
  if (!algorithmGiven) return schedule;
  return frozen(
    schedule.map(({ phase, condition, reason }) => ({
      phase,
      algorithm: "run",
      ...(condition ? { condition } : {}),
      reason,
    })),
  );
}

/** What a schedule is compiled for: whether the grammar is a built-in language's, with identifiers or not. */
export interface ScheduleFacts {
  readonly builtInLanguage: boolean;
  /**
   * The input has identifiers: its built-in language has identifier kinds, and where its only names
   * are its islands' (HTML's scripts), the input's tree holds one (LexicalFrontEnd.hasNames).
   */
  readonly names: boolean;
}

/** Whether `condition`'s language part holds for `facts` (a size condition is decided later). */
function languageHolds(condition: StepCondition | undefined, facts: ScheduleFacts): boolean {
  if (condition === undefined || !("builtInLanguage" in condition)) return true;
  return facts.builtInLanguage && (condition.names === undefined || condition.names === facts.names);
}

/** A step of a compiled schedule and its pass; no pass when its condition leaves it out of the run. */
export interface CompiledStep {
  readonly step: ScheduleStep;
  readonly pass: Pass | undefined;
}

/**
 * The passes of `schedule`: `build` makes each step's pass, which then runs with the step's own
 * algorithm and ddmin settings (or the run's options as they are), and only while its condition
 * holds. A step for built-in languages only gets no pass otherwise (and is not built).
 */
export function compileSchedule(
  schedule: Schedule,
  build: (phase: string) => Pass,
  facts: ScheduleFacts,
): CompiledStep[] {
  return schedule.map((step) => ({
    step,
    pass: languageHolds(step.condition, facts) ? scheduled(step, build(step.phase), facts) : undefined,
  }));
}

/** `pass` with its step's options and size condition; the pass itself when the step has neither. */
function scheduled(step: ScheduleStep, pass: Pass, facts: ScheduleFacts): Pass {
  const minBytes =
    step.condition && "minInputBytes" in step.condition ? step.condition.minInputBytes : undefined;
  const own = step.algorithm === "run" ? undefined : { ...stepDdmin(step, facts), algorithm: step.algorithm };
  if (minBytes === undefined && own === undefined) return pass;
  return {
    name: pass.name,
    run: (context) => {
      // Decided on the input the step starts from: earlier steps may have taken it under the limit.
      if (minBytes !== undefined && context.current.length < minBytes)
        return Promise.resolve({ kind: "done" });
      if (own === undefined) return pass.run(context);
      // Not an option of the command or the library: the step's own, over the run's.
      const options: PassContext["options"] & DdminOptions = { ...context.options, ...own };
      return pass.run({ ...context, options });
    },
  };
}

/** A step's ddmin settings for a run with these facts (StepDdmin.ddminOnlyWithGrammar). */
function stepDdmin(step: ScheduleStep, facts: ScheduleFacts): StepDdmin | undefined {
  const d = step.ddmin;
  if (d?.ddminOnlyWithGrammar !== true || !facts.builtInLanguage) return d;
  const { subsetGranularity: _s, adaptiveAbove: _a, ddminOnlyWithGrammar: _g, ...rest } = d;
  return rest;
}

/** A size in words: "64 KiB" for whole KiB, else bytes. */
function sizeText(bytes: number): string {
  return bytes >= 1024 && bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} B`;
}

/** When a step runs, in words: "inputs ≥ 64 KiB", "built-in languages", "built-in languages, inputs with names". */
export function conditionText(condition: StepCondition): string {
  if ("minInputBytes" in condition) return `inputs ≥ ${sizeText(condition.minInputBytes)}`;
  if (condition.names === undefined) return "built-in languages";
  return condition.names
    ? "built-in languages, inputs with names"
    : "built-in languages, inputs without names";
}

/**
 * Why a step is skipped on a run whose input has `inputBytes` bytes, known before the run starts
 * ("input under 64 KiB"); undefined when it will run, or when only the input it starts from will
 * tell (a larger input that earlier steps may take under the limit).
 */
export function skippedBecause(
  step: ScheduleStep,
  facts: ScheduleFacts & { readonly inputBytes: number },
): string | undefined {
  const c = step.condition;
  if (c === undefined) return undefined;
  if ("minInputBytes" in c)
    return facts.inputBytes < c.minInputBytes ? `input under ${sizeText(c.minInputBytes)}` : undefined;
  if (!facts.builtInLanguage) return "not a built-in language";
  if (c.names === undefined || c.names === facts.names) return undefined;
  return c.names ? "no identifiers in this input" : "this input has identifiers: it ran before prune+hoist*";
}

/** A step's own list algorithm in words ("probdd", "adaptive, no pairs"); undefined for "run". */
export function algorithmText(step: ScheduleStep): string | undefined {
  if (step.algorithm === "run") return undefined;
  const d = step.ddmin;
  const parts = [
    step.algorithm === "adaptive" && d?.adaptiveAbove !== undefined && d.adaptiveAbove > 0
      ? d.ddminOnlyWithGrammar === true
        ? `adaptive; with --grammar, ddmin for ${d.adaptiveAbove} units or fewer, its subsets in rounds of ≤ ${d.subsetGranularity ?? d.adaptiveAbove} parts`
        : `adaptive above ${d.adaptiveAbove} units, ddmin below`
      : step.algorithm === "adaptive" && d?.pairs === false
        ? "adaptive, no pairs"
        : step.algorithm === "probdd" && d?.learnP0 === true
          ? "probdd, p0 learned per pass"
          : step.algorithm,
  ];
  if (d?.subsetGranularity !== undefined && d.ddminOnlyWithGrammar !== true)
    parts.push(`ddmin's subsets in rounds of ≤ ${d.subsetGranularity} parts`);
  return parts.join("; ");
}

/**
 * `schedule` in words: its phases in order, a condition after the steps it applies to, and each run
 * of steps with the same own algorithm followed by it in brackets, e.g. `chain [probdd] → biggest
 * (inputs ≥ 64 KiB) → coarse → hoist* [probdd] → rename, literal (built-in languages) [adaptive
 * above 16 units, ddmin below; …] → …`. Steps with the run's algorithm have no brackets.
 */
export function describeSchedule(schedule: Schedule): string {
  const text: string[] = [];
  for (let i = 0; i < schedule.length; i++) {
    const step = schedule[i]!;
    const next = schedule[i + 1];
    const algorithm = algorithmText(step);
    const sameAlgorithm = next !== undefined && algorithmText(next) === algorithm;
    const condition = step.condition === undefined ? undefined : conditionText(step.condition);
    // Neighbours with one condition and one algorithm are named together, the condition once.
    const grouped =
      condition !== undefined &&
      sameAlgorithm &&
      next.condition !== undefined &&
      conditionText(next.condition) === condition;
    let piece = step.phase;
    if (grouped) piece += ",";
    else if (condition !== undefined) piece += ` (${condition})`;
    if (algorithm !== undefined && !sameAlgorithm) piece += ` [${algorithm}]`;
    text.push(piece, grouped ? " " : i + 1 < schedule.length ? " → " : "");
  }
  return text.join("");
}
