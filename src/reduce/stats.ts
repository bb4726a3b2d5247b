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
  /**
   * Candidates not tested because they remove all that a timed-out candidate of the same search
   * removed (taken for timeouts; passes/pass.ts).
   */
  timeoutSkips: number;
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
  timeoutSkips: number;
  improvements: number;
  bytesRemoved: number;
  /** Wall time from the pass's start to the last event it made, in ms. */
  ms: number;
  /** Its tests that timed out, and their time from start to end, in ms. */
  timeouts: number;
  timeoutMs: number;
}

/** Folds events into statistics; one instance per reduction. */
export class StatsCollector {
  readonly stats: ReductionStats;

  /** `now` (ms) timestamps the events: the core has no clock, its listeners do. */
  constructor(
    cache: CacheKind,
    inputBytes: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.stats = {
      tests: 0,
      cacheHits: 0,
      syntaxSkips: 0,
      timeoutSkips: 0,
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
      timeoutSkips: 0,
      improvements: 0,
      bytesRemoved: 0,
      ms: 0,
      timeouts: 0,
      timeoutMs: 0,
    });
  }

  /** The pass under way and when it started; when each running test started. */
  private current: { name: string; startedAt: number; before: number } | undefined;
  private readonly testStarts = new Map<number, number>();

  readonly listener = (event: ReductionEvent): void => {
    const s = this.stats;
    const at = this.now();
    if (event.type === "pass")
      this.current = { name: event.pass, startedAt: at, before: this.pass(event.pass).ms };
    // A pass's time runs to its last event (the events name their pass; checks name none), added up
    // when a pipeline runs the same pass twice.
    const current = this.current;
    if (current !== undefined && "pass" in event && event.pass === current.name)
      this.pass(event.pass).ms = current.before + (at - current.startedAt);
    switch (event.type) {
      case "test-start":
        s.tests++;
        this.pass(event.pass).tests++;
        this.testStarts.set(event.id, at);
        break;
      case "test-end":
        this.testEnded(event.pass, event.id, event.outcome === "timeout", at);
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
      case "timeout-skip":
        s.timeoutSkips++;
        this.pass(event.pass).timeoutSkips++;
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

  /** A test's end: a timed-out one counts in its pass's timeouts, with its time. */
  private testEnded(pass: string, id: number, timedOut: boolean, at: number): void {
    const started = this.testStarts.get(id);
    this.testStarts.delete(id);
    if (!timedOut) return;
    const stats = this.pass(pass);
    stats.timeouts++;
    stats.timeoutMs += started === undefined ? 0 : at - started;
  }

  /** One per cache (a shared one, or one per pass): lookups add up, peaks are the largest. */
  private cacheStats(c: CacheStats): void {
    this.stats.cache.lookups += c.lookups;
    this.stats.cache.peakEntries = Math.max(this.stats.cache.peakEntries, c.peakEntries);
    this.stats.cache.peakBytes = Math.max(this.stats.cache.peakBytes, c.peakBytes);
  }
}
