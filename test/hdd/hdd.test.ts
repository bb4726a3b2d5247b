/**
 * HDD, HDD*, coarse HDD, HDDr and hoisting over the tree model, with a small JSON front-end.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { reduce, type ReductionEvent } from "../../src/index.js";
import { parsePhase, treePass, type TreeFrontEnd } from "../../src/hdd/phases.js";
import { EditSet } from "../../src/tree/edits.js";
import type { GlueCheck } from "../../src/tree/raw.js";
import { render } from "../../src/tree/render.js";
import { Tree } from "../../src/tree/tree.js";
import type { Pass } from "../../src/passes/pass.js";
import { parseToyJson } from "../helpers/toy-json.js";

const words: GlueCheck = (a, b) => /[\w"]$/.test(a) && /^[\w"]/.test(b);
const toyJson: TreeFrontEnd = {
  parse: (input) => ({ tree: Tree.build(input, parseToyJson(Buffer.from(input).toString())), glue: words }),
};
const phases = (...names: string[]): Pass[] => names.map((n) => treePass(parsePhase(n), toyJson));
const text = (b: Uint8Array): string => Buffer.from(b).toString();

/** The shared json-obj-arr-87 case's oracle: valid JSON whose value still shows 87. */
const shows87 = (c: Uint8Array): boolean => {
  try {
    return JSON.stringify(JSON.parse(text(c))).includes("87");
  } catch {
    return false;
  }
};
const OBJ_ARR_87 = '{\n    "foo": "bar",\n    "baz": [ 6, 7, 12, 31, 77, 87 ]\n}\n';

/** Removing any single present node (by its replacement) makes the result uninteresting. */
function assertOneTreeMinimal(output: Uint8Array, interesting: (c: Uint8Array) => boolean): void {
  const { tree, glue } = toyJson.parse(output);
  for (let id = 0; id < tree.size; id++) {
    if (tree.isFixed(id)) continue;
    const candidate = render(tree, EditSet.EMPTY.remove([id]), glue);
    if (Buffer.compare(Buffer.from(candidate), Buffer.from(output)) === 0) continue;
    assert.ok(
      !interesting(candidate),
      `removing ${tree.kind(id)} ${JSON.stringify(text(tree.text(id)))} keeps it interesting`,
    );
  }
}

test("HDD* on json-obj-arr-87 reaches a 1-tree-minimal result", async () => {
  const result = await reduce(Buffer.from(OBJ_ARR_87), shows87, { pipeline: phases("prune*"), jobs: 1 });
  assert.equal(result.kind, "done");
  assert.equal(text(result.output).replace(/\s/g, ""), '{"":[87]}');
  assertOneTreeMinimal(result.output, shows87);
});

test("with hoisting (HOIST*+HDD*, HDDH*) the result is the number itself", async () => {
  for (const pipeline of [phases("hoist*", "prune*"), phases("prune+hoist*")]) {
    const result = await reduce(Buffer.from(OBJ_ARR_87), shows87, { pipeline, jobs: 1 });
    assert.equal(result.kind, "done");
    assert.equal(text(result.output).trim(), "87");
  }
});

test("a single-node level is tried by removing it alone (the empty configuration)", async () => {
  const events: ReductionEvent[] = [];
  const result = await reduce(Buffer.from("[1, [2, 3], 4]"), (c) => text(c).includes("4"), {
    pipeline: phases("prune"),
    jobs: 1,
    onEvent: (e) => events.push(e),
  });
  assert.ok(events.some((e) => e.type === "test-start" && e.label.kind === "empty"));
  assert.equal(text(result.output).replace(/\s/g, ""), "[4]");
});

test("coarse HDD removes only nodes with an empty replacement", async () => {
  const result = await reduce(Buffer.from('{"a": [1, 2], "b": 3}'), (c) => text(c).includes("2"), {
    pipeline: phases("coarse*"),
    jobs: 1,
  });
  // The pair "b" (from `*`) and the array item 1 can go; no value is replaced by 0.
  assert.equal(text(result.output).replace(/\s/g, ""), '{"a":[2]}');
});

test("HDDr, breadth-first and depth-first, forward and reversed, reaches the same 1-tree-minimal kind of result", async () => {
  for (const algorithm of ["hddr*", "hddr-rev*", "hddr-dfs*", "hddr-dfs-rev*"]) {
    const result = await reduce(Buffer.from(OBJ_ARR_87), shows87, { pipeline: phases(algorithm), jobs: 1 });
    assert.equal(text(result.output).replace(/\s/g, ""), '{"":[87]}', algorithm);
    assertOneTreeMinimal(result.output, shows87);
  }
});

test("level events say the phase, the level, the tree's levels, its node count and the size in tokens", async () => {
  const events: ReductionEvent[] = [];
  await reduce(Buffer.from(OBJ_ARR_87), shows87, {
    pipeline: phases("prune*"),
    jobs: 1,
    onEvent: (e) => events.push(e),
  });
  const levels = events.filter((e) => e.type === "level");
  assert.ok(levels.length >= 4);
  // The size in tokens: all of the input's at the start, never growing, and at the end of the last
  // iteration (which changes nothing) the tokens of the result.
  const inputTree = toyJson.parse(Buffer.from(OBJ_ARR_87)).tree;
  const inputTokens = inputTree.tokens.length;
  assert.deepEqual(levels[0], {
    type: "level",
    pass: "hdd:prune*",
    iteration: 0,
    level: 0,
    nodes: 1,
    tokens: inputTokens,
    levels: inputTree.maxDepth + 1,
  });
  assert.ok(levels.every((e) => e.nodes > 0));
  // "level k of n": the levels of the best's tree now, never fewer than the level worked on.
  assert.ok(
    levels.every((e) => e.levels !== undefined && e.level < e.levels && e.levels <= inputTree.maxDepth + 1),
  );
  const tokens = levels.map((e) => e.tokens);
  assert.ok(
    tokens.every((n, i) => i === 0 || n <= tokens[i - 1]!),
    tokens.join(" "),
  );
  assert.ok(tokens.at(-1)! < inputTokens);
  assert.ok(
    events.some((e) => e.type === "test-start" && e.pass === "hdd:prune*" && e.label.level !== undefined),
  );
});

/** Random JSON with a target number somewhere, and an oracle that wants it and valid JSON. */
const documents = fc
  .jsonValue({ maxDepth: 3 })
  .map((v) => JSON.stringify({ data: v, more: [1, { target: 4242 }, "x"] }, null, 1));
const wants4242 = (c: Uint8Array): boolean => {
  try {
    return JSON.stringify(JSON.parse(text(c))).includes("4242");
  } catch {
    return false;
  }
};

test("properties: results are interesting, HDD* results are 1-tree-minimal, hoisting never grows a result, jobs do not change results", async () => {
  await fc.assert(
    fc.asyncProperty(documents, async (doc) => {
      const input = Buffer.from(doc);
      const hdd = await reduce(input, wants4242, { pipeline: phases("prune*"), jobs: 1 });
      assert.ok(wants4242(hdd.output));
      assertOneTreeMinimal(hdd.output, wants4242);
      const hoisted = await reduce(input, wants4242, { pipeline: phases("hoist*", "prune*"), jobs: 1 });
      assert.ok(wants4242(hoisted.output));
      assert.ok(hoisted.output.length <= hdd.output.length, "hoisting first never ends larger");
      const hddh = await reduce(input, wants4242, { pipeline: phases("prune+hoist*"), jobs: 1 });
      const parallel = await reduce(input, wants4242, { pipeline: phases("prune+hoist*"), jobs: 8 });
      assert.equal(text(parallel.output), text(hddh.output), "jobs 8 gives the jobs 1 result");
    }),
    { numRuns: 40 },
  );
});
