import { alwaysSeparate, type GlueCheck } from "./raw.js";
import type { TokenRanges } from "./token-ranges.js";
import { concat, type Tree } from "./tree.js";
import { lowerBound } from "./sorted-ids.js";

/** What a rendering asks of the edits: is a node removed, is it hoisted (replaced by a descendant)? */
export interface EditView {
  /** The node is replaced by its minimal replacement. */
  isRemoved(id: number): boolean;
  /** The descendant that takes the node's place, if it is hoisted. */
  hoistOf(id: number): number | undefined;
  /** What a removed node becomes, when not its minimal replacement (token deletion: nothing). */
  replacement?(id: number): Uint8Array;
  /** The input's tokens these edits remove (EditSet.removedTokens), where the view knows them. */
  removedTokens?(tree: Tree): TokenRanges;
  /**
   * The smallest id at least `from` of a node that is removed, hoisted or replaced (Infinity if
   * none): rendering copies the nodes before it as the input has them. A view without it has every
   * node walked.
   */
  nextEdited?(from: number): number;
}

export const NO_EDITS: EditView = {
  isRemoved: () => false,
  hoistOf: () => undefined,
  nextEdited: () => Infinity,
};

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
  // Input bytes [runStart, runEnd) not yet in `parts`: tokens that follow each other in the input
  // (with the hidden text between them) are copied as one piece, not a piece each (a large input
  // has hundreds of thousands of tokens; a piece each made rendering its slowest step).
  let runStart = 0;
  let runEnd = -1;
  // The previous piece: its node's kind, where it ended in the input (−1: new text), its text if new.
  let previousKind: string | undefined;
  let previousStart = -1;
  let previousEnd = -1;
  let previousText: Uint8Array | undefined;
  /** Hidden text that replaces the next token's own (set by a hoist). */
  let gapOverride: Uint8Array | undefined;

  const flush = (): void => {
    if (runEnd < 0) return;
    parts.push(input.subarray(runStart, runEnd));
    runEnd = -1;
  };
  /** Puts a space before `bytes` (of a node of `kind`, at `start` in the input or −1) if glue says so. */
  const separate = (bytes: () => Uint8Array, kind: string, start: number): void => {
    if (previousKind === undefined || (previousEnd >= 0 && previousEnd === start)) return;
    const left = previousText ?? input.subarray(previousStart, previousEnd);
    if (glue(decoder.decode(left), decoder.decode(bytes()), previousKind, kind)) {
      flush();
      parts.push(SPACE);
    }
  };
  /** The hidden text before the first token of `id`'s subtree. */
  const gapBefore = (id: number): Uint8Array => {
    let t = id;
    while (!tree.isToken(t)) t = tree.children(t)[0]!;
    return input.subarray(tree.gapStart(t), tree.start(t));
  };

  /** A kept token: its hidden text (or the pending override) and its text. */
  const token = (id: number): void => {
    const start = tree.start(id);
    const end = tree.end(id);
    const kind = tree.kind(id);
    if (gapOverride !== undefined) {
      if (gapOverride.length > 0) {
        flush();
        parts.push(gapOverride);
      } else separate(() => input.subarray(start, end), kind, start);
      gapOverride = undefined;
      flush();
      [runStart, runEnd] = [start, end];
    } else {
      const gapStart = tree.gapStart(id);
      if (gapStart === start) separate(() => input.subarray(start, end), kind, start);
      if (runEnd >= 0 && runEnd === gapStart) runEnd = end;
      else {
        flush();
        runStart = gapStart;
        runEnd = end;
      }
    }
    previousKind = kind;
    previousStart = start;
    previousEnd = end;
    previousText = undefined;
  };

  /**
   * The tokens [first, end) of an unedited run, as the input has them: after the first (which takes
   * any pending hidden text, or a space), each token's hidden text starts where the token before it
   * ends (tokens are never empty), so the rest extends the run to the end of the last token.
   */
  const tokenRange = (first: number, end: number): void => {
    if (end <= first) return;
    token(tree.tokens[first]!);
    if (end - 1 > first) {
      const t = tree.tokens[end - 1]!;
      runEnd = tree.end(t);
      [previousKind, previousStart, previousEnd] = [tree.kind(t), tree.start(t), runEnd];
    }
  };

  // Node ids, and token ranges [first, end) as the pair ~first, end (~first is negative).
  const stack: number[] = [0];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node < 0) {
      tokenRange(~node, stack.pop()!);
      continue;
    }
    let id = node;
    for (let h = edits.hoistOf(id); h !== undefined; h = edits.hoistOf(id)) id = h;
    if (id !== node) gapOverride ??= gapBefore(node);
    if (edits.isRemoved(id)) {
      const replacement = edits.replacement?.(id) ?? tree.replacement(id);
      // Either the replacement takes the pending hidden text, or (empty) it goes with the node.
      const gap = replacement.length > 0 ? (gapOverride ?? gapBefore(id)) : undefined;
      if (replacement.length > 0 || id !== node) gapOverride = undefined;
      if (gap === undefined) continue;
      if (gap.length > 0) {
        flush();
        parts.push(gap);
      } else separate(() => replacement, tree.kind(id), -1);
      flush();
      parts.push(replacement);
      [previousKind, previousEnd, previousText] = [tree.kind(id), -1, replacement];
      continue;
    }
    if (tree.isToken(id)) {
      token(id);
      continue;
    }
    const children = tree.children(id);
    if (edits.nextEdited === undefined) {
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
      continue;
    }
    // Runs of children without edits are copied as the input has them (a range of tokens); only
    // the children that hold an edit are walked. In document order, pushed last to first.
    const last = tree.lastDescendant(id);
    const items: number[] = [];
    for (let i = 0; i < children.length;) {
      const edited = edits.nextEdited(children[i]!);
      // The child that holds `edited`: the last one that starts at or before it (ids are integers).
      const j = edited > last ? children.length : lowerBound(children, edited + 1, i) - 1;
      if (j > i)
        items.push(
          ~tree.tokenIndex(children[i]!),
          tree.tokenIndex(j < children.length ? children[j]! : last + 1),
        );
      if (j < children.length) items.push(children[j]!);
      i = j + 1;
    }
    for (let i = items.length - 1; i >= 0; i--) stack.push(items[i]!);
  }
  if (runEnd >= 0 && runEnd === tree.trailingStart) runEnd = input.length;
  else {
    flush();
    [runStart, runEnd] = [tree.trailingStart, input.length];
  }
  flush();
  return concat(parts);
}
