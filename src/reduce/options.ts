import { ATOM_MODES, type AtomMode } from "../atoms/atoms.js";
import { CACHE_KINDS, type CacheKind } from "../cache/index.js";
import type { DdminOptions } from "../ddmin/ddmin.js";
import { ORDERS, STRATEGIES, type Order, type Strategy } from "../ddmin/order.js";
import { InvalidOptionError } from "../errors.js";
import { availableParallelism } from "node:os";

/** What a library user may set; every field is optional and documented with its default. */
export interface ReduceOptions {
  /** Atoms to remove: "line", "char", or "both" (lines, then characters). Default "both". */
  atom?: AtomMode;
  /** Split factor ν: an integer ≥ 2, or Infinity / "inf" (start at single atoms). Default 2. */
  splitFactor?: number | "inf";
  /** Order of the reduce cases. Default "complements-first". */
  strategy?: Strategy;
  /** Order of the subset scan. Default "forward". */
  subsetOrder?: Order;
  /** Order of the complement scan. Default "forward". */
  complementOrder?: Order;
  /** DD*: repeat ddmin until a run removes nothing. Default true. */
  ddStar?: boolean;
  /** Tests under way at once. Default: the machine's available parallelism. */
  jobs?: number;
  /** With jobs > 1, test subsets and complements in one parallel round ("combined"). Default true. */
  combine?: boolean;
  /** Commit the first interesting candidate to finish instead of the sequential choice. Default false. */
  firstWins?: boolean;
  /** Outcome cache kind. Default "content-hash". */
  cache?: CacheKind;
  /** Cache interesting outcomes too (off by default: ddmin never asks for them again). */
  cacheFail?: boolean;
  /** Evict cache entries larger than each new interesting candidate. Default true. */
  cacheEvict?: boolean;
}

export interface ResolvedOptions extends DdminOptions {
  readonly atom: AtomMode;
  readonly cache: CacheKind;
  readonly cacheFail: boolean;
  readonly cacheEvict: boolean;
}

/** Defaults, chosen from the benchmark figures (see the README's section on defaults). */
export const DEFAULTS: Omit<ResolvedOptions, "jobs"> = {
  atom: "both",
  splitFactor: 2,
  strategy: "complements-first",
  subsetOrder: "forward",
  complementOrder: "forward",
  ddStar: true,
  combine: true,
  firstWins: false,
  cache: "content-hash",
  cacheFail: false,
  cacheEvict: true,
};

function oneOf<T extends string>(
  option: string,
  value: T | undefined,
  choices: readonly T[],
  fallback: T,
): T {
  if (value === undefined) return fallback;
  if (!choices.includes(value)) {
    throw new InvalidOptionError(
      option,
      `expected one of ${choices.join(", ")}, got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

function flag(option: string, value: boolean | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== "boolean") throw new InvalidOptionError(option, `expected true or false`);
  return value;
}

export function parseSplitFactor(value: number | string): number {
  if (value === "inf" || value === "infinity" || value === Infinity) return Infinity;
  const n = typeof value === "number" ? value : Number(value);
  if (!Number.isInteger(n) || n < 2) {
    throw new InvalidOptionError(
      "splitFactor",
      `expected an integer ≥ 2 or "inf", got ${JSON.stringify(value)}`,
    );
  }
  return n;
}

/** Fills in defaults and rejects invalid values at once, naming the option. */
export function resolveOptions(options: ReduceOptions = {}): ResolvedOptions {
  const jobs = options.jobs ?? availableParallelism();
  if (!Number.isInteger(jobs) || jobs < 1) {
    throw new InvalidOptionError("jobs", `expected a whole number ≥ 1, got ${JSON.stringify(options.jobs)}`);
  }
  return {
    atom: oneOf("atom", options.atom, ATOM_MODES, DEFAULTS.atom),
    splitFactor:
      options.splitFactor === undefined ? DEFAULTS.splitFactor : parseSplitFactor(options.splitFactor),
    strategy: oneOf("strategy", options.strategy, STRATEGIES, DEFAULTS.strategy),
    subsetOrder: oneOf("subsetOrder", options.subsetOrder, ORDERS, DEFAULTS.subsetOrder),
    complementOrder: oneOf("complementOrder", options.complementOrder, ORDERS, DEFAULTS.complementOrder),
    ddStar: flag("ddStar", options.ddStar, DEFAULTS.ddStar),
    jobs,
    combine: flag("combine", options.combine, DEFAULTS.combine),
    firstWins: flag("firstWins", options.firstWins, DEFAULTS.firstWins),
    cache: oneOf("cache", options.cache, CACHE_KINDS, DEFAULTS.cache),
    cacheFail: flag("cacheFail", options.cacheFail, DEFAULTS.cacheFail),
    cacheEvict: flag("cacheEvict", options.cacheEvict, DEFAULTS.cacheEvict),
  };
}
