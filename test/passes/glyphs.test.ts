/**
 * The glyph pass (`--phase glyph`): ddmin over the characters that are not whitespace, whitespace
 * always stays; and the blank pass (`--phase blank`): ddmin over the runs of whitespace.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { buildPipeline } from "../../src/cli/pipeline.js";
import { reduce } from "../../src/index.js";
import type { BuiltInLanguage } from "../../src/grammar/tree-sitter/index.js";
import { frontEnd } from "../helpers/passes.js";

const text = (b: Uint8Array): string => Buffer.from(b).toString();

/**
 * Reduces `input` with one phase at -j 1: the result, and every candidate the test saw, in order
 * (the first two are reduce()'s checks of the original and of the empty input).
 */
async function reduceWith(
  phase: string,
  input: string,
  interesting: (candidate: string) => boolean,
): Promise<{ out: string; tested: string[] }> {
  const tested: string[] = [];
  const result = await reduce(
    Buffer.from(input),
    (c) => {
      tested.push(text(c));
      return interesting(text(c));
    },
    { pipeline: buildPipeline([phase], "both", undefined), jobs: 1 },
  );
  return { out: text(result.output), tested };
}

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

test("--phase blank removes or shortens whole runs of whitespace and nothing else", async () => {
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
  // Runs between two words become one space, never nothing; the last one, one line break.
  assert.equal(text(result.output), "a b c d\n");
  for (const s of tested.slice(2)) {
    assert.equal(s.replace(/\s/g, ""), "abcd", JSON.stringify(s));
    // A run is kept whole or at its shortest.
    for (const run of s.match(/\s+/g) ?? [])
      assert.ok([" ", "\n\n ", "  ", "\n"].includes(run), JSON.stringify(s));
  }
});

test("--phase blank first tries every run at its shortest, in one test", async () => {
  // Loose runs go: beside a bracket or separator, between a word and punctuation, at the start.
  // Tight runs (between two word characters, "int x", or two other punctuation marks, "- -") become
  // one space, and a single space there is no unit at all; the input's last run, one line break.
  const input = "  int x = ( a - -b ) ;\n";
  const { out, tested } = await reduceWith("blank", input, (s) => /int\s+x/.test(s) && /-\s+-/.test(s));
  assert.equal(tested[2], "int x=(a- -b);\n");
  assert.equal(out, "int x=(a- -b);\n");
  assert.equal(tested.length, 3, JSON.stringify(tested));
});

test("--phase blank: line continuations are whitespace, and a run of them shrinks to one space", async () => {
  const input = "#define A \\\n    \\\n  B   \\\n\n";
  const { out } = await reduceWith("blank", input, (s) => /#define A\s+B/.test(s.replace(/\\\n/g, " ")));
  assert.equal(out, "#define A B\n");
});

test("--phase blank: when the loose runs cannot all go, line breaks are kept, then ddmin decides", async () => {
  // A directive ends at its line break: the first try (every run) joins the two lines.
  const input = "#define A(1)\nint y ;\n";
  const { out, tested } = await reduceWith("blank", input, (s) => /^#define A\(1\)\n\s*int y/.test(s));
  assert.equal(tested[2], "#define A(1)int y;\n");
  assert.equal(tested[3], "#define A(1)\nint y;\n");
  assert.equal(out, "#define A(1)\nint y;\n");
});

/** The lines of `s` without blank ones, each with its indentation: what Python reads of them. */
const logicalLines = (s: string): string[] =>
  s
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line) => line !== "");

test("--phase blank: blank lines go where line breaks and indentation must stay, in one test", async () => {
  // Indentation matters and no two lines may join: every run that ends a line is needed up to its
  // last line break and the indentation after it; what comes before (blank lines, trailing
  // blanks) is not.
  const input = "class e:\n\n   \n    def f(a):  \n\n        return a\n\n\ne(1)\n";
  const { out, tested } = await reduceWith(
    "blank",
    input,
    (s) => JSON.stringify(logicalLines(s)) === JSON.stringify(logicalLines(input)),
  );
  assert.equal(out, "class e:\n    def f(a):\n        return a\ne(1)\n");
  // Every run at its shortest joins the lines, and so does deleting the loose runs; the third try
  // deletes only what comes before a line break that stays, and is the result.
  assert.equal(tested[4], out);
  // No candidate ever lost a line's indentation without joining it to the line before.
  for (const s of tested.slice(2)) assert.ok(!/\n(def|return)/.test(s), JSON.stringify(s));
});

test("--phase blank: the line break kept is the whole of it: \\r\\n, or a line continuation", async () => {
  const keepBreaks = (s: string): boolean => /a\s*\\\n {2}b/.test(s) && /c\s*\r\n d/.test(s);
  const { out } = await reduceWith("blank", "a  \\\n  b c \t\r\n\r\n d\n", keepBreaks);
  assert.equal(out, "a\\\n  b c\r\n d\n");
});

test("--phase blank: the result is 1-minimal over runs whatever the first tries find", async () => {
  // Every run here is tight: the first try shortens them all and fails (no run is loose), and the
  // test needs the last as it is: ddmin shortens the others.
  const { out } = await reduceWith("blank", "a  b   c  d", (s) => s.includes("c  d"));
  assert.equal(out, "a b c  d");
});

test("--phase token,glyph: a one-character token goes with the blanks before it, as in the token pass, whose answers then need no test again", async () => {
  const input = "int f(int i, int j) { int count = i + j + 1; return count; }\n";
  // Every token is needed, and every character of `count`.
  const keep = (s: string): boolean =>
    s.replace(/\s+/g, " ").includes("int f(int i, int j) { int count = i + j + 1; return count; }");
  const { out, glyphTests } = await glyphCandidates(input, keep, ["token", "glyph"], "c");
  assert.equal(out, input);
  // Each one-character token deleted alone, with the blank before it or without.
  const alone = new Set<string>();
  for (const m of input.matchAll(/\b[fij1]\b/g)) {
    alone.add(input.slice(0, m.index) + input.slice(m.index + 1));
    if (input[m.index - 1] === " ") alone.add(input.slice(0, m.index - 1) + input.slice(m.index + 1));
  }
  // The token pass asked about each of those in this very input; the glyph pass asks again only
  // about what it alone makes (count shortened, two tokens at once).
  assert.ok(glyphTests.length > 0);
  for (const s of glyphTests) assert.ok(!alone.has(s), JSON.stringify(s));
});

test("--phase rename,glyph: after renaming, the glyph pass leaves identifiers whole; without it, it shortens them", async () => {
  // The test needs the library name `parseFloat` and the string's "ok"; everything else may go.
  const input = 'var total = parseFloat("1.5 ok") ;\n';
  const keep = (s: string): boolean => /parseFloat\("[^"]*ok[^"]*"\)/.test(s) && /\bvar \w+ =/.test(s);
  const run = (phases: string[]): Promise<{ out: string; glyphTests: string[] }> =>
    glyphCandidates(input, keep, phases, "javascript");
  const renamed = await run(["rename", "glyph"]);
  assert.equal(renamed.out, 'var a = parseFloat(" ok") ;\n');
  // No candidate of the glyph pass touched a name: parseFloat (needed) or a (renamed already).
  assert.ok(renamed.glyphTests.length > 0);
  for (const s of renamed.glyphTests) assert.match(s, /^var a = parseFloat\(/, JSON.stringify(s));
  // Without renaming first, the glyph pass shortens identifiers too (and tries every character of
  // the library name, which fails).
  const alone = await run(["glyph"]);
  assert.equal(alone.out, 'var l = parseFloat(" ok") ;\n');
  assert.ok(alone.glyphTests.some((s) => s.includes("arseFloat")));
});

test("--phase glyph: a word whose first and last characters are both needed is kept whole in two tests; any other is shortened character by character", async () => {
  // The test reads the key as it is, and needs BUG somewhere in the value.
  const input = '{"containerPort": "xyBUGz", "id": 7}\n';
  const keep = (s: string): boolean => {
    try {
      const value: unknown = JSON.parse(s);
      return (
        typeof value === "object" &&
        value !== null &&
        String((value as Record<string, unknown>).containerPort).includes("BUG")
      );
    } catch {
      return false;
    }
  };
  const { out, glyphTests } = await glyphCandidates(input, keep, ["glyph"], "json");
  assert.equal(out, '{"containerPort": "BUG", "": 7}\n');
  // The key: its first and its last character deleted, once each, and nothing else of it tried.
  const key = glyphTests.filter((s) => !s.includes('"containerPort"'));
  assert.deepEqual([...new Set(key)].sort(), [
    '{"containerPor": "xyBUGz", "id": 7}\n',
    '{"ontainerPort": "xyBUGz", "id": 7}\n',
  ]);
  // The value's word lost a first character in its probe: it is scanned, to the three the test needs.
  assert.ok(glyphTests.includes('{"containerPort": "yBUGz", "id": 7}\n'));
});

/** `input` reduced by `phases` in `language` with the test `keep`: the result, and every candidate of the glyph pass. */
async function glyphCandidates(
  input: string,
  keep: (s: string) => boolean,
  phases: string[],
  language: BuiltInLanguage,
): Promise<{ out: string; glyphTests: string[] }> {
  let pass = "";
  const glyphTests: string[] = [];
  const result = await reduce(
    Buffer.from(input),
    (c) => {
      if (pass === "ddmin:glyph") glyphTests.push(text(c));
      return keep(text(c));
    },
    {
      pipeline: buildPipeline(phases, "both", await frontEnd(language)),
      jobs: 1,
      onEvent: (e) => {
        if (e.type === "pass") pass = e.pass;
      },
    },
  );
  return { out: text(result.output), glyphTests };
}
