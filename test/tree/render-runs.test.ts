/**
 * render() copies consecutive input bytes as one piece; the bytes must be those of the piece-by-piece
 * renderer it replaced (test/helpers/render-reference.ts), under any removals, hoists and
 * replacements, with every built-in language's glue check.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { BUILT_IN_LANGUAGES, TreeSitterFrontEnd } from "../../src/grammar/tree-sitter/index.js";
import { EditSet } from "../../src/tree/edits.js";
import { render, type EditView } from "../../src/tree/render.js";
import type { Tree } from "../../src/tree/tree.js";
import { SAMPLES } from "../grammar/tree-sitter-samples.js";
import { referenceRender } from "../helpers/render-reference.js";

/** A small seeded generator (mulberry32), so that every run tries the same edits. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random edits: each node removed with probability `p`, hoisted into a same-kind descendant with `p`. */
function randomEdits(tree: Tree, next: () => number, p: number): EditSet {
  let edits = EditSet.EMPTY;
  const removed: number[] = [];
  for (let id = 1; id < tree.size; id++) {
    const roll = next();
    if (roll < p) removed.push(id);
    else if (roll < 2 * p) {
      const below: number[] = [];
      for (let d = id + 1; d < tree.size && tree.isAncestorOrSelf(id, d); d++) {
        if (tree.kind(d) === tree.kind(id)) below.push(d);
      }
      if (below.length > 0) edits = edits.hoist(id, below[Math.floor(next() * below.length)]!);
    }
  }
  return edits.remove(removed);
}

for (const language of BUILT_IN_LANGUAGES) {
  test(`render() gives the reference renderer's bytes on random edits of the ${language} samples`, async () => {
    const frontEnd = await TreeSitterFrontEnd.load({ language });
    const next = random(23);
    for (const sample of SAMPLES[language]) {
      const { tree, glue } = frontEnd.parse(Buffer.from(sample));
      assert.equal(Buffer.from(render(tree, EditSet.EMPTY, glue)).toString(), sample, "untouched");
      assert.equal(Buffer.from(render(tree, undefined, glue)).toString(), sample, "no edits");
      for (let run = 0; run < 200; run++) {
        const p = [0.005, 0.02, 0.1, 0.3][run % 4]!;
        const edits = randomEdits(tree, next, p);
        // Removed tokens become nothing (the token pass's view), not their replacement; with and
        // without `nextEdited`, which lets render() copy runs of unedited nodes whole.
        const deleting = (edited: boolean): EditView => ({
          isRemoved: (id) => edits.isRemoved(id),
          hoistOf: (id) => edits.hoistOf(id),
          replacement: () => new Uint8Array(0),
          ...(edited ? { nextEdited: (from: number) => edits.nextEdited(from) } : {}),
        });
        const extra: number[] = [];
        for (let id = 1; id < tree.size; id++) if (next() < p) extra.push(id);
        const view: EditView = [edits, deleting(true), deleting(false), edits.withRemoved(extra)][
          Math.floor(run / 4) % 4
        ]!;
        assert.deepEqual(render(tree, view, glue), referenceRender(tree, view, glue), `run ${run}`);
      }
    }
  });
}
