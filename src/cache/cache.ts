import type { Configuration } from "../ddmin/configuration.js";
import type { Outcome } from "../outcome.js";

/**
 * Outcome caches (Hodován, Kiss & Gyimóthy; Vince et al., "Cache optimizations for test case
 * reduction"). A cache sits in front of the oracle: a candidate whose outcome is known is not tested
 * again. Every kind takes the same three switches; the safety argument for each is below.
 */
export type CacheKind = "none" | "config" | "content" | "content-hash";
export const CACHE_KINDS: readonly CacheKind[] = ["none", "config", "content", "content-hash"];

export interface CacheOptions {
  /**
   * Also store interesting outcomes (default false: Proposal 1, eq. (2) of the cache paper). Safe to
   * leave off for ddmin: once a candidate is interesting, ddmin only tests its sub-configurations, so
   * no interesting entry would ever be looked up again.
   */
  readonly cacheFail: boolean;
  /**
   * When a new interesting configuration is committed, drop entries larger than it (Proposal 2,
   * eq. (3)): every later candidate is a subset of it, so larger entries can never be hit again.
   */
  readonly evict: boolean;
}

/** The candidate as a cache sees it: its configuration, and its bytes made on demand (and memoized). */
export interface CacheKey {
  readonly config: Configuration;
  content(): Uint8Array;
}

export interface CacheStats {
  readonly lookups: number;
  readonly hits: number;
  readonly entries: number;
  readonly peakEntries: number;
  /** An estimate of the bytes the cache holds: keys plus a per-entry overhead (see each kind). */
  readonly bytes: number;
  readonly peakBytes: number;
}

export interface OutcomeCache {
  readonly kind: CacheKind;
  lookup(key: CacheKey): Outcome | undefined;
  /** The outcome `lookup` would give, without counting a lookup (for preparing candidates ahead). */
  peek(key: CacheKey): Outcome | undefined;
  add(key: CacheKey, outcome: Outcome): void;
  /** A new interesting candidate was committed (used for eviction). */
  reduced(key: CacheKey): void;
  stats(): CacheStats;
}

/**
 * Timeouts and tests killed by a signal are never cached (a later attempt might finish or survive);
 * interesting outcomes only with cacheFail.
 */
export function isCacheable(outcome: Outcome, options: CacheOptions): boolean {
  if (outcome === "timeout" || outcome === "killed") return false;
  if (outcome === "interesting") return options.cacheFail;
  return true;
}

/** Shared bookkeeping of counters and peaks; each kind reports its entry and byte changes. */
export class CacheCounters {
  lookups = 0;
  hits = 0;
  entries = 0;
  peakEntries = 0;
  bytes = 0;
  peakBytes = 0;

  grow(entries: number, bytes: number): void {
    this.entries += entries;
    this.bytes += bytes;
    if (this.entries > this.peakEntries) this.peakEntries = this.entries;
    if (this.bytes > this.peakBytes) this.peakBytes = this.bytes;
  }

  lookedUp(hit: boolean): void {
    this.lookups++;
    if (hit) this.hits++;
  }

  snapshot(): CacheStats {
    const { lookups, hits, entries, peakEntries, bytes, peakBytes } = this;
    return { lookups, hits, entries, peakEntries, bytes, peakBytes };
  }
}

/**
 * Derives a string key from a candidate's bytes once per candidate (a lookup and the add after the
 * test share it).
 */
export function memoKey(derive: (bytes: Uint8Array) => string): (key: CacheKey) => string {
  const memo = new WeakMap<CacheKey, string>();
  return (key) => {
    let k = memo.get(key);
    if (k === undefined) {
      k = derive(key.content());
      memo.set(key, k);
    }
    return k;
  };
}
