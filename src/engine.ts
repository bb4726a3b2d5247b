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
export { split, nextGranularity, Partition, type SplitFactor } from "./ddmin/partition.js";
export {
  roundLoops,
  STRATEGIES,
  ORDERS,
  type Strategy,
  type Order,
  type CandidateRef,
} from "./ddmin/order.js";
export { findInteresting, type RoundRunOptions, type EvaluateCandidate } from "./ddmin/round.js";
export { Configuration } from "./ddmin/configuration.js";
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
export {
  Atoms,
  splitAtoms,
  splitLines,
  splitChars,
  joinAtoms,
  isValidUtf8,
  atomPasses,
  ATOM_MODES,
} from "./atoms/atoms.js";
export type { AtomKind, AtomMode } from "./atoms/atoms.js";
export { resolveOptions, type ResolvedOptions } from "./reduce/options.js";
export { estimateMemory, type MemoryBudget } from "./reduce/memory.js";
export { StatsCollector } from "./reduce/stats.js";
