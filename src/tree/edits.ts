import type { EditView } from "./render.js";
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

  /** `next`, made from this set by adding `more`, computes its tokens from this set's, if known. */
  private derived(next: EditSet, more: (tree: Tree) => TokenRanges): EditSet {
    const known = this.#tokens; // never set on an empty set (removedTokens)
    if (known !== undefined) {
      next.#derive = (tree) => (tree === known.tree ? union(known.ranges, more(tree)) : undefined);
    }
    return next;
  }

  isRemoved(id: number): boolean {
    return this.removed.has(id);
  }

  hoistOf(id: number): number | undefined {
    return this.hoists.get(id);
  }

  /** These nodes, replaced by their minimal replacements as well. */
  remove(ids: Iterable<number>): EditSet {
    const removed = new Set(this.removed);
    const added: number[] = [];
    for (const id of ids) {
      removed.add(id);
      added.push(id);
    }
    return this.derived(new EditSet(removed, this.hoists), (tree) => subtreeTokens(tree, added));
  }

  /** `node` replaced by its descendant `by`. */
  hoist(node: number, by: number): EditSet {
    if (node === by) throw new RangeError(`a node cannot be hoisted into its own place (${node})`);
    const hoists = new Map(this.hoists);
    hoists.set(node, by);
    return this.derived(new EditSet(this.removed, hoists), (tree) => hoistTokens(tree, node, by));
  }

  get removedCount(): number {
    return this.removed.size;
  }
  get hoistCount(): number {
    return this.hoists.size;
  }

  /** A view of these edits with `extra` nodes removed too: a candidate of a tree pass, not kept. */
  withRemoved(extra: ReadonlySet<number>): EditView {
    return {
      isRemoved: (id) => this.removed.has(id) || extra.has(id),
      hoistOf: (id) => this.hoists.get(id),
      removedTokens: (tree) => union(this.removedTokens(tree), subtreeTokens(tree, extra)),
    };
  }
}
