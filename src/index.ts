/**
 * whittle: a test-case reducer. The public API: `reduce()` with its options, results and events,
 * the oracle types with `commandOracle()` for external tests, errors and outcomes. The algorithms'
 * building blocks are in `whittle-reduce/engine`.
 */
export { reduce, type ReduceResult, type ReduceRunOptions } from "./reduce/reduce.js";
export { DEFAULTS, type ReduceOptions } from "./reduce/options.js";
export type { Oracle } from "./reduce/evaluator.js";
export type { SyntaxCheck, SyntaxFilterSetting } from "./reduce/syntax-filter.js";
export type { ReductionEvent, EventListener } from "./reduce/events.js";
/** The lines of the command's --events file: the same events, with the command's own (docs/events.md). */
export type { EventRecord, RecordedReductionEvent, RunEvent, RunOutcome } from "./cli/events-file.js";
export type { BuiltInLanguage } from "./grammar/tree-sitter/languages.js";
export type { ReductionStats } from "./reduce/stats.js";
export type { AtomMode } from "./atoms/atoms.js";
export type { Strategy, Order } from "./ddmin/order.js";
export type { CacheKind } from "./cache/index.js";
export {
  commandOracle,
  type CommandOracleOptions,
  type CommandRun,
  type RunnableOracle,
} from "./oracle/index.js";
export { type Outcome, OUTCOMES, isInteresting } from "./outcome.js";
export {
  WhittleError,
  NotInterestingError,
  InvalidOptionError,
  OutOfMemoryError,
  type WhittleErrorCode,
} from "./errors.js";
