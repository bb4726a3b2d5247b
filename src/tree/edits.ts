import type { EditView } from "./render.js";
import { hasId, mergeIds, nextId, sortedIds, type SortedIds } from "./sorted-ids.js";
import { hoistTokens, NO_TOKENS, subtreeTokens, union, type TokenRanges } from "./token-ranges.js";
import type { Tree } from "./tree.js";

/**
 * Progress over an immutable tree (treereduce's `Edits`; Picireny keeps the same facts as node
 * states): which nodes are replaced by their minimal replacement, and which are hoisted (replaced by
 * a compatible descendant). A value: every change returns a new edit set.
 */
export class EditSet implements EditView {
  static readonly EMPTY = new EditSet(new Set(), new Map());

  /** The tokens these edits remove, once asked (removedTokens), with the tree they were asked of. */
  #tokens: { tree: Tree; ranges: TokenRanges } | undefined;
  /** From the edit set this one was made from, when that one's tokens were known: cheaper. */
  #derive: ((tree: Tree) => TokenRanges | undefined) | undefined;
  /** The removed and hoisted nodes, ascending, once asked (nextEdited). */
  #edited: SortedIds | undefined;
  /** From the edit set this one was made from, when that one's were known: a merge, not a sort. */
  #deriveEdited: (() => SortedIds) | undefined;

  private constructor(
    private readonly removed: ReadonlySet<number>,
    private readonly hoists: ReadonlyMap<number, number>,
  ) {}

  /**
   * The input's tokens these edits remove: those under a removed node, and those of a hoisted node
   * outside the descendant that replaces it (replacement texts are not tokens). Computed once.
   */
  removedTokens(tree: Tree): TokenRanges {
    if (this.removed.size === 0 && this.hoists.size === 0) return NO_TOKENS; // EMPTY holds no tree
    if (this.#tokens?.tree === tree) return this.#tokens.ranges;
    let ranges = this.#derive?.(tree);
    if (ranges === undefined) {
      ranges = subtreeTokens(tree, this.removed);
      for (const [node, by] of this.hoists) ranges = union(ranges, hoistTokens(tree, node, by));
    }
    this.#derive = undefined;
    this.#tokens = { tree, ranges };
    return ranges;
  }

  /**
   * `next`, made from this set by adding `more` (tokens) or `nodes` (edited nodes), computes its
   * tokens and edited nodes from this set's, if known.
   */
  private derived(next: EditSet, more: (tree: Tree) => TokenRanges, nodes: Iterable<number>): EditSet {
    const known = this.#tokens; // never set on an empty set (removedTokens)
    if (known !== undefined) {
      next.#derive = (tree) => (tree === known.tree ? union(known.ranges, more(tree)) : undefined);
    }
    const edited = this.#edited;
    if (edited !== undefined) next.#deriveEdited = () => mergeIds(edited, sortedIds(nodes));
    return next;
  }

  isRemoved(id: number): boolean {
    return this.removed.has(id);
  }

  hoistOf(id: number): number | undefined {
    return this.hoists.get(id);
  }

  /** The smallest id at least `from` of a removed or hoisted node, or Infinity (EditView.nextEdited). */
  nextEdited(from: number): number {
    if (this.#edited === undefined) {
      this.#edited = this.#deriveEdited?.() ?? sortedIds(this.editedNodes());
      this.#deriveEdited = undefined;
    }
    return nextId(this.#edited, from);
  }

  private *editedNodes(): Iterable<number> {
    yield* this.removed;
    yield* this.hoists.keys();
  }

  /** These nodes, replaced by their minimal replacements as well. */
  remove(ids: Iterable<number>): EditSet {
    const removed = new Set(this.removed);
    const added: number[] = [];
    for (const id of ids) {
      removed.add(id);
      added.push(id);
    }
    return this.derived(new EditSet(removed, this.hoists), (tree) => subtreeTokens(tree, added), added);
  }

  /** `node` replaced by its descendant `by`. */
  hoist(node: number, by: number): EditSet {
    if (node === by) throw new RangeError(`a node cannot be hoisted into its own place (${node})`);
    const hoists = new Map(this.hoists);
    hoists.set(node, by);
    return this.derived(new EditSet(this.removed, hoists), (tree) => hoistTokens(tree, node, by), [node]);
  }

  get removedCount(): number {
    return this.removed.size;
  }
  get hoistCount(): number {
    return this.hoists.size;
  }

  /** A view of these edits with `extra` nodes removed too: a candidate of a tree pass, not kept. */
  withRemoved(extra: Iterable<number>): EditView {
    const ids = sortedIds(extra);
    return {
      isRemoved: (id) => this.removed.has(id) || hasId(ids, id),
      hoistOf: (id) => this.hoists.get(id),
      removedTokens: (tree) => union(this.removedTokens(tree), subtreeTokens(tree, ids)),
      nextEdited: (from) => Math.min(this.nextEdited(from), nextId(ids, from)),
    };
  }
}
