/**
 * What a user can tell the tree passes: replacements, hoisting compatibility; and the token pass and
 * the tree description.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { reduce } from "../../src/index.js";
import { compatibilityTable } from "../../src/hdd/compatibility.js";
import { parsePhase, treePass, type TreeFrontEnd } from "../../src/hdd/phases.js";
import { ddminTokens } from "../../src/passes/tokens.js";
import { describeTree, describeTreeChunks, treeJson, treeJsonChunks } from "../../src/tree/describe.js";
import type { GlueCheck } from "../../src/tree/raw.js";
import { Replacements } from "../../src/tree/replacements.js";
import { ALL_TRANSFORMS, Tree } from "../../src/tree/tree.js";
import { parseToyJson } from "../helpers/toy-json.js";

const words: GlueCheck = (a, b) => /[\w"]$/.test(a) && /^[\w"]/.test(b);
const text = (b: Uint8Array): string => Buffer.from(b).toString();
const frontEnd = (replacements?: Replacements): TreeFrontEnd => ({
  parse: (input) => ({
    tree: Tree.build(input, parseToyJson(text(input)), ALL_TRANSFORMS, replacements),
    glue: words,
  }),
});

test("a replacements file, as JSON or as `rule: text` lines, overrides derived replacements but never an empty one", () => {
  const lines = Replacements.parse("# mine\nvalue: null\n\narray: [0]\n");
  const json = Replacements.parse('{"value": "null", "array": "[0]"}');
  for (const r of [lines, json]) {
    assert.equal(r.apply("value", "0"), "null");
    assert.equal(r.apply("array", "[]"), "[0]");
    assert.equal(r.apply("object", "{}"), "{}", "no entry: the derived one");
    assert.equal(r.apply("value", ""), "", "an empty replacement stays empty");
  }
  assert.throws(() => Replacements.parse("value = 0"), /line 1: expected "rule: text"/);
  assert.throws(() => Replacements.parse('{"value": 0}'), /must be a string/);
  const tree = Tree.build(Buffer.from("[1, [2]]"), parseToyJson("[1, [2]]"), ALL_TRANSFORMS, lines);
  const values = [];
  for (let id = 0; id < tree.size; id++)
    if (tree.kind(id) === "array") values.push(text(tree.replacement(id)));
  assert.ok(values.includes("[0]"));
});

test("replacements change what HDD puts in place of a removed node", async () => {
  const interesting = (c: Uint8Array): boolean => {
    try {
      JSON.parse(text(c));
    } catch {
      return false;
    }
    return /"keep"/.test(text(c)) && /^\{"a":/.test(text(c).replace(/\s/g, ""));
  };
  const result = await reduce(Buffer.from('{"a": [1, 2, 3], "b": "keep"}'), interesting, {
    pipeline: [treePass(parsePhase("prune*"), frontEnd(Replacements.parse("value: null")))],
    jobs: 1,
  });
  assert.equal(text(result.output).replace(/\s/g, ""), '{"a":null,"":"keep"}');
});

test("a compatibility table lets hoisting replace a node by a descendant of another kind", () => {
  const source = "pair: value\n";
  const compatible = compatibilityTable(source);
  assert.deepEqual(
    compatibilityTable(JSON.stringify({ pair: ["value"] }))(
      Tree.build(Buffer.from('{"k": 1}'), parseToyJson('{"k": 1}')),
      2,
      2,
    ),
    true,
  );
  assert.throws(() => compatibilityTable("pair = value"), /line 1/);
  const tree = Tree.build(Buffer.from('{"k": 1}'), parseToyJson('{"k": 1}'));
  const kinds = Array.from({ length: tree.size }, (_, id) => tree.kind(id));
  const pair = kinds.indexOf("pair");
  const value = kinds.lastIndexOf("value");
  assert.ok(compatible(tree, pair, value), "pair → value by the table");
  assert.ok(!compatible(tree, value, pair), "not the other way round");
});

test("the token pass deletes whole tokens and keeps the output lexable", async () => {
  const result = await reduce(
    Buffer.from("[1, 22, 333, 4444]"),
    (c) => text(c).includes("333") && text(c).startsWith("["),
    { pipeline: [ddminTokens(frontEnd())], jobs: 1 },
  );
  // A kept token keeps the hidden text before it: characters are the next pass's business.
  assert.equal(text(result.output), "[ 333");
  assert.ok(result.stats.passes["ddmin:token"]!.tests > 0);
});

test("the tree description shows kinds, spans, replacements and marks, as text and as JSON", () => {
  const tree = Tree.build(Buffer.from('{"a": 0}'), parseToyJson('{"a": 0}'));
  const lines = describeTree(tree).trimEnd().split("\n");
  assert.equal(lines.length, tree.size);
  // json: value has one child with the same replacement: squeezed into it.
  assert.match(lines[0]!, /^value \[0,8\) "\{\\"a\\": 0\}" → "0"$/);
  assert.ok(
    lines.some((l) => /^\s+pair \[1,7\) "\\"a\\": 0" removable$/.test(l)),
    lines.join("\n"),
  );
  assert.ok(
    lines.some((l) => /NUMBER \[6,7\) "0" → "0" fixed$/.test(l)),
    lines.join("\n"),
  );
  const json = treeJson(tree);
  assert.equal(json.kind, "value");
  assert.equal(json.children.length, 1);
  const stack = [json];
  let tokens = 0;
  while (stack.length) {
    const n = stack.pop()!;
    if (n.token) tokens++;
    stack.push(...n.children);
  }
  assert.equal(tokens, tree.tokens.length);
});

test("the description in pieces is the same text, and so is the JSON written without recursion", () => {
  const source = `{"a": [1, {"b": "${"é".repeat(100)}"}, [[[2]]]], "c": {"d": null}}`;
  const tree = Tree.build(Buffer.from(source), parseToyJson(source));
  assert.equal([...treeJsonChunks(tree)].join(""), JSON.stringify(treeJson(tree)));
  assert.equal([...describeTreeChunks(tree)].join(""), describeTree(tree));
  // A long text is shown by its start, 38 characters of it as JSON and an ellipsis, whatever its
  // length in bytes.
  assert.ok(describeTree(tree).includes(`STRING [16,218) "\\"${"é".repeat(35)}…"`), describeTree(tree));
});

test("a tree pass that changes nothing hands its tree to the next, which does not parse again", async () => {
  let parses = 0;
  const counting = frontEnd();
  const counted: TreeFrontEnd = {
    parse: (input) => {
      parses++;
      return counting.parse(input);
    },
  };
  const input = Buffer.from('{"a": [1, 2, 3], "b": "keep"}');
  const pipeline = [treePass(parsePhase("chain"), counted), treePass(parsePhase("coarse"), counted)];
  const result = await reduce(input, (c) => text(c).includes("keep"), { pipeline, jobs: 1 });
  assert.equal(result.stats.passes["hdd:chain"]?.tests ?? 0, 0); // no chain of 8 here
  assert.ok(result.stats.passes["hdd:coarse"]!.tests > 0);
  assert.equal(parses, 1);
  // A pass that changed the input leaves nothing: the next one parses its own input.
  parses = 0;
  await reduce(input, (c) => text(c).includes("keep"), {
    pipeline: [treePass(parsePhase("coarse"), counted), treePass(parsePhase("coarse"), counted)],
    jobs: 1,
  });
  assert.equal(parses, 2);
});
