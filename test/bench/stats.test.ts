import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { geomean, median, pairRatios, ratioSpread, spread } from "../../bench/lib/stats.js";
import { alternate } from "../../bench/lib/timing.js";

describe("bench statistics", () => {
  test("median of odd and even counts, NaN when empty", () => {
    assert.equal(median([3, 1, 2]), 2);
    assert.equal(median([4, 1, 3, 2]), 2.5);
    assert.ok(Number.isNaN(median([])));
  });

  test("spread and ratios pair measurements of the same repetition", () => {
    assert.deepEqual(spread([5, 1, 3]), { median: 3, min: 1, max: 5, n: 3 });
    assert.deepEqual(pairRatios([2, 6, 9], [1, 3]), [2, 2]);
    assert.deepEqual(ratioSpread([1, 4], [2, 2]), { median: 1.25, min: 0.5, max: 2, n: 2 });
  });

  test("geometric mean", () => {
    assert.ok(Math.abs(geomean([1, 4]) - 2) < 1e-12);
  });

  test("alternate interleaves variants and rotates their order", async () => {
    const order: string[] = [];
    const results = await alternate(["a", "b", "c"], 2, (v, rep) => {
      order.push(`${v}${rep}`);
      return Promise.resolve(rep);
    });
    assert.deepEqual(order, ["a0", "b0", "c0", "b1", "c1", "a1"]);
    assert.deepEqual(results, [
      [0, 1],
      [0, 1],
      [0, 1],
    ]);
  });

  test("alternate can leave a slow variant out of later repetitions", async () => {
    const results = await alternate(
      ["slow", "fast"],
      3,
      (v) => Promise.resolve(v),
      (v) => v === "slow",
    );
    assert.deepEqual(results, [["slow"], ["fast", "fast", "fast"]]);
  });
});
