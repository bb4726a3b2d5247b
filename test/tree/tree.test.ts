/**
 * The tree model: built once from a front-end's parse tree, never changed; edits rendered on demand.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { EditSet } from "../../src/tree/edits.js";
import type { GlueCheck, RawNode } from "../../src/tree/raw.js";
import { render } from "../../src/tree/render.js";
import { NO_TRANSFORMS, Tree } from "../../src/tree/tree.js";
import { parseLeftList, parseToyJson } from "../helpers/toy-json.js";

const text = (b: Uint8Array): string => Buffer.from(b).toString();
const build = (s: string, transforms = NO_TRANSFORMS): Tree =>
  Tree.build(Buffer.from(s), parseToyJson(s), transforms);
/** Word characters glue to word characters; nothing else glues. */
const words: GlueCheck = (a, b) => /\w$/.test(a) && /^\w/.test(b);

/** Random JSON with random whitespace (and non-ASCII strings) between tokens. */
const jsonText = fc
  .jsonValue({ maxDepth: 3 })
  .chain((v) =>
    fc
      .constantFrom("", " ", "\n  ", "\t")
      .map((ws) => JSON.stringify(v, null, 1).replace(/\n\s*/g, `\n${ws}`)),
  );

test("an untouched tree renders to the input byte for byte, with and without transforms", () => {
  fc.assert(
    fc.property(jsonText, fc.boolean(), (s, transforms) => {
      const tree = Tree.build(Buffer.from(s), parseToyJson(s), transforms ? undefined : NO_TRANSFORMS);
      assert.equal(text(render(tree)), s);
    }),
    { numRuns: 200 },
  );
});

test("a tree built consuming its raw tree is the same tree, and the raw tree is emptied as it is copied", () => {
  fc.assert(
    fc.property(jsonText, fc.boolean(), (s, transforms) => {
      const options = transforms ? undefined : NO_TRANSFORMS;
      const kept = Tree.build(Buffer.from(s), parseToyJson(s), options);
      const raw = parseToyJson(s);
      const consumed = Tree.build(Buffer.from(s), raw, options, undefined, true);
      assert.equal(consumed.size, kept.size);
      for (let id = 0; id < kept.size; id++) {
        assert.deepEqual(
          [
            consumed.kind(id),
            consumed.start(id),
            consumed.end(id),
            consumed.replacement(id),
            [...consumed.children(id)],
          ],
          [kept.kind(id), kept.start(id), kept.end(id), kept.replacement(id), [...kept.children(id)]],
        );
      }
      // What it held is left to the garbage collector: no child is reachable from the root any more.
      assert.ok(raw.children.every((child) => child === undefined));
    }),
    { numRuns: 100 },
  );
});

test("nodes know their kind, span, children, depth and replacement", () => {
  const tree = build('{"a": [1, 2]}');
  assert.equal(tree.kind(0), "json");
  const tokens = [...tree.tokens].map((t) => `${tree.kind(t)}:${text(tree.text(t))}`);
  assert.deepEqual(tokens, ["{:{", 'STRING:"a"', ":::", "[:[", "NUMBER:1", ",:,", "NUMBER:2", "]:]", "}:}"]);
  const object = tree.children(tree.children(0)[0]!)[0]!;
  assert.equal(tree.kind(object), "object");
  assert.equal(text(tree.replacement(object)), "{}");
  assert.equal(text(tree.text(object)), '{"a": [1, 2]}');
  const pair = tree.children(object)[1]!;
  assert.equal(tree.kind(pair), "pair");
  assert.ok(tree.isRemovable(pair), "a pair stems from `?`/`*`: empty replacement");
  assert.equal(tree.depth(pair), tree.depth(object) + 1);
  assert.equal(tree.parent(pair), object);
});

test("a removed node becomes its minimal replacement; an empty one takes the hidden text before it along", () => {
  const s = '{"a": [1, 2, 3], "b": true}';
  const tree = build(s);
  const find = (kind: string, str: string): number => {
    for (let id = 0; id < tree.size; id++)
      if (tree.kind(id) === kind && text(tree.text(id)) === str) return id;
    throw new Error(`${kind} ${str} not found`);
  };
  const second = find("value", "2");
  const comma = tree.tokens.find((t) => text(tree.text(t)) === "," && tree.start(t) === s.indexOf(", 2"))!;
  assert.equal(text(render(tree, EditSet.EMPTY.remove([second, comma]), words)), '{"a": [1, 3], "b": true}');
  const array = find("value", "[1, 2, 3]");
  assert.equal(text(render(tree, EditSet.EMPTY.remove([array]), words)), '{"a": 0, "b": true}', "value → 0");
  const arr = find("array", "[1, 2, 3]");
  assert.equal(text(render(tree, EditSet.EMPTY.remove([arr]), words)), '{"a": [], "b": true}', "array → []");
});

test("where a removal makes two tokens meet, a space goes between them only if they would glue", () => {
  const s = "[true,false,1]";
  const tree = build(s);
  const commas = [...tree.tokens].filter((t) => tree.kind(t) === ",");
  // "true" and "false" meet: words glue, so a space; "false" and "1" too.
  assert.equal(text(render(tree, EditSet.EMPTY.remove(commas), words)), "[true false 1]");
  assert.equal(
    text(render(tree, EditSet.EMPTY.remove(commas), () => false)),
    "[truefalse1]",
    "a lexer that says no",
  );
  // Without a lexer's answer, every new meeting is separated; old neighbours never are.
  const values = [...tree.tokens].filter((t) => tree.kind(t) === "false");
  assert.equal(text(render(tree, EditSet.EMPTY.remove([commas[0]!, tree.parent(values[0]!)]))), "[true ,1]");
});

test("hoisting puts a descendant in a node's place, after the hidden text before the node", () => {
  const s = '{"k":   [ {"deep": 1} ]}';
  const tree = build(s);
  let outer = -1;
  let inner = -1;
  for (let id = 0; id < tree.size; id++) {
    if (tree.kind(id) === "value" && text(tree.text(id)) === '[ {"deep": 1} ]') outer = id;
    if (tree.kind(id) === "value" && text(tree.text(id)) === '{"deep": 1}') inner = id;
  }
  assert.ok(tree.isAncestorOrSelf(outer, inner));
  assert.equal(text(render(tree, EditSet.EMPTY.hoist(outer, inner), words)), '{"k":   {"deep": 1}}');
  const root = tree.children(0)[0]!;
  assert.equal(text(render(tree, EditSet.EMPTY.hoist(root, inner), words)), '{"deep": 1}');
});

test("squeeze: a chain of nodes with the same replacement is one node", () => {
  const raw: RawNode = {
    kind: "a",
    token: false,
    start: 0,
    end: 1,
    removable: false,
    replacement: "x",
    children: [
      {
        kind: "b",
        token: false,
        start: 0,
        end: 1,
        removable: false,
        replacement: "x",
        children: [
          { kind: "ID", token: true, start: 0, end: 1, removable: false, replacement: "y", children: [] },
        ],
      },
    ],
  };
  const plain = Tree.build(Buffer.from("q"), raw, NO_TRANSFORMS);
  const squeezed = Tree.build(Buffer.from("q"), raw, { ...NO_TRANSFORMS, squeeze: true });
  assert.equal(plain.size, 3);
  assert.equal(squeezed.size, 2, "a and b had the same replacement: one of them is enough");
  assert.equal(squeezed.kind(0), "b");
  assert.equal(text(render(squeezed)), "q");
});

test("flatten recursion: a left-recursive list becomes one list whose tails can go whole", () => {
  const s = "a, b, c, d";
  const nested = Tree.build(Buffer.from(s), parseLeftList(s), NO_TRANSFORMS);
  assert.equal(nested.maxDepth, 4, "list(list(list(list(a) , b) , c) , d)");
  const flat = Tree.build(Buffer.from(s), parseLeftList(s), { ...NO_TRANSFORMS, flattenRecursion: true });
  assert.equal(flat.maxDepth, 2);
  const kids = [...flat.children(0)];
  assert.deepEqual(
    kids.map((k) => text(flat.text(k))),
    ["a", ", b", ", c", ", d"],
  );
  const tails = kids.slice(1);
  assert.ok(tails.every((t) => flat.isSynthetic(t) && flat.isRemovable(t)));
  assert.equal(text(render(flat, EditSet.EMPTY.remove([tails[0]!, tails[2]!]), words)), "a, c");
  assert.equal(text(render(flat)), s);
});

test("skip unremovable: nodes that already read as their replacement are hidden", () => {
  const tree = Tree.build(Buffer.from('{"a": 0, "b": {}}'), parseToyJson('{"a": 0, "b": {}}'));
  const fixed = [];
  for (let id = 0; id < tree.size; id++) if (tree.isFixed(id)) fixed.push(text(tree.text(id)));
  assert.ok(fixed.includes("0"), "the value 0 is its own replacement");
  assert.ok(fixed.includes("{}"), "and so is the empty object");
  assert.ok(fixed.includes("{"), "and the brace tokens");
  assert.ok(!fixed.includes('"b": {}'), "a pair can still go");
});

test("a very deep tree is built and rendered without recursion", () => {
  const depth = 50_000;
  const s = "[".repeat(depth) + "]".repeat(depth);
  // Nested arrays, built inside out (the toy parser itself recurses).
  const tok = (at: number, kind: string): RawNode => ({
    kind,
    token: true,
    start: at,
    end: at + 1,
    removable: false,
    replacement: kind,
    children: [],
  });
  let node: RawNode | undefined;
  for (let d = depth - 1; d >= 0; d--) {
    const children = [tok(d, "["), ...(node ? [node] : []), tok(2 * depth - 1 - d, "]")];
    node = {
      kind: "array",
      token: false,
      start: d,
      end: 2 * depth - d,
      removable: false,
      replacement: "[]",
      children,
    };
  }
  const tree = Tree.build(Buffer.from(s), node!);
  assert.equal(tree.maxDepth, depth);
  assert.equal(text(render(tree)), s);
  const inner = tree.children(0)[1]!;
  assert.equal(tree.kind(inner), "array");
  assert.equal(text(render(tree, EditSet.EMPTY.remove([inner]), words)), "[[]]");
});
