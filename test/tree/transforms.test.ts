/**
 * Tree.build applies flattening and squeezing node by node, as it copies the raw tree (so that a
 * large tree's squeezed-out chains never exist at once). Its result must be that of the two passes as
 * Picireny orders them: flatten the whole tree, then squeeze the flattened tree. The reference below
 * is that order, written as plainly as possible, and random trees with few kinds and replacements
 * (so that recursion and chains are frequent) must come out the same.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import type { RawNode } from "../../src/tree/raw.js";
import { NO_TRANSFORMS, Tree, type TreeTransforms } from "../../src/tree/tree.js";

/** A node of the reference's result, and of a built tree read back. */
interface Shape {
  kind: string;
  token: boolean;
  synthetic: boolean;
  start: number;
  end: number;
  replacement: string;
  children: Shape[];
}

/** The reference: copy (dropping empty tokens and empty rules), flatten all, then squeeze all. */
function reference(raw: RawNode, transforms: TreeTransforms): Shape | undefined {
  const copy = (node: RawNode): Shape | undefined => {
    if (node.token) {
      return node.end > node.start
        ? { ...pick(node), token: true, synthetic: false, children: [] }
        : undefined;
    }
    const children = node.children.map(copy).filter((c): c is Shape => c !== undefined);
    if (children.length === 0) return undefined;
    return {
      kind: node.kind,
      token: false,
      synthetic: false,
      start: children[0]!.start,
      end: children[children.length - 1]!.end,
      replacement: node.replacement,
      children,
    };
  };
  const postOrder = (root: Shape): Shape[] => {
    const out: Shape[] = [];
    const walk = (n: Shape): void => {
      if (n.token) return;
      n.children.forEach(walk);
      out.push(n);
    };
    walk(root);
    return out;
  };
  const root = copy(raw);
  if (root === undefined) return undefined;
  if (transforms.flattenRecursion) {
    for (const node of postOrder(root)) {
      const kids = node.children;
      const tail = (children: Shape[]): Shape => ({
        kind: node.kind,
        token: false,
        synthetic: true,
        start: children[0]!.start,
        end: children[children.length - 1]!.end,
        replacement: "",
        children,
      });
      const first = kids[0];
      const last = kids[kids.length - 1];
      if (kids.length > 1 && !first!.token && first!.kind === node.kind && !first!.synthetic) {
        node.children = [...first!.children, tail(kids.slice(1))];
      } else if (kids.length > 1 && !last!.token && last!.kind === node.kind && !last!.synthetic) {
        node.children = [tail(kids.slice(0, -1)), ...last!.children];
      } else if (kids.length === 1 && !first!.token && first!.kind === node.kind) {
        node.children = first!.children;
      }
    }
  }
  if (!transforms.squeeze) return root;
  const replaced = new Map<Shape, Shape>();
  for (const node of postOrder(root)) {
    node.children = node.children.map((c) => replaced.get(c) ?? c);
    if (node.children.length === 1 && node.children[0]!.replacement === node.replacement) {
      replaced.set(node, node.children[0]!);
    }
  }
  return replaced.get(root) ?? root;
}

function pick(node: RawNode): Pick<Shape, "kind" | "start" | "end" | "replacement"> {
  return { kind: node.kind, start: node.start, end: node.end, replacement: node.replacement };
}

/** A built tree, read back as shapes. */
function shapeOf(tree: Tree, id = 0): Shape {
  return {
    kind: tree.kind(id),
    token: tree.isToken(id),
    synthetic: tree.isSynthetic(id),
    start: tree.start(id),
    end: tree.end(id),
    replacement: Buffer.from(tree.replacement(id)).toString(),
    children: [...tree.children(id)].map((c) => shapeOf(tree, c)),
  };
}

/**
 * A random raw tree over `length` bytes: rule kinds a–c, replacements "", "x", "y" (so parents and
 * children often share both), tokens in order, some of them empty.
 */
function randomRaw(seed: number): { raw: RawNode; input: Buffer } {
  let state = seed >>> 0 || 1;
  const next = (n: number): number => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % n;
  };
  let at = 0;
  const make = (depth: number): RawNode => {
    if (depth > 5 || next(4) === 0) {
      const start = at;
      at += next(5) === 0 ? 0 : 1 + next(2);
      return { kind: "T", token: true, start, end: at, removable: false, replacement: "t", children: [] };
    }
    // Mostly one child (chains), sometimes a few (lists).
    const count = next(3) === 0 ? 2 + next(3) : 1;
    const children = Array.from({ length: count }, () => make(depth + 1));
    return {
      kind: "abc"[next(3)]!,
      token: false,
      start: children[0]!.start,
      end: children[children.length - 1]!.end,
      removable: false,
      replacement: ["", "x", "y"][next(3)]!,
      children,
    };
  };
  const raw = make(0);
  return { raw, input: Buffer.alloc(at, "q") };
}

test("flattening and squeezing node by node give the tree of the two passes in Picireny's order", () => {
  const settings: TreeTransforms[] = [
    { ...NO_TRANSFORMS, flattenRecursion: true, squeeze: true },
    { ...NO_TRANSFORMS, flattenRecursion: true },
    { ...NO_TRANSFORMS, squeeze: true },
    NO_TRANSFORMS,
  ];
  let flattened = 0;
  let squeezed = 0;
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.boolean(), (seed, consume) => {
      for (const transforms of settings) {
        const { raw, input } = randomRaw(seed);
        const expected = reference(raw, transforms);
        const tree = Tree.build(input, randomRaw(seed).raw, transforms, undefined, consume);
        if (expected === undefined) {
          assert.equal(tree.size, 1, "no tokens: an empty root");
          continue;
        }
        const got = shapeOf(tree);
        assert.deepEqual(got, expected);
        if (transforms.flattenRecursion && JSON.stringify(got).includes('"synthetic":true')) flattened++;
        if (transforms.squeeze && tree.size < Tree.build(input, raw, NO_TRANSFORMS).size) squeezed++;
      }
    }),
    { numRuns: 400 },
  );
  // The trees exercise both transforms, not just trivial cases.
  assert.ok(flattened > 50, `${flattened} trees flattened`);
  assert.ok(squeezed > 100, `${squeezed} trees squeezed`);
});
