import type { CacheKind, CacheOptions, OutcomeCache } from "./cache.js";
import { configTrieCache } from "./config-trie.js";
import { contentHashCache } from "./content-hash.js";
import { contentCache } from "./content.js";
import { noCache } from "./none.js";

export * from "./cache.js";

/** The registry of cache kinds, by the names the CLI and the options use. */
export const CACHES: Readonly<Record<CacheKind, (options: CacheOptions) => OutcomeCache>> = {
  none: () => noCache(),
  config: configTrieCache,
  content: contentCache,
  "content-hash": contentHashCache,
};

export function createCache(kind: CacheKind, options: CacheOptions): OutcomeCache {
  return CACHES[kind](options);
}
