/**
 * whittle/engine: the building blocks under `reduce()`, for callers who drive the algorithms
 * themselves — ddmin^ν over configurations, its parts and orders, the outcome caches, the atom
 * splitters, and option resolution. The root module (`whittle`) is what most users need.
 */
export {
  ddmin,
  type DdminOptions,
  type DdminHooks,
  type DdminResult,
  type DdminEvent,
  type TestLabel,
} from "./ddmin/ddmin.js";
export { split, nextGranularity, type SplitFactor } from "./ddmin/partition.js";
export {
  roundLoops,
  STRATEGIES,
  ORDERS,
  type Strategy,
  type Order,
  type CandidateRef,
} from "./ddmin/order.js";
export { findInteresting, type RoundRunOptions, type EvaluateCandidate } from "./ddmin/round.js";
export { fullConfiguration, concatParts, type Configuration } from "./ddmin/configuration.js";
export {
  createCache,
  CACHES,
  CACHE_KINDS,
  type CacheKind,
  type CacheKey,
  type CacheOptions,
  type CacheStats,
  type OutcomeCache,
} from "./cache/index.js";
export { splitAtoms, splitLines, splitChars, joinAtoms, atomPasses, ATOM_MODES } from "./atoms/atoms.js";
export type { AtomKind, AtomMode } from "./atoms/atoms.js";
export { resolveOptions, type ResolvedOptions } from "./reduce/options.js";
export { StatsCollector } from "./reduce/stats.js";
