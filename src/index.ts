/**
 * whittle: a test-case reducer. The public API.
 */
export { reduce, type ReduceResult, type ReduceRunOptions } from "./reduce/reduce.js";
export { DEFAULTS, resolveOptions, type ReduceOptions, type ResolvedOptions } from "./reduce/options.js";
export type { Oracle } from "./reduce/problem.js";
export type { ReductionEvent, EventListener } from "./reduce/events.js";
export { StatsCollector, type ReductionStats } from "./reduce/stats.js";
export {
  ddmin,
  type DdminOptions,
  type DdminHooks,
  type DdminResult,
  type DdminEvent,
  type TestLabel,
} from "./ddmin/ddmin.js";
export { split, nextGranularity, Partition } from "./ddmin/partition.js";
export {
  roundLoops,
  roundLoopOrder,
  STRATEGIES,
  ORDERS,
  type Strategy,
  type Order,
  type CandidateRef,
  type Loop,
} from "./ddmin/order.js";
export { findInteresting } from "./ddmin/round.js";
export { Configuration } from "./ddmin/configuration.js";
export {
  createCache,
  CACHES,
  CACHE_KINDS,
  type CacheKind,
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
export { type Outcome, OUTCOMES, isInteresting } from "./outcome.js";
export {
  WhittleError,
  NotInterestingError,
  InvalidOptionError,
  OutOfMemoryError,
  type WhittleErrorCode,
} from "./errors.js";
export { estimateMemory, type MemoryBudget } from "./reduce/memory.js";
