import { availableParallelism } from "node:os";
import { ATOM_MODES } from "../atoms/atoms.js";
import { CACHE_KINDS } from "../cache/index.js";
import { ALGORITHMS } from "../ddmin/minimize.js";
import { ORDERS, STRATEGIES } from "../ddmin/order.js";
import type { SplitFactor } from "../ddmin/partition.js";
import { InvalidOptionError } from "../errors.js";
import type { SyntaxFilterSetting } from "./syntax-filter.js";
import { QUICK_TEST_MS } from "./default-jobs.js";
import { ComputedDefault, oneOf, onOff, option, wholeNumber, type AnyOptionSpec } from "./option-spec.js";

/**
 * The options of the reduction, each declared once: what it accepts, its default, and its flags and
 * help on the command line (see OptionSpec). Everything else is derived from this table: the types
 * ReduceOptions and ResolvedOptions (the comment on each entry documents its field), DEFAULTS,
 * resolveOptions(), the command line's flags, their help and defaults (cli/reduce-flags.ts), and
 * the options that --stats records. Defaults were chosen from the benchmark figures (see the
 * README's section on defaults). Every option here is both the library's and the command line's;
 * options that only the command line has (files, the test, --timeout) are in cli/args.ts. A new
 * option is one more entry; test/cli/options.test.ts checks that the command line has it.
 */
export const REDUCE_OPTIONS = {
  /** Atoms to remove: "line", "char", or "both" (lines, then characters). */
  atom: oneOf(ATOM_MODES, {
    default: "both",
    cli: { "--atom <kind>": "what to remove: lines, characters, or lines then characters" },
  }),
  /** Split factor ν: an integer ≥ 2, or Infinity / "inf" (start at single atoms). */
  splitFactor: option<number | "inf", SplitFactor>({
    default: 2,
    expected: 'a whole number ≥ 2 or "inf"',
    check: splitFactorOf,
    show: (nu) => (nu === Infinity ? "inf" : nu),
    cli: { "--split-factor <n>": "split factor ν (≥ 2, or inf)" },
  }),
  /**
   * What reduces each list of units (the atoms of a pass, the tokens, the nodes of one tree level):
   * "ddmin", "probdd" (probabilistic delta debugging, Wang et al. 2021: one test at a time; of
   * the ddmin options below only ddStar applies to it), or "adaptive" (each unit alone, left to
   * right, growing runs that can go: ddmin/adaptive.ts; ddStar, jobs and firstWins apply).
   */
  algorithm: oneOf(ALGORITHMS, {
    default: "ddmin",
    cli: {
      "--algorithm <name>":
        "what reduces each list of units: ddmin, probdd, or adaptive (each unit alone, runs grown)",
    },
  }),
  /** Order of the reduce cases. */
  strategy: oneOf(STRATEGIES, {
    default: "complements-first",
    cli: { "--strategy <s>": "order of the reduce cases" },
  }),
  /** Order of the subset scan. */
  subsetOrder: oneOf(ORDERS, {
    default: "forward",
    cli: { "--subset-order <o>": "scan order of subsets" },
  }),
  /** Order of the complement scan. */
  complementOrder: oneOf(ORDERS, {
    default: "forward",
    cli: { "--complement-order <o>": "scan order of complements" },
  }),
  /** DD*: repeat ddmin until a run removes nothing. */
  ddStar: onOff({
    default: true,
    cli: {
      "--dd-star": "repeat ddmin until it removes nothing (DD*)",
      "--no-dd-star": "run ddmin once",
    },
  }),
  /**
   * Tests under way at once. Default: the machine's available parallelism; the command makes it 1
   * for a test that takes under QUICK_TEST_MS (default-jobs.ts).
   */
  jobs: wholeNumber(1, {
    default: new ComputedDefault(
      "available parallelism",
      () => availableParallelism(),
      `available parallelism; 1 for a test under ${QUICK_TEST_MS} ms`,
    ),
    cli: { "-j, --jobs <n>": "tests run at once" },
  }),
  /**
   * With jobs > 1 and first-wins, test subsets and complements in one parallel round ("combined").
   * Deterministic runs follow the one-job scan (speculative-ddmin.ts), where it changes nothing.
   */
  combine: onOff({
    default: true,
    cli: {
      "--combine": "with --first-wins: test subsets and complements in one parallel round",
      "--no-combine": "with --first-wins: run the subset and the complement loops one after the other",
    },
  }),
  /** Commit the first interesting candidate to finish instead of the sequential choice. */
  firstWins: onOff({
    default: false,
    cli: { "--first-wins": "take the first interesting candidate to finish (faster, not deterministic)" },
  }),
  /** Outcome cache kind. */
  cache: oneOf(CACHE_KINDS, {
    default: "content-hash",
    cli: { "--cache <kind>": "outcome cache" },
  }),
  /** Cache interesting outcomes too (off by default: ddmin never asks for them again). */
  cacheFail: onOff({
    default: false,
    cli: { "--cache-fail": "also cache interesting outcomes" },
  }),
  /** Evict cache entries larger than each new interesting candidate. */
  cacheEvict: onOff({
    default: true,
    cli: { "--no-cache-evict": "keep cache entries larger than the current result" },
  }),
  /**
   * The syntax filter of grammar-aware runs (reduce/syntax-filter.ts): a candidate with more syntax
   * errors than the best so far is not interesting, without a test. "auto": every candidate when
   * re-parsing is cheap (the built-in tree-sitter languages), with an ANTLR grammar those whose check
   * is expected to save more time than it costs (syntax-filter.ts); true: every candidate with any
   * grammar; false: off, for bugs that need broken syntax. Without a grammar (`syntax`), nothing is filtered.
   */
  syntaxFilter: option<SyntaxFilterSetting>({
    default: "auto",
    expected: 'true, false or "auto"',
    check: (value) => (value === true || value === false || value === "auto" ? value : undefined),
    show: (value) => value,
    cli: {
      "--syntax-filter":
        "skip the test of candidates with more syntax errors than the best so far, checking every candidate (default: with --language, every one while a check costs under 1 ms or less than the tests it saves, and those a test finds interesting; only the polish's pair guesses when the original has syntax errors, until the test has rejected 8 candidates with new ones; with an ANTLR grammar, while a check saves more than it costs)",
      "--no-syntax-filter": "test every candidate, also those with new syntax errors",
    },
  }),
};

type Table = typeof REDUCE_OPTIONS;
export type OptionName = keyof Table;

/**
 * What a library user may set: every field is optional, with its default in DEFAULTS (jobs: computed).
 * A field's type is what its entry's check accepts; resolved, what the check returns.
 */
export type ReduceOptions = { [K in keyof Table]?: Parameters<Table[K]["check"]>[0] };

/** The options as the reduction uses them: every one set, and checked. */
export type ResolvedOptions = { readonly [K in keyof Table]: NonNullable<ReturnType<Table[K]["check"]>> };

/** The options whose default is a value (not computed when the options are resolved). */
type Defaults = {
  readonly [
    K in keyof Table as Table[K]["default"] extends ComputedDefault<unknown> ? never : K
  ]: ResolvedOptions[K];
};

/** The table's entries in its order, for code that handles every option alike. */
export const OPTION_LIST = Object.entries(REDUCE_OPTIONS) as [OptionName, AnyOptionSpec][];

/** The defaults of the options, but those computed when the options are resolved (jobs). */
export const DEFAULTS = Object.fromEntries(
  OPTION_LIST.flatMap(([name, spec]) =>
    spec.default instanceof ComputedDefault ? [] : [[name, spec.default]],
  ),
) as Defaults;

/** Fills in defaults and rejects invalid values at once, naming the option. */
export function resolveOptions(options: ReduceOptions = {}): ResolvedOptions {
  const resolved = OPTION_LIST.map(([name, spec]) => [name, resolveOne(name, spec, options[name])]);
  return Object.fromEntries(resolved) as ResolvedOptions;
}

/**
 * One option's value: its default when not given, or the value given, checked. A default computed
 * at resolution may also be asked for with null, as --stats records it.
 */
function resolveOne(name: OptionName, spec: AnyOptionSpec, given: unknown): unknown {
  const computed = spec.default instanceof ComputedDefault ? spec.default : undefined;
  if (given === undefined || (given === null && computed)) {
    return computed ? computed.compute() : spec.default;
  }
  const value = spec.check(given);
  if (value === undefined) {
    const shown = typeof given === "number" ? String(given) : JSON.stringify(given);
    throw new InvalidOptionError(name, `expected ${spec.expected}, got ${shown}`);
  }
  return value;
}

/** ν from "inf", "infinity", Infinity, or a whole number ≥ 2 (also as text, as the command line gives it). */
function splitFactorOf(value: unknown): SplitFactor | undefined {
  if (value === "inf" || value === "infinity" || value === Infinity) return Infinity;
  const n = typeof value === "number" ? value : typeof value === "string" ? Number(value) : NaN;
  return Number.isInteger(n) && n >= 2 ? n : undefined;
}
