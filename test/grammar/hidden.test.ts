/**
 * The hidden-text pass (`--phase hidden`): ddmin over the comments and other hidden-channel text
 * between tokens, which the tree phases keep as it is. The tiny fixture grammar sends `# …` comments
 * to a channel of their own.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { buildPipeline } from "../../src/cli/pipeline.js";
import { AntlrFrontEnd } from "../../src/grammar/front-end.js";
import { reduce } from "../../src/index.js";
import { reduceWith } from "../helpers/passes.js";
import { FIXTURES, REPO } from "./helpers.js";

const TINY = ["TinyLexer.g4", "TinyParser.g4"].map((f) => join(FIXTURES, "tiny", f));
const TINY_HELPERS = join(REPO, "dist/test/fixtures/grammar/tiny/tiny-helpers.js");

const input = "# a comment\nput (a, b) x;  # another\nget y; # keep me\n# the end\n";

test("--phase hidden removes the comments the test does not need, and nothing else", async () => {
  const frontEnd = await AntlrFrontEnd.load({
    grammarFiles: TINY,
    grammarHelpers: TINY_HELPERS,
    cacheDir: false,
  });
  // Interesting: both statements and the comment "keep me" are still there.
  const { out, tested, stats } = await reduceWith(
    frontEnd,
    ["hidden"],
    input,
    (s) => s.includes("put (a, b) x;") && s.includes("get y;") && s.includes("# keep me"),
  );
  assert.equal(out, "\nput (a, b) x;  \nget y; # keep me\n\n");
  // Four comments, four units (two of them share the text after the last token); whitespace-only
  // text between tokens is never a unit. (`tested` leaves out the checks of the original and of the
  // empty input.)
  assert.ok(
    tested.every((s) => s.includes("put (a, b) x;")),
    "tokens are never touched",
  );
  const pass = stats.passes["ddmin:hidden"];
  assert.ok(pass !== undefined && pass.tests > 0 && pass.tests <= 8, JSON.stringify(pass));
});

test("an input without hidden text costs the hidden pass no test", async () => {
  const frontEnd = await AntlrFrontEnd.load({
    grammarFiles: TINY,
    grammarHelpers: TINY_HELPERS,
    cacheDir: false,
  });
  const result = await reduce(Buffer.from("put x;\nget y;\n"), (c) => Buffer.from(c).includes("put"), {
    pipeline: buildPipeline(["hidden"], "both", frontEnd),
    jobs: 1,
    assumeInteresting: true,
  });
  assert.equal(result.stats.tests, 0);
  assert.equal(Buffer.from(result.output).toString(), "put x;\nget y;\n");
});

test("--phase hidden: a block comment over several lines is one unit, and a macro's line continuations stay", async () => {
  const input = [
    "/* a header",
    "   over two lines */",
    "#define SUM(a, b) \\",
    "  ((a) + /* inline */ \\",
    "   (b))",
    "int x; /* one",
    "  more */ int y;",
    "",
  ].join("\n");
  // Every block comment whole or gone, every continuation kept: what a C compiler would accept.
  const wellFormed = (s: string): boolean => {
    const comments = s.match(/\/\*|\*\//g) ?? [];
    return (
      s.includes("int x;") &&
      s.includes("int y;") &&
      (s.match(/\\\n/g) ?? []).length === 2 &&
      comments.every((m, i) => m === (i % 2 === 0 ? "/*" : "*/")) &&
      comments.length % 2 === 0
    );
  };
  const { out, tested, stats } = await reduceWith("c", ["hidden"], input, wellFormed);
  assert.ok(!out.includes("/*"), out);
  assert.equal((out.match(/\\\n/g) ?? []).length, 2, out);
  // Every candidate was one the test accepts: no comment cut in half, no continuation lost.
  for (const s of tested)
    assert.ok(!s.includes("/*") || s.split("/*").length === s.split("*/").length, JSON.stringify(s));
  assert.ok(stats.tests <= 4, String(stats.tests));
});

test("--phase hidden: a comment that is all there is between two tokens leaves a space, one beside a blank leaves nothing", async () => {
  const input = "int/*a*/x; /*b*/\nint y;/*c*/\n";
  // The declarations as a compiler reads them, a comment as a space: `intx` would be one word.
  const declares = (s: string): boolean => {
    const code = s.replace(/\/\*.*?\*\//g, " ");
    return /\bint\s+x;/.test(code) && /\bint\s+y;/.test(code);
  };
  const { out, stats } = await reduceWith("c", ["hidden"], input, declares);
  // One test: every comment at once, `/*a*/` replaced by a space, the others deleted.
  assert.equal(out, "int x; \nint y;\n");
  assert.equal(stats.tests, 1);
});
