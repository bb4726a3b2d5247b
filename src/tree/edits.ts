import type { EditView } from "./render.js";

/**
 * Progress over an immutable tree (treereduce's `Edits`; Picireny keeps the same facts as node
 * states): which nodes are replaced by their minimal replacement, and which are hoisted (replaced by
 * a compatible descendant). A value: every change returns a new edit set.
 */
export class EditSet implements EditView {
  static readonly EMPTY = new EditSet(new Set(), new Map());

  private constructor(
    private readonly removed: ReadonlySet<number>,
    private readonly hoists: ReadonlyMap<number, number>,
  ) {}

  isRemoved(id: number): boolean {
    return this.removed.has(id);
  }

  hoistOf(id: number): number | undefined {
    return this.hoists.get(id);
  }

  /** These nodes, replaced by their minimal replacements as well. */
  remove(ids: Iterable<number>): EditSet {
    const removed = new Set(this.removed);
    for (const id of ids) removed.add(id);
    return new EditSet(removed, this.hoists);
  }

  /** `node` replaced by its descendant `by`. */
  hoist(node: number, by: number): EditSet {
    if (node === by) throw new RangeError(`a node cannot be hoisted into its own place (${node})`);
    const hoists = new Map(this.hoists);
    hoists.set(node, by);
    return new EditSet(this.removed, hoists);
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
    };
  }
}
