/**
 * The hang memory of the tree passes (hdd/hang-memory.ts): a candidate that removes every token a
 * timed-out candidate of the same pass removed is taken for a timeout without a test, across levels,
 * hoisting's scans and a phase's iterations, until an interesting candidate that removes as much is
 * committed.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { reduce, type ReductionEvent } from "../../src/index.js";
import { HANG_MEMORY_SIZE, HangMemory, isLoopKind, loopsAround } from "../../src/hdd/hang-memory.js";
import { parsePhase, treePass, type TreeFrontEnd } from "../../src/hdd/phases.js";
import type { Outcome } from "../../src/outcome.js";
import type { GlueCheck } from "../../src/tree/raw.js";
import { normalize, subtreeTokens, union } from "../../src/tree/token-ranges.js";
import { Tree } from "../../src/tree/tree.js";
import { parseToyJson } from "../helpers/toy-json.js";
import { frontEnd } from "../helpers/passes.js";

const ranges = (...pairs: number[]) => normalize(pairs);

test("hang memory: predicts what removes all a timed-out candidate removed; a commit lifts it", () => {
  const memory = new HangMemory();
  assert.equal(memory.predicts(ranges(0, 100)), false);
  memory.record(ranges(3, 5));
  assert.equal(memory.predicts(ranges(3, 5)), true);
  assert.equal(memory.predicts(ranges(0, 2, 3, 9)), true);
  assert.equal(memory.predicts(ranges(4, 9)), false); // keeps token 3
  // One that removes more says less: recorded, it is not kept beside the one that removes less.
  memory.record(ranges(3, 5, 7, 8));
  assert.equal(memory.size, 1);
  memory.record(ranges(20, 21));
  memory.record(ranges(3, 4)); // removes less than [3, 5): takes its place
  assert.equal(memory.size, 2);
  assert.equal(memory.predicts(ranges(3, 4)), true);
  // An interesting candidate that removed [3, 4) and more: the rule was wrong for [3, 4).
  memory.disprove(ranges(0, 4, 30, 31));
  assert.equal(memory.predicts(ranges(3, 5)), false);
  assert.equal(memory.predicts(ranges(20, 21)), true);
  for (let i = 0; i < HANG_MEMORY_SIZE + 5; i++) memory.record(ranges(100 + 2 * i, 101 + 2 * i));
  assert.equal(memory.size, HANG_MEMORY_SIZE);
  assert.equal(memory.predicts(ranges(20, 21)), false); // the oldest went
});

const words: GlueCheck = (a, b) => /[\w"]$/.test(a) && /^[\w"]/.test(b);
const toyJson: TreeFrontEnd = {
  parse: (input) => ({ tree: Tree.build(input, parseToyJson(Buffer.from(input).toString())), glue: words }),
};
const text = (b: Uint8Array): string => Buffer.from(b).toString();

/**
 * Valid JSON with 4242 is interesting; without "exit" a candidate hangs (a loop without its exit:
 * whatever else goes, it still hangs, so the memory's rule always holds here).
 */
function loopOracle() {
  const asked: string[] = [];
  const oracle = (c: Uint8Array): Outcome => {
    const s = text(c);
    asked.push(s);
    if (!s.includes('"exit"')) return "timeout";
    try {
      return JSON.stringify(JSON.parse(s)).includes("4242") ? "interesting" : "not-interesting";
    } catch {
      return "not-interesting";
    }
  };
  return { oracle, asked };
}

// Nested arrays to hoist, in front of the exit, so that each hoist's new scan meets the hangs again.
const input = Buffer.from(
  JSON.stringify({ a: [[[[1]]], [[[2]]], [[[3]]], [["exit", [[[4242]]]]], [[[5]]]], b: [[[[6]]]] }),
);

for (const phase of ["hoist*", "prune+hoist*", "coarse"]) {
  test(`hang memory, ${phase}: fewer tests time out, the result is that of testing every candidate`, async () => {
    const run = async (cache: "content" | "none") => {
      const { oracle, asked } = loopOracle();
      const events: ReductionEvent[] = [];
      const result = await reduce(input, oracle, {
        pipeline: [treePass(parsePhase(phase), toyJson)],
        cache,
        onEvent: (e) => events.push(e),
      });
      const timeouts = asked.filter((s) => !s.includes('"exit"')).length;
      const skips = events.filter((e) => e.type === "timeout-skip");
      return { output: text(result.output), timeouts, skips, asked };
    };
    const remembered = await run("content");
    const every = await run("none"); // every candidate is tested: no rule
    assert.equal(remembered.output, every.output);
    assert.equal(every.skips.length, 0);
    // Hoisting's candidates are not ddmin's configurations: only the memory takes them for timeouts.
    const hoists = remembered.skips.filter((e) => e.type === "timeout-skip" && e.label.kind === "hoist");
    if (phase !== "coarse") assert.ok(hoists.length > 0, "no hoisting candidate was taken for a timeout");
    assert.ok(
      remembered.timeouts < every.timeouts,
      `${remembered.timeouts} timed-out tests with the memory, ${every.timeouts} without`,
    );
  });
}

test("hang memory: a candidate that also removes the loop the timed-out one broke is tested", async () => {
  const js = await frontEnd("javascript");
  const { tree } = js.parse(Buffer.from("function a(){for(;x;){y()}}\nfunction b(){while(z){}}\nb();\n"));
  const ids = [...Array(tree.size).keys()];
  const node = (kind: string, text?: string): number =>
    ids.find(
      (id) =>
        tree.kind(id) === kind && (text === undefined || Buffer.from(tree.text(id)).toString() === text),
    )!;
  const cond = subtreeTokens(tree, [node("identifier", "x")]);
  const forLoop = node("for_statement");
  assert.deepEqual(
    loopsAround(tree, cond).map((r) => [...r]),
    [[tree.tokenIndex(forLoop), tree.tokenIndex(tree.lastDescendant(forLoop) + 1)]],
  );
  const memory = new HangMemory((removed) => loopsAround(tree, removed));
  memory.record(cond); // `for(;;)`: loops
  const call = node("expression_statement", "b();");
  assert.equal(memory.predicts(union(cond, subtreeTokens(tree, [call]))), true);
  // Removing the whole function removes the loop too: tested.
  assert.equal(memory.predicts(subtreeTokens(tree, [node("function_declaration")])), false);
  assert.equal(memory.predicts(subtreeTokens(tree, [forLoop])), false);
  // A loop the timed-out candidate removed whole is no loop of its: it cannot have hung there.
  const both = union(cond, subtreeTokens(tree, [node("while_statement")]));
  assert.deepEqual(
    loopsAround(tree, both).map((r) => [...r]),
    loopsAround(tree, cond).map((r) => [...r]),
  );
});

test("isLoopKind: loops by the words of their kind, in every grammar's spelling; not their parts", () => {
  for (const kind of [
    "for_statement",
    "for_in_statement",
    "enhanced_for_statement",
    "foreach_statement",
    "while_statement",
    "do_statement",
    "loop_expression",
    "c_style_for_statement",
    "iterationStatement",
    "WhileStatement",
    "doStatement",
  ])
    assert.equal(isLoopKind(kind), true, kind);
  for (const kind of [
    "do_group",
    "loop_body",
    "format_string",
    "statement_block",
    "for",
    "identifier",
    "doc_comment",
  ])
    assert.equal(isLoopKind(kind), false, kind);
});
