import type { CacheKey } from "../cache/index.js";
import { fullConfiguration, type Configuration } from "../ddmin/configuration.js";
import type { DdminOptions, TestLabel } from "../ddmin/ddmin.js";
import { minimize } from "../ddmin/minimize.js";
import { addNeeds, learnedP0, NO_NEEDS, type NeedRecord } from "../ddmin/probdd.js";
import { findInteresting } from "../ddmin/round.js";
import type { PassEvaluator } from "../reduce/evaluator.js";
import type { EventListener } from "../reduce/events.js";
import { configurationHooks } from "../passes/pass.js";
import { EditSet } from "../tree/edits.js";
import { HangMemory, loopsAround } from "./hang-memory.js";
import type { GlueCheck } from "../tree/raw.js";
import { render, type EditView } from "../tree/render.js";
import type { Tree } from "../tree/tree.js";

/** Which nodes may replace which in hoisting: by default, nodes of the same kind (rule). */
export type Compatibility = (tree: Tree, node: number, descendant: number) => boolean;

export const sameKind: Compatibility = (tree, a, b) => tree.kind(a) === tree.kind(b);

/** The shortest chain (links below its head) that CHAIN jumps along; shorter ones are left to HOIST. */
export const CHAIN_MIN_LENGTH = 8;
/** How many nodes below one link of a chain are searched for the next (see chainBelow). */
export const CHAIN_SEARCH_NODES = 4096;

/**
 * The state of a search over one tree: the immutable tree, the edits found so far, and how to ask
 * about a candidate. The algorithms (HDD's levels, hoisting, HDDr) read and extend `edits`; every
 * candidate is rendered to bytes and goes through the pass's evaluator.
 */
export class TreeSearch {
  edits: EditSet = EditSet.EMPTY;
  /** Asks about candidates: the pass's evaluator, with the hang memory's rule (hang-memory.ts). */
  readonly evaluator: PassEvaluator;
  /** The timed-out candidates of the search and of its forks. */
  readonly hangs: HangMemory;
  /** The units the pass's ProbDD searches decided so far, for a learned p0 (DdminOptions.learnP0). */
  needs: NeedRecord = NO_NEEDS;
  /** The units of the ProbDD search under way with a learned p0; 0 when there is none. */
  private deciding = 0;

  /** `hangs`: a fork's, whose evaluator is made from one that already keeps the memory's rule. */
  constructor(
    readonly tree: Tree,
    readonly glue: GlueCheck,
    evaluator: PassEvaluator,
    readonly options: DdminOptions,
    readonly signal: AbortSignal,
    readonly emit: EventListener,
    readonly pass: string,
    readonly compatible: Compatibility = sameKind,
    hangs?: HangMemory,
  ) {
    this.hangs = hangs ?? new HangMemory((removed) => loopsAround(tree, removed));
    this.evaluator = hangs === undefined ? this.hangs.guard(evaluator) : evaluator;
  }

  /**
   * A search over the same tree from the same edits, asking through `evaluator`, which is made from
   * this search's (hdd/stages.ts): the two share the hang memory.
   */
  fork(evaluator: PassEvaluator, signal: AbortSignal, emit: EventListener): TreeSearch {
    const fork = new TreeSearch(
      this.tree,
      this.glue,
      evaluator,
      this.options,
      signal,
      emit,
      this.pass,
      this.compatible,
      this.hangs,
    );
    fork.edits = this.edits;
    fork.needs = this.needs;
    return fork;
  }

  /**
   * `needs` as it will be if the search under way keeps every unit it started with — the record a
   * stage started ahead of this one must start from (hdd/stages.ts), as it assumes this one changes
   * nothing. Set from the start of a prune's search, which its stage reaches before its first await.
   */
  assumedNeeds(): NeedRecord {
    return this.deciding > 0 ? addNeeds(this.needs, this.deciding, this.deciding) : this.needs;
  }

  /** The bytes of the tree under `view`, as a cache key (rendered once, when first needed). */
  key(view: EditView, config: Configuration): CacheKey {
    let bytes: Uint8Array | undefined;
    const key: CacheKey = { config, content: () => (bytes ??= render(this.tree, view, this.glue)) };
    if (view.removedTokens !== undefined) this.hangs.describe(key, () => view.removedTokens!(this.tree));
    return key;
  }

  /** The current best rendering. */
  current(): Uint8Array {
    return render(this.tree, this.edits, this.glue);
  }

  /**
   * The nodes of the edited tree, in document order, with their depth in it: removed nodes (now
   * their replacement) and everything under them are gone; a hoisted node is where its replacing
   * descendant now stands, so that descendant's subtree moves up with it.
   */
  presentNodes(): { ids: number[]; depths: number[]; tokens: number } {
    const ids: number[] = [];
    const depths: number[] = [];
    let tokens = 0;
    const stack: [number, number][] = [[0, 0]];
    while (stack.length > 0) {
      const [node, depth] = stack.pop()!;
      let id = node;
      for (let h = this.edits.hoistOf(id); h !== undefined; h = this.edits.hoistOf(id)) id = h;
      if (this.edits.isRemoved(id)) continue;
      ids.push(id);
      depths.push(depth);
      if (this.tree.isToken(id)) tokens++;
      const children = this.tree.children(id);
      for (let i = children.length - 1; i >= 0; i--) stack.push([children[i]!, depth + 1]);
    }
    return { ids, depths, tokens };
  }

  #tokensOf: { edits: EditSet; tokens: number } | undefined;

  /** How many of the input's tokens the current best still has (computed once per edit set). */
  presentTokens(): number {
    if (this.#tokensOf?.edits !== this.edits) {
      this.#tokensOf = { edits: this.edits, tokens: this.presentNodes().tokens };
    }
    return this.#tokensOf.tokens;
  }

  /**
   * The present nodes at depth `level` (HDD's TAGNODES), in document order, and how many of the
   * input's tokens are still present (the size in tokens; replacement texts are not counted).
   */
  tagNodes(level: number): { nodes: number[]; tokens: number; levels: number } {
    const { ids, depths, tokens } = this.presentNodes();
    this.#tokensOf = { edits: this.edits, tokens };
    let deepest = -1;
    for (const depth of depths) if (depth > deepest) deepest = depth;
    return { nodes: ids.filter((_, i) => depths[i] === level), tokens, levels: deepest + 1 };
  }

  /**
   * PRUNE with DDMIN over `nodes` (HDD, Misherghi & Su; the replacement reading of Hodován et al.):
   * a configuration is the set of nodes kept; the others are replaced by their minimal replacement.
   * Nodes whose replacement would change nothing (fixed) are not tried; `coarse` tries only nodes
   * whose replacement is empty (coarse HDD). A single node is tried by testing its removal alone, as
   * ddmin never tests the empty configuration (Picireny's EmptyDD). Returns whether any node went.
   */
  async prune(nodes: readonly number[], level: number, coarse: boolean): Promise<boolean> {
    const tree = this.tree;
    const units = nodes.filter((id) => !tree.isFixed(id) && (!coarse || tree.isRemovable(id)));
    if (units.length === 0) return false;
    const evaluator = this.evaluator.scope("configurations");
    const base = this.edits;
    // The units outside the configuration's runs, in the order of `units`.
    const removedBy = (config: Configuration): number[] => {
      const removed: number[] = [];
      let next = 0;
      for (let k = 0; k < config.runCount; k++) {
        for (; next < config.runStart(k); next++) removed.push(units[next]!);
        next = config.runEnd(k);
      }
      for (; next < units.length; next++) removed.push(units[next]!);
      return removed;
    };
    const keyOf = (config: Configuration): CacheKey => this.key(base.withRemoved(removedBy(config)), config);
    try {
      if (units.length === 1) {
        const empty = fullConfiguration(0);
        const key = keyOf(empty);
        const label = { kind: "empty", index: 0, round: 0, granularity: 1, level } as const;
        if (!(await evaluator.test(key, this.signal, label))) return false;
        evaluator.commit(key);
        this.edits = base.remove(units);
        return true;
      }
      const learn = this.options.algorithm === "probdd" && this.options.learnP0 === true;
      const options = learn ? { ...this.options, p0: learnedP0(this.needs) } : this.options;
      if (learn) this.deciding = units.length;
      let result;
      try {
        result = await minimize(
          fullConfiguration(units.length),
          configurationHooks(evaluator, keyOf, { emit: this.emit, signal: this.signal, level }),
          options,
        );
      } finally {
        this.deciding = 0;
      }
      if (learn && result.kind === "done")
        this.needs = addNeeds(this.needs, units.length, result.config.length);
      const removed = removedBy(result.config);
      this.edits = base.remove(removed);
      this.signal.throwIfAborted();
      return removed.length > 0;
    } finally {
      evaluator.close();
    }
  }

  /**
   * χ(n) of the hoisting paper (Fig. 7): the compatible descendants of `n` closest to it on each
   * branch (a compatible node is a candidate, and the search does not go below it), over the edited
   * tree. Sorted farthest first, as the paper prioritizes them (ties in document order).
   */
  hoistables(n: number): number[] {
    const tree = this.tree;
    const found: { id: number; distance: number }[] = [];
    const stack: [number, number][] = [];
    const children = tree.children(n);
    for (let i = children.length - 1; i >= 0; i--) stack.push([children[i]!, 1]);
    while (stack.length > 0) {
      const [node, distance] = stack.pop()!;
      let id = node;
      for (let h = this.edits.hoistOf(id); h !== undefined; h = this.edits.hoistOf(id)) id = h;
      if (this.edits.isRemoved(id)) continue;
      if (this.compatible(tree, n, id)) {
        found.push({ id, distance });
        continue;
      }
      const kids = tree.children(id);
      for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i]!, distance + 1]);
    }
    // A stable sort keeps document order among equally far candidates.
    return found.sort((a, b) => b.distance - a.distance).map((f) => f.id);
  }

  /**
   * The chain below `head`: `head`, then the only node compatible with `head` closest below it (over
   * the edited tree), then the only one closest below that, and so on, for as long as there is exactly
   * one (`[[[[1]]]]` is a chain of four arrays below its root). The search below each link stops
   * after CHAIN_SEARCH_NODES nodes, so that a wide subtree costs no more than that per link.
   */
  chainBelow(head: number): number[] {
    const tree = this.tree;
    const chain = [head];
    for (let link = head; ;) {
      let only: number | undefined;
      let visited = 0;
      let ambiguous = false;
      const stack: number[] = [];
      const kids = tree.children(link);
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
      while (stack.length > 0) {
        if (++visited > CHAIN_SEARCH_NODES) {
          ambiguous = true;
          break;
        }
        let id = stack.pop()!;
        for (let h = this.edits.hoistOf(id); h !== undefined; h = this.edits.hoistOf(id)) id = h;
        if (this.edits.isRemoved(id)) continue;
        if (this.compatible(tree, head, id)) {
          if (only !== undefined) {
            ambiguous = true;
            break;
          }
          only = id;
          continue;
        }
        const below = tree.children(id);
        for (let i = below.length - 1; i >= 0; i--) stack.push(below[i]!);
      }
      if (ambiguous || only === undefined) return chain;
      chain.push(only);
      link = only;
    }
  }

  /**
   * CHAIN: every node at the head of a chain of at least CHAIN_MIN_LENGTH compatible descendants
   * (chainBelow), in document order from the root, is hoisted to the deepest link that keeps the
   * input interesting. HOIST would go down one link per test (10,000 nested arrays: 10,000 tests);
   * this tries the deepest link first (one test when it works), then the first (when even that
   * fails, nothing on the chain is hoisted), then halves the links between the deepest that worked and
   * the shallowest that failed. Links of a chain examined once are not heads of chains of their own
   * (theirs are tails of it). Not a phase of the papers: an addition that the default pipeline runs
   * first. Returns whether any node was hoisted.
   */
  async chains(): Promise<boolean> {
    const tree = this.tree;
    const evaluator = this.evaluator.scope("other");
    const linked = new Uint8Array(tree.size);
    let changed = false;
    try {
      const stack: number[] = [0];
      while (stack.length > 0) {
        this.signal.throwIfAborted();
        let id = stack.pop()!;
        for (let h = this.edits.hoistOf(id); h !== undefined; h = this.edits.hoistOf(id)) id = h;
        if (this.edits.isRemoved(id) || tree.isToken(id)) continue;
        if (linked[id] === 0) {
          const chain = this.chainBelow(id);
          for (const link of chain) linked[link] = 1;
          if (chain.length - 1 >= CHAIN_MIN_LENGTH) {
            const to = await this.deepestHoist(chain, evaluator, tree.depth(id));
            if (to > 0) {
              this.edits = this.edits.hoist(id, chain[to]!);
              id = chain[to]!;
              changed = true;
            }
          }
        }
        const children = tree.children(id);
        for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
      }
      return changed;
    } finally {
      evaluator.close();
    }
  }

  /**
   * The deepest link of `chain` (index > 0) found to keep the input interesting when `chain[0]` is
   * hoisted to it, committed; 0 when none is. Deepest first, then the first, then bisection.
   */
  private async deepestHoist(
    chain: readonly number[],
    evaluator: PassEvaluator,
    level: number,
  ): Promise<number> {
    const head = chain[0]!;
    const last = chain.length - 1;
    const attempt = async (to: number): Promise<boolean> => {
      const key = this.key(this.edits.hoist(head, chain[to]!), fullConfiguration(0));
      const label = { kind: "hoist", index: to - 1, round: 1, granularity: last, level } as const;
      if (!(await evaluator.test(key, this.signal, label))) return false;
      evaluator.commit(key);
      return true;
    };
    if (await attempt(last)) return last;
    if (!(await attempt(1))) return 0;
    let [works, fails] = [1, last];
    while (fails - works > 1) {
      const middle = works + ((fails - works) >> 1);
      if (await attempt(middle)) works = middle;
      else fails = middle;
    }
    return works;
  }

  /**
   * The first of `count` candidates that is interesting, tested through `evaluator` one at a time,
   * or with the ddmin options' jobs in parallel (the deterministic mode keeps the first in order):
   * its index and key, or undefined when none is. A prepared candidate's key is kept until its test,
   * which then shares its bytes and hash; other keys are made when needed and not kept (a round may
   * have thousands of candidates).
   */
  async firstInteresting(
    evaluator: PassEvaluator,
    count: number,
    makeKey: (i: number) => CacheKey,
    labelOf: (i: number) => TestLabel,
  ): Promise<{ index: number; key: CacheKey } | undefined> {
    const prepared = new Map<number, CacheKey>();
    const keyOf = (i: number): CacheKey => {
      const key = prepared.get(i);
      if (key === undefined) return makeKey(i);
      prepared.delete(i);
      return key;
    };
    const found = await findInteresting(count, (i, signal) => evaluator.test(keyOf(i), signal, labelOf(i)), {
      jobs: this.options.jobs,
      firstWins: this.options.firstWins,
      signal: this.signal,
      prepare: (i, nextIf) => {
        if (i >= count) return false; // nothing comes after the last candidate
        const key = makeKey(i);
        prepared.set(i, key);
        return evaluator.prepare(key, nextIf);
      },
    });
    return found < 0 ? undefined : { index: found, key: keyOf(found) };
  }

  /**
   * TMIN^χ over `nodes` (Fig. 6 and 8 of the hoisting paper): while some node δ of the level has a
   * hoistable descendant δ' of its current replacement t(δ) whose hoist keeps the input interesting,
   * take the first such (nodes in document order, candidates farthest first) and start over; stop
   * when none does (a 1-maximal transformation). Candidates of one scan run in parallel with the
   * ddmin options' jobs; the deterministic mode commits the first in scan order. Returns whether any
   * node was hoisted.
   */
  async hoist(nodes: readonly number[], level: number): Promise<boolean> {
    const evaluator = this.evaluator.scope("other");
    const mapping = new Map<number, number>(); // δ → its current replacement t(δ)
    let changed = false;
    try {
      for (let round = 1; ; round++) {
        this.signal.throwIfAborted();
        const candidates: [number, number][] = [];
        for (const node of nodes) {
          const current = mapping.get(node) ?? node;
          for (const by of this.hoistables(current)) candidates.push([node, by]);
        }
        if (candidates.length === 0) return changed;
        const found = await this.firstInteresting(
          evaluator,
          candidates.length,
          (i) => {
            const [node, by] = candidates[i]!;
            return this.key(this.edits.hoist(mapping.get(node) ?? node, by), fullConfiguration(0));
          },
          (i) => ({ kind: "hoist", index: i, round, granularity: candidates.length, level }),
        );
        if (found === undefined) return changed;
        const [node, by] = candidates[found.index]!;
        evaluator.commit(found.key);
        this.edits = this.edits.hoist(mapping.get(node) ?? node, by);
        mapping.set(node, by);
        changed = true;
      }
    } finally {
      evaluator.close();
    }
  }
}
