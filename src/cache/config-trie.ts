import type { Configuration } from "../ddmin/configuration.js";
import type { Outcome } from "../outcome.js";
import { CacheCounters, isCacheable, type CacheOptions, type OutcomeCache } from "./cache.js";

/**
 * Estimated bytes of one trie node: a small object (parent link, key, outcome) plus its share of the
 * parent's Map (key, value, chain and table slack). A configuration of r runs costs up to 2r nodes.
 */
const NODE_BYTES = 96;

interface TrieNode {
  readonly parent: TrieNode | undefined;
  readonly key: number;
  children?: Map<number, TrieNode>;
  outcome?: Outcome;
}

/** The trie path of a configuration: start and end of each run (its unique encoding). */
function* path(config: Configuration): Generator<number> {
  for (let k = 0; k < config.runCount; k++) {
    yield config.runStart(k);
    yield config.runEnd(k);
  }
}

/**
 * Configuration cache (Zeller's reference cache, picire's ConfigCache): a trie over each
 * configuration's runs of consecutive atom indices (start, end, start, end, …), so prefixes are
 * shared, and a configuration of a million consecutive atoms is two nodes, not a million. Every set
 * of indices has one run encoding, so a hit means the same configuration. It knows nothing of bytes,
 * so two configurations that serialize alike are different entries.
 */
export function configTrieCache(options: CacheOptions): OutcomeCache {
  const root: TrieNode = { parent: undefined, key: -1 };
  const counters = new CacheCounters();
  // Entries by size (atoms), so eviction visits only what it removes.
  const bySize = new Map<number, Set<TrieNode>>();

  const find = (config: Configuration): TrieNode | undefined => {
    let node: TrieNode | undefined = root;
    for (const key of path(config)) {
      node = node.children?.get(key);
      if (!node) return undefined;
    }
    return node;
  };

  /** Removes an entry and the nodes that only led to it; returns how many nodes went. */
  const remove = (entry: TrieNode): number => {
    entry.outcome = undefined;
    let removed = 0;
    let node = entry;
    while (node.parent && node.outcome === undefined && (node.children?.size ?? 0) === 0) {
      node.parent.children!.delete(node.key);
      removed++;
      node = node.parent;
    }
    return removed;
  };

  return {
    kind: "config",
    peek: (key) => find(key.config)?.outcome,
    lookup(key) {
      const outcome = find(key.config)?.outcome;
      counters.lookedUp(outcome !== undefined);
      return outcome;
    },
    add(key, outcome) {
      if (!isCacheable(outcome, options)) return;
      let node = root;
      let added = 0;
      for (const k of path(key.config)) {
        node.children ??= new Map();
        let child = node.children.get(k);
        if (!child) {
          child = { parent: node, key: k };
          node.children.set(k, child);
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
      // Every entry with more atoms than the new configuration is larger than it (eq. (3) of the cache
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
