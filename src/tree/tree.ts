import { sameBytes } from "../bytes.js";
import type { RawNode } from "./raw.js";
import { reclaimAfterParse } from "./reclaim.js";
import { NO_REPLACEMENTS, type Replacements } from "./replacements.js";
import { lowerBound } from "./sorted-ids.js";

/** Which of Picireny's tree transforms to apply when a tree is built; each is on by default. */
export interface TreeTransforms {
  /**
   * Squeeze linear chains: a rule node whose only child has the same minimal replacement is the same
   * candidate twice, so the child takes its place.
   */
  readonly squeeze: boolean;
  /**
   * Flatten left and right recursion: `list: list ',' item | item` over `a, b, c` becomes one list
   * node whose recursive tails (`, b`, `, c`) are removable items with an empty replacement, as if
   * the rule were `list: item (',' item)*`.
   */
  readonly flattenRecursion: boolean;
  /** Hide nodes whose text already equals their minimal replacement: replacing them changes nothing. */
  readonly skipUnremovable: boolean;
}

export const ALL_TRANSFORMS: TreeTransforms = {
  squeeze: true,
  flattenRecursion: true,
  skipUnremovable: true,
};
export const NO_TRANSFORMS: TreeTransforms = {
  squeeze: false,
  flattenRecursion: false,
  skipUnremovable: false,
};

const TOKEN = 1;
/** A node made by a transform (a flattened recursion tail), not by the grammar. */
const SYNTHETIC = 2;
/** Hidden from the algorithms: its text equals its replacement (skipUnremovable). */
const FIXED = 4;

const utf8 = new TextEncoder();

/** A node while the tree is being built (transforms rewrite these before the tree is frozen). */
interface Draft {
  kind: string;
  flags: number;
  start: number;
  end: number;
  replacement: string;
  children: Draft[];
}

/**
 * An immutable parse tree over the bytes of one input, built once; the reducers never change it.
 * Progress is kept outside, as an edit set (see edits.ts), and rendered to bytes on demand.
 *
 * Nodes are numbered 0 … size − 1 in document order (a node before its children, children left to
 * right); node 0 is the root. Per-node facts live in typed arrays, so a tree of a few hundred
 * thousand nodes is a few megabytes.
 */
export class Tree {
  readonly input: Uint8Array;
  readonly size: number;
  private readonly kindNames: readonly string[];
  private readonly kindOf: Int32Array;
  private readonly flags: Uint8Array;
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;
  private readonly parents: Int32Array;
  private readonly depths: Int32Array;
  private readonly childStart: Int32Array;
  private readonly childIds: Int32Array;
  private readonly replacementOf: Int32Array;
  private readonly replacementTexts: readonly Uint8Array[];
  /** For token nodes: where the hidden text before them starts (the end of the previous token). */
  private readonly gapStarts: Int32Array;
  /** Each node's last descendant (pre-order: its subtree is the ids [id, lastDescs[id]]). */
  private readonly lastDescs: Int32Array;
  /** Token nodes in document order. */
  readonly tokens: Int32Array;
  /** The bytes after the last token (a final newline, trailing comments). */
  readonly trailingStart: number;
  readonly maxDepth: number;

  private constructor(input: Uint8Array, root: Draft) {
    this.input = input;
    // Two iterative walks (deep trees must not overflow the stack): one counts, one numbers the nodes
    // in pre-order straight into typed arrays — no table from draft to number, no per-node lists:
    // a large input has hundreds of thousands of nodes, built while the drafts are still alive.
    let n = 0;
    let childCount = 0;
    let tokenCount = 0;
    const counting: Draft[] = [root];
    while (counting.length > 0) {
      const node = counting.pop()!;
      n++;
      childCount += node.children.length;
      if (node.flags & TOKEN) tokenCount++;
      for (const child of node.children) counting.push(child);
    }
    this.size = n;
    const kindIndex = new Map<string, number>();
    const replacementIndex = new Map<string, number>();
    const kinds: string[] = [];
    const replacements: Uint8Array[] = [];
    this.kindOf = new Int32Array(n);
    this.flags = new Uint8Array(n);
    this.starts = new Int32Array(n);
    this.ends = new Int32Array(n);
    this.parents = new Int32Array(n);
    this.depths = new Int32Array(n);
    this.replacementOf = new Int32Array(n);
    this.childStart = new Int32Array(n + 1);
    this.childIds = new Int32Array(childCount);
    this.tokens = new Int32Array(tokenCount);
    // The walk's stack, as parallel lists: a node, its parent's number, and the slot of childIds
    // that is to hold its number (-1 for the root).
    const nodes: Draft[] = [root];
    const parentOf: number[] = [-1];
    const slotOf: number[] = [-1];
    let at = 0;
    let token = 0;
    let maxDepth = 0;
    for (let id = 0; nodes.length > 0; id++) {
      const node = nodes.pop()!;
      const parent = parentOf.pop()!;
      const slot = slotOf.pop()!;
      const depth = parent < 0 ? 0 : this.depths[parent]! + 1;
      let k = kindIndex.get(node.kind);
      if (k === undefined) {
        k = kinds.length;
        kinds.push(node.kind);
        kindIndex.set(node.kind, k);
      }
      let r = replacementIndex.get(node.replacement);
      if (r === undefined) {
        r = replacements.length;
        replacements.push(utf8.encode(node.replacement));
        replacementIndex.set(node.replacement, r);
      }
      this.kindOf[id] = k;
      this.flags[id] = node.flags;
      this.starts[id] = node.start;
      this.ends[id] = node.end;
      this.parents[id] = parent;
      this.depths[id] = depth;
      this.replacementOf[id] = r;
      if (slot >= 0) this.childIds[slot] = id;
      this.childStart[id] = at;
      // Pushed last to first, so that they are numbered first to last.
      for (let i = node.children.length - 1; i >= 0; i--) {
        nodes.push(node.children[i]!);
        parentOf.push(id);
        slotOf.push(at + i);
      }
      at += node.children.length;
      if (node.flags & TOKEN) this.tokens[token++] = id;
      if (depth > maxDepth) maxDepth = depth;
    }
    this.childStart[n] = at;
    this.kindNames = kinds;
    this.replacementTexts = replacements;
    this.gapStarts = new Int32Array(n);
    let previousEnd = 0;
    for (const t of this.tokens) {
      this.gapStarts[t] = previousEnd;
      previousEnd = this.ends[t]!;
    }
    this.trailingStart = previousEnd;
    this.maxDepth = maxDepth;
    // From the last id back, a node's last child is numbered after it, so is already done.
    this.lastDescs = new Int32Array(n);
    for (let id = n - 1; id >= 0; id--) {
      const [from, to] = [this.childStart[id]!, this.childStart[id + 1]!];
      this.lastDescs[id] = to > from ? this.lastDescs[this.childIds[to - 1]!]! : id;
    }
  }

  /**
   * Builds the tree of `input` from a front-end's parse tree, applying `transforms`. Tokens with
   * empty text (EOF) and rule nodes without tokens are dropped: they contribute nothing. With
   * `consumeRaw`, `raw` is emptied as it is copied (its nodes lose their children), so that the two
   * trees are not whole in memory at once: for a fresh parse that nothing else holds.
   */
  static build(
    input: Uint8Array,
    raw: RawNode,
    transforms: TreeTransforms = ALL_TRANSFORMS,
    replacements: Replacements = NO_REPLACEMENTS,
    consumeRaw = false,
  ): Tree {
    const transform = new Transformer(transforms);
    const made = draft(raw, replacements, consumeRaw, transform);
    const root = made !== undefined ? transform.result(made) : emptyDraft(raw.kind);
    // The consumed raw tree is garbage now, and so are the drafts once the tree is made: each is
    // collected before the next large allocation (see reclaim.ts).
    if (consumeRaw) reclaimAfterParse(input.length);
    const tree = new Tree(input, root);
    if (transforms.skipUnremovable) tree.markUnremovable();
    if (consumeRaw) reclaimAfterParse(input.length);
    return tree;
  }

  kind(id: number): string {
    return this.kindNames[this.kindOf[id]!]!;
  }
  isToken(id: number): boolean {
    return (this.flags[id]! & TOKEN) !== 0;
  }
  /** Made by a transform (a flattened recursion tail) rather than by a grammar rule. */
  isSynthetic(id: number): boolean {
    return (this.flags[id]! & SYNTHETIC) !== 0;
  }
  /** Hidden from the algorithms: replacing it by its minimal replacement would change nothing. */
  isFixed(id: number): boolean {
    return (this.flags[id]! & FIXED) !== 0;
  }
  /** Its minimal replacement is empty: removing it leaves nothing (coarse HDD works on these). */
  isRemovable(id: number): boolean {
    return this.replacement(id).length === 0;
  }
  start(id: number): number {
    return this.starts[id]!;
  }
  end(id: number): number {
    return this.ends[id]!;
  }
  parent(id: number): number {
    return this.parents[id]!;
  }
  depth(id: number): number {
    return this.depths[id]!;
  }
  children(id: number): Int32Array {
    return this.childIds.subarray(this.childStart[id], this.childStart[id + 1]);
  }
  /** The minimal replacement's bytes. */
  replacement(id: number): Uint8Array {
    return this.replacementTexts[this.replacementOf[id]!]!;
  }
  /** The node's own bytes in the input (from its first token to its last, hidden text between included). */
  text(id: number): Uint8Array {
    return this.input.subarray(this.starts[id], this.ends[id]);
  }
  /** Where the hidden text before token `id` starts: the end of the token before it, or 0. */
  gapStart(id: number): number {
    return this.gapStarts[id]!;
  }
  /** Whether `ancestor` is `id` or one of its ancestors. */
  isAncestorOrSelf(ancestor: number, id: number): boolean {
    // Pre-order numbering: the subtree of `ancestor` is the id range [ancestor, its last descendant].
    return id >= ancestor && id <= this.lastDescendant(ancestor);
  }
  /** The highest id in the subtree of `id` (its last descendant in document order, or itself). */
  lastDescendant(id: number): number {
    return this.lastDescs[id]!;
  }
  /** The index in `tokens` of the first token whose id is at least `id` (`tokens.length` if none). */
  tokenIndex(id: number): number {
    return lowerBound(this.tokens, id);
  }

  /** The ids at depth `d`, in document order. */
  level(d: number): number[] {
    const out: number[] = [];
    for (let id = 0; id < this.size; id++) if (this.depths[id] === d) out.push(id);
    return out;
  }

  /**
   * skipUnremovable: a node whose tokens equal its replacement is fixed. The comparison ignores
   * whitespace, which the hidden channel holds in the input and the replacement only as separators.
   * So is a node whose replacement is its own bytes, hidden text and all (a tree-sitter node of no
   * known shortest text keeps its text: replacing it would change nothing, and hide its children
   * from the levels below).
   */
  private markUnremovable(): void {
    const decoder = new TextDecoder();
    const squash = (bytes: Uint8Array): string => decoder.decode(bytes).replace(/\s+/g, "");
    const squashedReplacements = this.replacementTexts.map(squash);
    for (let id = 0; id < this.size; id++) {
      const replacement = this.replacementTexts[this.replacementOf[id]!]!;
      if (
        this.tokensSpell(id, squashedReplacements[this.replacementOf[id]!]!, squash) ||
        sameBytes(this.text(id), replacement)
      )
        this.flags[id] = this.flags[id]! | FIXED;
    }
  }

  /**
   * Whether the tokens of `id`, whitespace removed, spell exactly `target`. Stops at the first token
   * that does not fit, so a large node with a short replacement costs a token or two.
   */
  private tokensSpell(id: number, target: string, squash: (bytes: Uint8Array) => string): boolean {
    let at = 0;
    const last = this.lastDescendant(id);
    for (let t = id; t <= last; t++) {
      if (!this.isToken(t)) continue;
      const piece = squash(this.text(t));
      if (!target.startsWith(piece, at)) return false;
      at += piece.length;
    }
    return at === target.length;
  }
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Copies a front-end's tree into drafts, dropping empty tokens and rule nodes left without tokens,
 * and applying the user's replacements (see replacements.ts).
 */
function draft(
  raw: RawNode,
  replacements: Replacements,
  consume: boolean,
  transform: Transformer,
): Draft | undefined {
  const replacementOf = (node: RawNode): string => replacements.apply(node.kind, node.replacement);
  const leaf = (node: RawNode): Draft | undefined =>
    node.end > node.start
      ? {
          kind: node.kind,
          flags: TOKEN,
          start: node.start,
          end: node.end,
          replacement: replacementOf(node),
          children: [],
        }
      : undefined;
  if (raw.token) return leaf(raw);
  // Iterative post-order, so that very deep trees do not overflow the stack; each frame collects its
  // node's drafts (no table of all nodes: a large input has millions).
  interface Frame {
    readonly node: RawNode;
    readonly children: Draft[];
    next: number;
  }
  const stack: Frame[] = [{ node: raw, children: [], next: 0 }];
  let result: Draft | undefined;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const kids = frame.node.children;
    if (frame.next < kids.length) {
      const child = kids[frame.next]!;
      if (consume) (kids as (RawNode | undefined)[])[frame.next] = undefined;
      frame.next++;
      if (child.token) {
        const made = leaf(child);
        if (made !== undefined) frame.children.push(made);
      } else {
        stack.push({ node: child, children: [], next: 0 });
      }
      continue;
    }
    stack.pop();
    const { node, children } = frame;
    const made: Draft | undefined =
      children.length === 0
        ? undefined
        : {
            kind: node.kind,
            flags: 0,
            start: children[0]!.start,
            end: children[children.length - 1]!.end,
            replacement: replacementOf(node),
            // Of the exact length (a pushed-to array has room for 16 more): most nodes have one child.
            children: children.slice(),
          };
    if (made !== undefined) transform.node(made);
    if (stack.length === 0) result = made;
    else if (made !== undefined) stack[stack.length - 1]!.children.push(made);
  }
  return result;
}

/** The root of an input without tokens: a node of the start rule that spans nothing. */
function emptyDraft(kind: string): Draft {
  return { kind, flags: 0, start: 0, end: 0, replacement: "", children: [] };
}

/**
 * The transforms, node by node, as the drafts are made (children first), so that a large tree's
 * squeezed-out chains never exist all at once: 586 KB of C parses into 1.4 M nodes, 0.5 M after
 * squeezing. The result is that of flattening the whole tree first and squeezing the flattened tree
 * after (Picireny's order): flattening a node looks at its children as they were before squeezing
 * (their kinds decide), and only then are they replaced by what they squeeze to. What a node
 * squeezes to depends on its own subtree alone, so deciding it early changes nothing.
 */
class Transformer {
  /** A squeezed node → the node that takes its place (itself not squeezed). */
  readonly #squeezedTo = new WeakMap<Draft, Draft>();

  constructor(private readonly transforms: TreeTransforms) {}

  /** Transforms a rule node whose children were made (and transformed) before it. */
  node(node: Draft): void {
    if (this.transforms.flattenRecursion) this.#flatten(node);
    if (this.transforms.squeeze) this.#squeeze(node);
  }

  /** What takes the place of the root. */
  result(root: Draft): Draft {
    return this.#squeezedTo.get(root) ?? root;
  }

  /**
   * Left recursion `r: r b | a` parses `a b1 b2` as r(r(r(a) b1) b2); this rewrites it to
   * r(a, (b1), (b2)), each tail a synthetic node with an empty replacement, so HDD can drop a tail
   * whole instead of replacing the nested rule by its (usually non-empty) minimal replacement. Right
   * recursion likewise. The children were flattened before.
   */
  #flatten(node: Draft): void {
    const kids = node.children;
    const tail = (children: Draft[]): Draft => {
      const made: Draft = {
        kind: node.kind,
        flags: SYNTHETIC,
        start: children[0]!.start,
        end: children[children.length - 1]!.end,
        replacement: "",
        children,
      };
      // A new node: squeezed like any other, before its parent.
      if (this.transforms.squeeze) this.#squeeze(made);
      return made;
    };
    if (
      kids.length > 1 &&
      !(kids[0]!.flags & TOKEN) &&
      kids[0]!.kind === node.kind &&
      !(kids[0]!.flags & SYNTHETIC)
    ) {
      node.children = [...kids[0]!.children, tail(kids.slice(1))];
    } else if (
      kids.length > 1 &&
      !(kids[kids.length - 1]!.flags & TOKEN) &&
      kids[kids.length - 1]!.kind === node.kind &&
      !(kids[kids.length - 1]!.flags & SYNTHETIC)
    ) {
      node.children = [tail(kids.slice(0, -1)), ...kids[kids.length - 1]!.children];
    } else if (kids.length === 1 && !(kids[0]!.flags & TOKEN) && kids[0]!.kind === node.kind) {
      node.children = kids[0]!.children; // a one-step chain of the same rule
    }
  }

  /**
   * Squeezing: the children give way to what they squeeze to, and a rule node whose only child has
   * the same replacement is the same candidate twice, so that child will take its place.
   */
  #squeeze(node: Draft): void {
    const squeezedTo = this.#squeezedTo;
    node.children = node.children.map((c) => squeezedTo.get(c) ?? c);
    const only = node.children.length === 1 ? node.children[0]! : undefined;
    if (only !== undefined && only.replacement === node.replacement) squeezedTo.set(node, only);
  }
}
