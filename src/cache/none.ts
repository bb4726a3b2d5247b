import { CacheCounters, type OutcomeCache } from "./cache.js";

/** No cache: every candidate is tested. Lookups are still counted, so statistics stay comparable. */
export function noCache(): OutcomeCache {
  const counters = new CacheCounters();
  return {
    kind: "none",
    lookup() {
      counters.lookedUp(false);
      return undefined;
    },
    peek: () => undefined,
    add() {},
    reduced() {},
    stats: () => counters.snapshot(),
  };
}
