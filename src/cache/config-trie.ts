import type { Configuration } from "../ddmin/configuration.js";
import type { Outcome } from "../outcome.js";
import { CacheCounters, isCacheable, type CacheOptions, type OutcomeCache } from "./cache.js";

/**
 * Estimated bytes of one trie node: a small object plus its share of the parent's Map (key, value,
 * chain and table slack). A configuration of k atoms costs up to k nodes, which is why this kind
 * grows fastest on character-level reductions.
 */
const NODE_BYTES = 96;

interface TrieNode {
  children?: Map<number, TrieNode>;
  outcome?: Outcome;
}

/**
 * Configuration cache (Zeller's reference cache, picire's ConfigCache): a trie over the ascending
 * atom indices of each configuration, so prefixes are shared. It knows nothing of bytes, so two
 * configurations that serialize alike are different entries.
 */
export function configTrieCache(options: CacheOptions): OutcomeCache {
  const root: TrieNode = {};
  const counters = new CacheCounters();

  const find = (config: Configuration): TrieNode | undefined => {
    let node: TrieNode | undefined = root;
    for (let i = 0; i < config.length && node; i++) node = node.children?.get(config[i]!);
    return node;
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
          child = {};
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
      counters.grow(1, added * NODE_BYTES);
    },
    reduced(key) {
      if (!options.evict) return;
      // Every entry deeper than the new configuration's size is larger than it: cut the trie below
      // that depth. Iterative, so deep character-level configurations cannot overflow the stack.
      const size = key.config.length;
      const stack: { node: TrieNode; depth: number }[] = [{ node: root, depth: 0 }];
      let removedNodes = 0;
      let removedEntries = 0;
      while (stack.length > 0) {
        const { node, depth } = stack.pop()!;
        if (!node.children) continue;
        if (depth < size) {
          for (const child of node.children.values()) stack.push({ node: child, depth: depth + 1 });
          continue;
        }
        const doomed = [...node.children.values()];
        node.children = undefined;
        while (doomed.length > 0) {
          const gone = doomed.pop()!;
          removedNodes++;
          if (gone.outcome !== undefined) removedEntries++;
          if (gone.children) for (const c of gone.children.values()) doomed.push(c);
        }
      }
      counters.grow(-removedEntries, -removedNodes * NODE_BYTES);
    },
    stats: () => counters.snapshot(),
  };
}
