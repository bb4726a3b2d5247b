import type { Configuration } from "../ddmin/configuration.js";
import type { Outcome } from "../outcome.js";
import { CacheCounters, isCacheable, type CacheOptions, type OutcomeCache } from "./cache.js";

/**
 * Estimated bytes of one trie node: a small object (parent link, atom, outcome) plus its share of the
 * parent's Map (key, value, chain and table slack). A configuration of k atoms costs up to k nodes,
 * which is why this kind grows fastest on character-level reductions.
 */
const NODE_BYTES = 96;

interface TrieNode {
  readonly parent: TrieNode | undefined;
  readonly atom: number;
  children?: Map<number, TrieNode>;
  outcome?: Outcome;
}

/**
 * Configuration cache (Zeller's reference cache, picire's ConfigCache): a trie over the ascending
 * atom indices of each configuration, so prefixes are shared. It knows nothing of bytes, so two
 * configurations that serialize alike are different entries.
 */
export function configTrieCache(options: CacheOptions): OutcomeCache {
  const root: TrieNode = { parent: undefined, atom: -1 };
  const counters = new CacheCounters();
  // Entries by size (depth), so eviction visits only what it removes.
  const bySize = new Map<number, Set<TrieNode>>();

  const find = (config: Configuration): TrieNode | undefined => {
    let node: TrieNode | undefined = root;
    for (let i = 0; i < config.length && node; i++) node = node.children?.get(config[i]!);
    return node;
  };

  /** Removes an entry and the nodes that only led to it; returns how many nodes went. */
  const remove = (entry: TrieNode): number => {
    entry.outcome = undefined;
    let removed = 0;
    let node = entry;
    while (node.parent && node.outcome === undefined && (node.children?.size ?? 0) === 0) {
      node.parent.children!.delete(node.atom);
      removed++;
      node = node.parent;
    }
    return removed;
  };

  return {
    kind: "config",
    lookup(key) {
      const outcome = find(key.config)?.outcome;
      counters.lookedUp(outcome !== undefined);
      return outcome;
    },
    add(key, outcome) {
      if (!isCacheable(outcome, options)) return;
      let node = root;
      let added = 0;
      for (const atom of key.config) {
        node.children ??= new Map();
        let child = node.children.get(atom);
        if (!child) {
          child = { parent: node, atom };
          node.children.set(atom, child);
          added++;
        }
        node = child;
      }
      if (node.outcome !== undefined) {
        counters.grow(0, added * NODE_BYTES);
        return;
      }
      node.outcome = outcome;
      const size = key.config.length;
      let entries = bySize.get(size);
      if (!entries) bySize.set(size, (entries = new Set()));
      entries.add(node);
      counters.grow(1, added * NODE_BYTES);
    },
    reduced(key) {
      if (!options.evict) return;
      // Every entry deeper than the new configuration's size is larger than it (eq. (3) of the cache
      // paper). Iterative, so deep character-level configurations cannot overflow the stack.
      const size = key.config.length;
      for (const [entrySize, entries] of bySize) {
        if (entrySize <= size) continue;
        let nodes = 0;
        for (const entry of entries) nodes += remove(entry);
        counters.grow(-entries.size, -nodes * NODE_BYTES);
        bySize.delete(entrySize);
      }
    },
    stats: () => counters.snapshot(),
  };
}
