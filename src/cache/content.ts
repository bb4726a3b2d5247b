import type { Outcome } from "../outcome.js";
import { CacheCounters, isCacheable, memoKey, type CacheOptions, type OutcomeCache } from "./cache.js";

/**
 * Estimated bytes of one Map entry besides its key's characters: the string header (~16 bytes) and
 * the hash table's slot for key, value and chain (~3 words plus slack).
 */
const ENTRY_OVERHEAD = 48;

/**
 * Content cache (Hodován et al.): keyed by the serialized candidate, so different configurations
 * with the same bytes share one outcome. Keys are kept as one-byte (latin1) strings, one character
 * per byte, which V8 stores compactly.
 */
export function contentCache(options: CacheOptions): OutcomeCache {
  const entries = new Map<string, Outcome>();
  const counters = new CacheCounters();
  const latin1 = memoKey((bytes) =>
    Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("latin1"),
  );
  return {
    kind: "content",
    peek: (key) => entries.get(latin1(key)),
    lookup(key) {
      const outcome = entries.get(latin1(key));
      counters.lookedUp(outcome !== undefined);
      return outcome;
    },
    add(key, outcome) {
      if (!isCacheable(outcome, options)) return;
      const k = latin1(key);
      if (entries.has(k)) return;
      entries.set(k, outcome);
      counters.grow(1, k.length + ENTRY_OVERHEAD);
    },
    reduced(key) {
      if (!options.evict) return;
      const size = key.content().length;
      for (const k of entries.keys()) {
        if (k.length > size) {
          entries.delete(k);
          counters.grow(-1, -(k.length + ENTRY_OVERHEAD));
        }
      }
    },
    stats: () => counters.snapshot(),
  };
}
