/**
 * Token ranges (tree/token-ranges.ts) and EditSet.removedTokens: the tokens an edit set removes are
 * exactly those missing from a walk of the edited tree, whether computed from scratch or from the
 * edit set it was made from; union and covers agree with plain sets.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { EditSet } from "../../src/tree/edits.js";
import { covers, normalize, union, type TokenRanges } from "../../src/tree/token-ranges.js";
import { Tree } from "../../src/tree/tree.js";
import { parseToyJson } from "../helpers/toy-json.js";

const toSet = (r: TokenRanges): Set<number> => {
  const out = new Set<number>();
  for (let i = 0; i < r.length; i += 2) for (let t = r[i]!; t < r[i + 1]!; t++) out.add(t);
  return out;
};
const fromSet = (s: Set<number>): TokenRanges => normalize([...s].flatMap((t) => [t, t + 1]));
const sets = fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { maxLength: 25 }).map((a) => new Set(a));

test("token ranges: union and covers are those of sets", () => {
  fc.assert(
    fc.property(sets, sets, (a, b) => {
      const [ra, rb] = [fromSet(a), fromSet(b)];
      assert.deepEqual([...toSet(ra)].sort(), [...a].sort());
      assert.deepEqual(
        [...toSet(union(ra, rb))].sort((x, y) => x - y),
        [...new Set([...a, ...b])].sort((x, y) => x - y),
      );
      assert.equal(
        covers(ra, rb),
        [...b].every((t) => a.has(t)),
      );
      // Canonical: merged, sorted, no empty or touching ranges.
      for (let i = 0; i < ra.length; i += 2) {
        assert.ok(ra[i]! < ra[i + 1]!);
        if (i > 0) assert.ok(ra[i - 1]! < ra[i]!);
      }
    }),
  );
});

/** The nodes a walk of the edited tree reaches (as render and presentNodes walk it), in order. */
function presentNodes(tree: Tree, edits: EditSet): number[] {
  const present: number[] = [];
  const stack = [0];
  while (stack.length > 0) {
    let id = stack.pop()!;
    for (let h = edits.hoistOf(id); h !== undefined; h = edits.hoistOf(id)) id = h;
    if (edits.isRemoved(id)) continue;
    present.push(id);
    const kids = tree.children(id);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
  return present;
}

/** The token indices the edited tree no longer has. */
function missingTokens(tree: Tree, edits: EditSet): Set<number> {
  const present = new Set(presentNodes(tree, edits));
  const missing = new Set<number>();
  tree.tokens.forEach((id, index) => {
    if (!present.has(id)) missing.add(index);
  });
  return missing;
}

const doc = fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify({ v, w: [1, [2, [3]]] }));

/**
 * Applies `steps` to the tree as the tree passes do, to nodes still present (prune removes them,
 * hoisting replaces one by a present descendant); `ask` is called after each step.
 */
function apply(tree: Tree, steps: [boolean, number, number][], ask: (edits: EditSet) => void): EditSet {
  let edits = EditSet.EMPTY;
  for (const [hoist, a, b] of steps) {
    const present = presentNodes(tree, edits);
    if (present.length === 0) break;
    const node = present[a % present.length]!;
    if (!hoist) edits = edits.remove([node]);
    else {
      const below = present.filter((id) => id !== node && tree.isAncestorOrSelf(node, id));
      if (below.length === 0) continue;
      edits = edits.hoist(node, below[b % below.length]!);
    }
    ask(edits);
  }
  return edits;
}

test("EditSet.removedTokens: the tokens the edited tree no longer has, from scratch or derived", () => {
  fc.assert(
    fc.property(
      doc,
      fc.array(fc.tuple(fc.boolean(), fc.nat(), fc.nat()), { maxLength: 8 }),
      (text, steps) => {
        const tree = Tree.build(Buffer.from(text), parseToyJson(text));
        // Asked after every step, so that the next edit set derives its tokens from these.
        const edits = apply(tree, steps, (e) =>
          assert.deepEqual(toSet(e.removedTokens(tree)), missingTokens(tree, e)),
        );
        // The same edits, asked only at the end: from scratch.
        const fresh = apply(tree, steps, () => undefined);
        assert.deepEqual(fresh.removedTokens(tree), edits.removedTokens(tree));
        // A candidate of prune: some present nodes removed on top.
        const present = presentNodes(tree, edits);
        const extra = new Set(present.filter((_, i) => i % 3 === 1));
        const view = edits.withRemoved(extra);
        assert.deepEqual(toSet(view.removedTokens!(tree)), missingTokens(tree, edits.remove(extra)));
      },
    ),
  );
});
