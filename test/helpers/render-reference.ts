/**
 * The renderer as it was before it copied runs of consecutive input bytes as one piece: a piece per
 * token and per gap, simple enough to read as the definition. test/tree/render-runs.test.ts checks
 * that src/tree/render.ts gives the same bytes on random edits.
 */
import type { EditView } from "../../src/tree/render.js";
import { alwaysSeparate, type GlueCheck } from "../../src/tree/raw.js";
import { concat, type Tree } from "../../src/tree/tree.js";

const SPACE = new Uint8Array([0x20]);
const decoder = new TextDecoder();

export function referenceRender(tree: Tree, edits: EditView, glue: GlueCheck = alwaysSeparate): Uint8Array {
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
