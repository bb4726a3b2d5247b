import type { CacheKind, CacheStats } from "../cache/index.js";
import type { ReductionEvent } from "./events.js";

/** Counts of one reduction, under the papers' counting rule: the initial check is not a test. */
export interface ReductionStats {
  /** Oracle executions during the reduction (cancelled ones included). */
  tests: number;
  cacheHits: number;
  /**
   * Candidates not tested because of new syntax errors (the syntax filter): first visits only, a
   * candidate seen again is a cache hit.
   */
  syntaxSkips: number;
  /** ddmin rounds ("iterations" in Table 3 of the practical-improvements paper), over all passes. */
  iterations: number;
  timeouts: number;
  /** Tests killed by a signal (not cached, like timeouts). */
  killed: number;
  /** Checks before the reduction (the original, the empty input), not counted as tests. */
  checks: number;
  /** Tests stopped because their round was decided without them. */
  cancelled: number;
  interesting: number;
  inputBytes: number;
  outputBytes: number;
  cache: { kind: CacheKind; lookups: number; peakEntries: number; peakBytes: number };
  /** Per pass, by name: its tests, cache hits, syntax skips, improvements and the bytes they removed. */
  passes: Record<string, PassStats>;
}

export interface PassStats {
  tests: number;
  cacheHits: number;
  syntaxSkips: number;
  improvements: number;
  bytesRemoved: number;
}

/** Folds events into statistics; one instance per reduction. */
export class StatsCollector {
  readonly stats: ReductionStats;

  constructor(cache: CacheKind, inputBytes: number) {
    this.stats = {
      tests: 0,
      cacheHits: 0,
      syntaxSkips: 0,
      iterations: 0,
      timeouts: 0,
      killed: 0,
      checks: 0,
      cancelled: 0,
      interesting: 0,
      inputBytes,
      outputBytes: inputBytes,
      cache: { kind: cache, lookups: 0, peakEntries: 0, peakBytes: 0 },
      passes: {},
    };
  }

  private pass(name: string): PassStats {
    return (this.stats.passes[name] ??= {
      tests: 0,
      cacheHits: 0,
      syntaxSkips: 0,
      improvements: 0,
      bytesRemoved: 0,
    });
  }

  readonly listener = (event: ReductionEvent): void => {
    const s = this.stats;
    switch (event.type) {
      case "test-start":
        s.tests++;
        this.pass(event.pass).tests++;
        break;
      case "test-end":
        if (event.outcome === "timeout") s.timeouts++;
        else if (event.outcome === "killed") s.killed++;
        else if (event.outcome === "cancelled") s.cancelled++;
        else if (event.outcome === "interesting") s.interesting++;
        break;
      case "check":
        s.checks++;
        break;
      case "cache-hit":
        s.cacheHits++;
        this.pass(event.pass).cacheHits++;
        break;
      case "syntax-skip":
        s.syntaxSkips++;
        this.pass(event.pass).syntaxSkips++;
        break;
      case "round":
        s.iterations++;
        break;
      case "improved": {
        const pass = this.pass(event.pass);
        pass.improvements++;
        pass.bytesRemoved += s.outputBytes - event.size;
        s.outputBytes = event.size;
        break;
      }
      case "cache-stats":
        this.cacheStats(event.stats);
        break;
    }
  };

  /** One per cache (a shared one, or one per pass): lookups add up, peaks are the largest. */
  private cacheStats(c: CacheStats): void {
    this.stats.cache.lookups += c.lookups;
    this.stats.cache.peakEntries = Math.max(this.stats.cache.peakEntries, c.peakEntries);
    this.stats.cache.peakBytes = Math.max(this.stats.cache.peakBytes, c.peakBytes);
  }
}
