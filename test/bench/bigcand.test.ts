/** The bigcand section's figures from an events file (bench/sections/bigcand.ts). */
import assert from "node:assert/strict";
import { test } from "node:test";
import { generatedInputs, timingOf } from "../../bench/sections/bigcand.js";

test("timingOf: first test, tests, own time per test outside the tests, sizes over time", () => {
  const t = timingOf(
    [
      { t: 0, type: "start" },
      { t: 5_000, type: "test-start", id: 1 },
      { t: 5_010, type: "test-end", id: 1 },
      { t: 5_015, type: "syntax-skip" },
      { t: 5_030, type: "test-start", id: 2 },
      { t: 5_040, type: "test-end", id: 2 },
      { t: 5_041, type: "improved", size: 600 },
      { t: 12_000, type: "test-start", id: 3 },
      { t: 12_010, type: "test-end", id: 3 },
      { t: 12_011, type: "improved", size: 400 },
    ],
    1000,
  );
  assert.equal(t.firstTestMs, 5_000);
  assert.equal(t.tests, 3);
  assert.equal(t.syntaxSkips, 1);
  assert.equal(t.testMs, 30);
  // 7,010 ms from the first start to the last end, 30 of them in tests: 6,980 / 3 per test.
  assert.ok(Math.abs(t.ownMsPerTest! - 6980 / 3) < 1e-9);
  assert.ok(Math.abs(t.ownShare! - 6980 / 3 / 10) < 1e-9);
  assert.deepEqual([t.bytesAt10s, t.bytesAt30s, t.bytesAtEnd], [600, 400, 400]);
  assert.equal(timingOf([{ t: 0, type: "start" }], 1000).ownMsPerTest, null);
});

test("the generated inputs: 1.8 MB of JSON with one marker, and 10,000 levels around another", () => {
  const [big, deep] = generatedInputs();
  assert.ok(big!.content.length > 1_700_000 && big!.content.length < 2_000_000);
  assert.equal(big!.content.split("MARKER").length, 2);
  assert.equal(JSON.parse(deep!.content) !== undefined, true);
  assert.equal(deep!.content.length, 20_008);
});
