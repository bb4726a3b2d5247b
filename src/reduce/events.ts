import type { AtomKind } from "../atoms/atoms.js";
import type { CacheStats } from "../cache/index.js";
import type { DdminEvent, TestLabel } from "../ddmin/ddmin.js";
import type { Outcome } from "../outcome.js";

/**
 * Everything that happens during a reduction, as data. The CLI's status line, the statistics file
 * and the benchmarks all read these; nothing parses log text. Sizes are in bytes unless named
 * `atoms`. The core has no clock: listeners timestamp events themselves.
 */
export type ReductionEvent =
  | DdminEvent
  | {
      readonly type: "pass";
      readonly pass: number;
      readonly atom: AtomKind;
      readonly atoms: number;
      readonly size: number;
    }
  | { readonly type: "test-start"; readonly id: number; readonly label: TestLabel; readonly size: number }
  | {
      readonly type: "test-end";
      readonly id: number;
      readonly label: TestLabel;
      readonly size: number;
      /**
       * "cancelled" when the round was decided (or the run stopped) before the test finished;
       * "error" when the oracle threw (the reduction then fails).
       */
      readonly outcome: Outcome | "cancelled" | "error";
    }
  /** A check made before the reduction, counted apart from its tests: the original, then empty. */
  | {
      readonly type: "check";
      readonly what: "original" | "empty";
      readonly size: number;
      readonly outcome: Outcome;
    }
  | {
      readonly type: "cache-hit";
      readonly label: TestLabel;
      readonly size: number;
      readonly outcome: Outcome;
    }
  | { readonly type: "improved"; readonly size: number; readonly content: Uint8Array }
  /** At the end of each atom pass: the counters of that pass's cache. */
  | { readonly type: "cache-stats"; readonly stats: CacheStats };

export type EventListener = (event: ReductionEvent) => void;
