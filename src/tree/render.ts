import { alwaysSeparate, type GlueCheck } from "./raw.js";
import { concat, type Tree } from "./tree.js";

/** What a rendering asks of the edits: is a node removed, is it hoisted (replaced by a descendant)? */
export interface EditView {
  /** The node is replaced by its minimal replacement. */
  isRemoved(id: number): boolean;
  /** The descendant that takes the node's place, if it is hoisted. */
  hoistOf(id: number): number | undefined;
  /** What a removed node becomes, when not its minimal replacement (token deletion: nothing). */
  replacement?(id: number): Uint8Array;
}

export const NO_EDITS: EditView = { isRemoved: () => false, hoistOf: () => undefined };

const SPACE = new Uint8Array([0x20]);
const decoder = new TextDecoder();

/**
 * Renders `tree` with `edits` applied, to bytes:
 * - a kept token comes with the hidden text (whitespace, comments) that preceded it in the input, and
 *   the input's bytes after the last token are kept, so an untouched tree renders to the input;
 * - a removed node becomes its minimal replacement, after the hidden text before the node (an empty
 *   replacement takes that text away with it);
 * - a hoisted node becomes the descendant that replaces it, after the hidden text before the node;
 * - where two pieces meet with nothing between them that were not neighbours in the input, and
 *   `glue` says they would lex as something else (`int` `x` → `intx`), a single space goes between.
 */
export function render(tree: Tree, edits: EditView = NO_EDITS, glue: GlueCheck = alwaysSeparate): Uint8Array {
  if (tree.size === 0) return tree.input;
  const input = tree.input;
  const parts: Uint8Array[] = [];
  /**
   * The previous piece: its text and the kind of its node (for the glue check) and where it ended in
   * the input (−1: new text).
   */
  let previous: { bytes: Uint8Array; kind: string; end: number } | undefined;
  /** Hidden text that replaces the next token's own (set by a hoist). */
  let gapOverride: Uint8Array | undefined;

  const emit = (gap: Uint8Array, bytes: Uint8Array, kind: string, start: number, end: number): void => {
    if (bytes.length === 0) return;
    if (gap.length > 0) parts.push(gap);
    else if (
      previous !== undefined &&
      (previous.end < 0 || previous.end !== start) &&
      glue(decoder.decode(previous.bytes), decoder.decode(bytes), previous.kind, kind)
    ) {
      parts.push(SPACE);
    }
    parts.push(bytes);
    previous = { bytes, kind, end };
  };
  /** The hidden text before the first token of `id`'s subtree. */
  const gapBefore = (id: number): Uint8Array => {
    let t = id;
    while (!tree.isToken(t)) t = tree.children(t)[0]!;
    return input.subarray(tree.gapStart(t), tree.start(t));
  };

  const stack: number[] = [0];
  while (stack.length > 0) {
    const node = stack.pop()!;
    let id = node;
    for (let h = edits.hoistOf(id); h !== undefined; h = edits.hoistOf(id)) id = h;
    if (id !== node) gapOverride ??= gapBefore(node);
    if (edits.isRemoved(id)) {
      const gap = gapOverride ?? gapBefore(id);
      const replacement = edits.replacement?.(id) ?? tree.replacement(id);
      // Either the replacement takes the pending hidden text, or (empty) it goes with the node.
      if (replacement.length > 0 || id !== node) gapOverride = undefined;
      emit(gap, replacement, tree.kind(id), -1, -1);
      continue;
    }
    if (tree.isToken(id)) {
      const gap = gapOverride ?? input.subarray(tree.gapStart(id), tree.start(id));
      gapOverride = undefined;
      emit(gap, tree.text(id), tree.kind(id), tree.start(id), tree.end(id));
      continue;
    }
    const children = tree.children(id);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  parts.push(input.subarray(tree.trailingStart));
  return concat(parts);
}
