/**
 * The biggest phase: a max-heap of the tree's nodes by size, the largest tried first, with the small
 * toy JSON front-end.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { reduce } from "../../src/index.js";
import { parsePhase, treePass, type TreeFrontEnd } from "../../src/hdd/phases.js";
import { BIGGEST_MIN_BYTES, BIGGEST_STOP_FRACTION } from "../../src/hdd/biggest.js";
import type { GlueCheck } from "../../src/tree/raw.js";
import { Tree } from "../../src/tree/tree.js";
import { parseToyJson } from "../helpers/toy-json.js";

const words: GlueCheck = (a, b) => /[\w"]$/.test(a) && /^[\w"]/.test(b);
const toyJson: TreeFrontEnd = {
  parse: (input) => ({ tree: Tree.build(input, parseToyJson(Buffer.from(input).toString())), glue: words }),
};
const text = (b: Uint8Array): string => Buffer.from(b).toString();
const squash = (s: string): string => s.replace(/\s/g, "");

/** An array of `n` strings "tag0", "tag1", …: about 8 bytes an item. */
const items = (tag: string, n: number): string =>
  `[${Array.from({ length: n }, (_, i) => `"${tag}${i}"`).join(", ")}]`;
const A1 = items("a", 20); // 180 bytes, holds "a7"
const A2 = items("x", 12); // 100 bytes
const B = items("b", 14); // 120 bytes
const C = items("c", 4); // 30 bytes: below the stop size
const INPUT = `[[${A1}, ${A2}], ${B}, ${C}]`;

/** Runs the biggest phase alone; returns the result and the candidates the phase tested, in order. */
async function run(
  interesting: (s: string) => boolean,
  jobs = 1,
  delay?: () => number,
): Promise<{ output: string; tried: string[] }> {
  const tried: string[] = [];
  const result = await reduce(
    Buffer.from(INPUT),
    async (c) => {
      const s = text(c);
      if (s !== INPUT && s !== "") tried.push(s);
      if (delay) await new Promise((resolve) => setTimeout(resolve, delay()));
      return interesting(s);
    },
    { pipeline: [treePass(parsePhase("biggest"), toyJson)], jobs },
  );
  assert.equal(result.kind, "done");
  return { output: text(result.output), tried };
}

test("biggest tries the largest node first, descends into an uninteresting one, commits interesting ones", async () => {
  assert.ok(C.length < BIGGEST_MIN_BYTES && A2.length > BIGGEST_MIN_BYTES);
  const { output, tried } = await run((s) => s.includes('"a7"'));
  assert.deepEqual(
    tried.map(squash),
    [
      // The whole array (its replacement `[]`), then A (A1 and A2): removed, then its array emptied.
      "[]",
      `[,${B},${C}]`,
      `[[],${B},${C}]`,
      // A's children next, the larger A1 first (uninteresting, either way), then B, then A2.
      `[[,${A2}],${B},${C}]`,
      `[[[],${A2}],${B},${C}]`,
      `[[${A1},${A2}],,${C}]`,
      `[[${A1},],,${C}]`,
    ].map(squash),
  );
  // C is smaller than the stop size: left to the phases that follow, as are A1's items.
  assert.equal(squash(output), squash(`[[${A1},],,${C}]`));
});

test("biggest says, each round, the largest node it has left to try and where it stops", async () => {
  const frontiers: { largest: number; stop: number }[] = [];
  await reduce(Buffer.from(INPUT), (c) => text(c).includes('"a7"'), {
    pipeline: [treePass(parsePhase("biggest"), toyJson)],
    jobs: 1,
    onEvent: (e) => {
      if (e.type === "frontier") frontiers.push({ largest: e.largest, stop: e.stop });
    },
  });
  assert.ok(frontiers.length > 0);
  // The first round starts from the whole array; the largest left only shrinks; the stop is the
  // minimum here (the input is small), and the rounds end before the largest falls under it.
  assert.equal(frontiers[0]!.largest, Buffer.byteLength(INPUT));
  for (let i = 1; i < frontiers.length; i++) assert.ok(frontiers[i]!.largest <= frontiers[i - 1]!.largest);
  for (const f of frontiers) {
    assert.equal(f.stop, BIGGEST_MIN_BYTES);
    assert.ok(f.largest >= f.stop);
  }
});

test("biggest replaces nothing when every large node is needed, and tests only nodes above the stop size", async () => {
  const { output, tried } = await run((s) => s.includes('"a7"') && s.includes('"b3"') && s.includes('"x1"'));
  assert.equal(output, INPUT);
  // The whole array, then A, A1, B and A2 each removed and then emptied to `[]`: nothing below the
  // stop size (C, the items).
  assert.equal(tried.length, 9);
  assert.ok(tried.every((s) => s === "[]" || s.includes('"c0"')));
});

test("biggest: parallel jobs test the same candidates in the same order and commit the same result", async () => {
  const sequential = await run((s) => s.includes('"a7"'));
  for (let k = 0; k < 3; k++) {
    const parallel = await run(
      (s) => s.includes('"a7"'),
      4,
      () => Math.random() * 5,
    );
    assert.equal(parallel.output, sequential.output);
    // Every candidate of the sequential run was tested in the parallel one too (some more, ahead).
    for (const candidate of sequential.tried) assert.ok(parallel.tried.includes(candidate), candidate);
  }
});

test("biggest stops at 1/BIGGEST_STOP_FRACTION of the input when that is above the minimum", async () => {
  // 100 strings of 2 KB: the stop size is then about 200 bytes, and Y (about 100) is below it.
  const filler = `[${Array.from({ length: 100 }, (_, i) => `"f${i}-${"-".repeat(2000)}"`).join(", ")}]`;
  const Y = items("y", 12);
  const input = `[${filler}, ${Y}]`;
  assert.ok(Y.length > BIGGEST_MIN_BYTES && Y.length < input.length / BIGGEST_STOP_FRACTION);
  const tried: string[] = [];
  const needsAll = (s: string): boolean =>
    Array.from({ length: 100 }, (_, i) => `"f${i}-`).every((f) => s.includes(f));
  const result = await reduce(
    Buffer.from(input),
    (c) => {
      const s = text(c);
      if (s !== input && s !== "") tried.push(s);
      return needsAll(s);
    },
    { pipeline: [treePass(parsePhase("biggest"), toyJson)], jobs: 1 },
  );
  assert.equal(text(result.output), input);
  // The whole array, the filler removed and emptied, then each string removed and emptied; Y never.
  assert.equal(tried.length, 3 + 200);
  assert.ok(tried.every((s) => s === "[]" || s.includes('"y0"')));
});
