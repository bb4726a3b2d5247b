/** Shared by the front-ends: quantified groups of a rule node's children become removable units. */
import type { RawNode } from "../tree/raw.js";

/** A run of children [start, end) that one `?`, `*` or `+` of the grammar produced. */
export interface Group {
  readonly start: number;
  readonly end: number;
  readonly quantifier: string;
}

/**
 * Wraps each quantified group of children: a group of one child marks that child removable; a group
 * of several becomes a node of kind `<rule>:<quantifier>` (e.g. `obj:*` for `(',' pair)*`), removable
 * with replacement "". Groups are properly nested (inner ones close first).
 */
export function groupChildren(
  kids: readonly (RawNode | null)[],
  groups: readonly Group[],
  rule: string,
): RawNode[] {
  const sorted = [...groups].sort((a, b) => a.start - b.start || b.end - a.end);
  interface Frame {
    readonly end: number;
    readonly quantifier: string | null;
    readonly items: RawNode[];
  }
  const stack: Frame[] = [{ end: Infinity, quantifier: null, items: [] }];
  const finish = (): void => {
    const frame = stack.pop()!;
    const parent = stack[stack.length - 1]!.items;
    if (frame.items.length === 1) {
      parent.push({ ...frame.items[0]!, removable: true, replacement: "" });
    } else if (frame.items.length > 1) {
      parent.push({
        kind: `${rule}:${frame.quantifier}`,
        token: false,
        start: frame.items[0]!.start,
        end: frame.items[frame.items.length - 1]!.end,
        removable: true,
        replacement: "",
        children: frame.items,
      });
    }
  };
  let g = 0;
  for (let i = 0; i < kids.length; i++) {
    while (stack.length > 1 && stack[stack.length - 1]!.end <= i) finish();
    while (g < sorted.length && sorted[g]!.start === i) {
      stack.push({ end: sorted[g]!.end, quantifier: sorted[g]!.quantifier, items: [] });
      g++;
    }
    const kid = kids[i];
    if (kid) stack[stack.length - 1]!.items.push(kid);
  }
  while (stack.length > 1) finish();
  return stack[0]!.items;
}
