/**
 * The glyph pass (`--phase glyph`): ddmin over the characters that are not whitespace, whitespace
 * always stays; and the blank pass (`--phase blank`): ddmin over the runs of whitespace.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { buildPipeline } from "../../src/cli/pipeline.js";
import { reduce } from "../../src/index.js";

const text = (b: Uint8Array): string => Buffer.from(b).toString();

test("--phase glyph removes visible characters only, and is 1-minimal over them", async () => {
  const input = "int  main ( ) {\n\treturn 42 ;\n}\n";
  const tested: string[] = [];
  const result = await reduce(
    Buffer.from(input),
    (c) => {
      const s = text(c);
      tested.push(s);
      return /r.*4/s.test(s);
    },
    { pipeline: buildPipeline(["glyph"], "both", undefined), jobs: 1 },
  );
  const out = text(result.output);
  // Every blank of the input is still there, in order; of the rest only "r" and "4" are left.
  assert.equal(out.replace(/\S/g, ""), input.replace(/\S/g, ""));
  assert.equal(out.replace(/\s/g, ""), "r4");
  // No candidate of the pass ever lost a blank (the empty input is checked first, apart from it).
  assert.equal(tested[1], "");
  for (const s of tested.slice(2))
    assert.equal(s.replace(/\S/g, ""), input.replace(/\S/g, ""), JSON.stringify(s));
});

test("--phase glyph: a multi-byte character is one unit, never cut", async () => {
  const input = "é ü\n✓x";
  const result = await reduce(Buffer.from(input), (c) => text(c).includes("✓"), {
    pipeline: buildPipeline(["glyph"], "both", undefined),
    jobs: 1,
  });
  assert.equal(text(result.output), " \n✓");
});

test("--phase blank removes whole runs of whitespace and nothing else", async () => {
  const input = "a b\n\n c  d\n";
  const tested: string[] = [];
  const result = await reduce(
    Buffer.from(input),
    (c) => {
      const s = text(c);
      tested.push(s);
      return s.includes("a b");
    },
    { pipeline: buildPipeline(["blank"], "both", undefined), jobs: 1 },
  );
  assert.equal(text(result.output), "a bcd");
  for (const s of tested.slice(2)) {
    assert.equal(s.replace(/\s/g, ""), "abcd", JSON.stringify(s));
    // A run is kept or gone whole: no run is ever shortened.
    for (const run of s.match(/\s+/g) ?? [])
      assert.ok([" ", "\n\n ", "  ", "\n"].includes(run), JSON.stringify(s));
  }
});
