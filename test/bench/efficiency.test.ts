import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseAnchors } from "../../bench/lib/anchors.js";
import {
  afterTreeShare,
  GOALS,
  goalMet,
  mergePipelines,
  smallestAnchor,
  totals,
  type GoalRun,
} from "../../bench/sections/efficiency.js";

const ANCHORS = parseAnchors(`## json-obj-arr-87

| reducer | non-ws chars | bytes | lines | oracle runs | wall s |
|---|---|---|---|---|---|
| Picire 21.8, line ddmin (defaults) | 25 | 40 | 3 | 10 | 2.8 |
| Picireny HDD* | 16 | 25 | 4 | 26 | 8.1 |
| Picireny HDDH* (prune+hoist) | 6 | 9 | 1 | 18 | 6.4 |
| Picireny HOIST*+HDD* | 6 | 9 | 1 | 16 | 4.8 |
| C-Vise 2.7 --not-c | 7 | 13 | 3 | 447 | 79.8 |
`);

describe("efficiency section helpers", () => {
  test("the smallest anchor: fewest chars, then fewest oracle runs among those", () => {
    const best = smallestAnchor(ANCHORS.get("json-obj-arr-87")!);
    assert.equal(best?.reducer, "Picireny HOIST*+HDD*");
    assert.equal(smallestAnchor([]), undefined);
  });

  test("a goal needs a finished run, an interesting result, no more chars and no more tests", () => {
    const goal = GOALS.find((g) => g.case === "zeller-bug-c")!;
    assert.deepEqual([goal.chars, goal.tests], [73, 451]);
    const run: GoalRun = {
      result: "done",
      stoppedAtBudget: false,
      interesting: true,
      nonWsChars: 73,
      tests: 451,
    };
    assert.equal(goalMet(goal, run), true, "equal to the goal meets it");
    assert.equal(goalMet(goal, { ...run, nonWsChars: 74 }), false, "larger");
    assert.equal(goalMet(goal, { ...run, tests: 452 }), false, "more tests");
    assert.equal(goalMet(goal, { ...run, interesting: false }), false, "refused by oracle.sh");
    assert.equal(goalMet(goal, { ...run, interesting: null }), false, "no output");
    assert.equal(goalMet(goal, { ...run, stoppedAtBudget: true, result: "interrupted" }), false, "stopped");
    assert.equal(goalMet(goal, { ...run, result: "failed" }), false, "failed");
    assert.equal(goalMet(goal, undefined), false, "not run");
  });

  test("tests after the tree phases: every pass not named hdd:*", () => {
    const s = afterTreeShare({
      "hdd:coarse": { tests: 6, bytesRemoved: 15 },
      "hdd:prune+hoist*": { tests: 9, bytesRemoved: 11 },
      "ddmin:token": { tests: 4, bytesRemoved: 28 },
      literal: { tests: 1, bytesRemoved: 0 },
      "ddmin:glyph": { tests: 2, bytesRemoved: 0 },
      "ddmin:blank": { tests: 3, bytesRemoved: 1 },
    });
    assert.deepEqual(s, { tree: 15, after: 10, share: 0.4 });
    assert.ok(Number.isNaN(afterTreeShare({}).share));
    assert.deepEqual(afterTreeShare({ "ddmin:line": { tests: 5, bytesRemoved: 3 } }), {
      tree: 0,
      after: 5,
      share: 1,
    });
  });

  test("two pipelines merged in running order", () => {
    const current = [
      "hdd:coarse",
      "hdd:hoist*",
      "hdd:prune+hoist*",
      "ddmin:token",
      "rename",
      "literal",
      "ddmin:glyph",
      "ddmin:blank",
    ];
    const previous = [
      "hdd:coarse",
      "hdd:hoist*",
      "hdd:prune+hoist*",
      "ddmin:token",
      "ddmin:glyph",
      "ddmin:blank",
      "ddmin:char",
    ];
    assert.deepEqual(mergePipelines(current, previous), [...current, "ddmin:char"]);
    assert.deepEqual(mergePipelines(previous, current), [
      "hdd:coarse",
      "hdd:hoist*",
      "hdd:prune+hoist*",
      "ddmin:token",
      "rename",
      "literal",
      "ddmin:glyph",
      "ddmin:blank",
      "ddmin:char",
    ]);
    assert.deepEqual(mergePipelines(["b", "c"], ["a", "b", "x", "c"]), ["a", "b", "x", "c"]);
    assert.deepEqual(mergePipelines([], ["a", "b"]), ["a", "b"]);
  });

  test("totals sum chars, tests and wall time", () => {
    assert.deepEqual(
      totals([
        { nonWsChars: 73, tests: 400, wallMs: 1000 },
        { nonWsChars: 8, tests: 50, wallMs: 250 },
      ]),
      { runs: 2, nonWsChars: 81, tests: 450, wallMs: 1250 },
    );
  });
});
