import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { nonWhitespaceChars, parseAnchors, smallestOf } from "../../bench/lib/anchors.js";
import { markedC } from "../../bench/sections/hdd.js";

const SAMPLE = `# Anchors

Some prose | with a pipe.

## case-a

| reducer | non-ws chars | bytes | lines | oracle runs | wall s |
|---|---|---|---|---|---|
| Picire 21.8, line ddmin (defaults) | 25 | 40 | 3 | 10 | 2.8 |
| Picireny HDD* | 16 | 25 | 4 | 1,026 | 8.1 |
| Picireny HOIST*+HDD* | 6 | 9 | 1 | 16 | 4.8 |
| C-Vise 2.7 --not-c | 7 | 13 | 3 | 447 | 79.8 |

## case-b

| reducer | non-ws chars | bytes | lines | oracle runs | wall s |
|---|---|---|---|---|---|
| C-Vise 2.7 | 13 | 14 | 1 | 364 | 74.6 |

## empty-case

Nothing measured yet.
`;

describe("anchors", () => {
  test("rows per case, numbers with thousands separators, headers and prose skipped", () => {
    const a = parseAnchors(SAMPLE);
    assert.deepEqual([...a.keys()], ["case-a", "case-b"]);
    assert.equal(a.get("case-a")!.length, 4);
    assert.deepEqual(a.get("case-a")![1], {
      reducer: "Picireny HDD*",
      nonWsChars: 16,
      bytes: 25,
      lines: 4,
      oracleRuns: 1026,
      wallS: 8.1,
    });
    assert.equal(a.get("case-b")![0]!.reducer, "C-Vise 2.7");
  });

  test("smallest row of a tool", () => {
    const rows = parseAnchors(SAMPLE).get("case-a")!;
    assert.equal(smallestOf(rows, "Picireny")!.reducer, "Picireny HOIST*+HDD*");
    assert.equal(smallestOf(rows, "C-Vise")!.nonWsChars, 7);
    assert.equal(smallestOf(rows, "Picire ")!.reducer, "Picire 21.8, line ddmin (defaults)");
    assert.equal(smallestOf(rows, "Perses"), undefined);
  });

  test("non-whitespace characters count characters, not bytes", () => {
    assert.equal(nonWhitespaceChars(Buffer.from(" a(b)\n\t{ c; }\r\n")), 8);
    assert.equal(nonWhitespaceChars(Buffer.from("é ü")), 2);
    assert.equal(nonWhitespaceChars(new Uint8Array(0)), 0);
  });

  test("the generated C input holds the marker once, as a function name", () => {
    const src = markedC(5000, "marker_x");
    assert.ok(src.length >= 5000);
    assert.equal(src.split("marker_x").length, 2);
    assert.match(src, /static int marker_x\(/);
  });
});
