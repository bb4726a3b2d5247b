/**
 * The ANTLR front-end parses the original once: checkOriginal's parse also gives the tree of the
 * first parse() of the same bytes and the syntax filter's count of its errors (for 586 KB of C a
 * parse takes about 10 s and 900 MB at its peak). Bytes that differ are parsed afresh.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { AntlrFrontEnd } from "../../src/grammar/front-end.js";
import { REPO } from "../helpers/cli.js";

const scratch = mkdtempSync(join(tmpdir(), "whittle-front-end-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

test("the original is parsed once for its check, its tree and its error count", async () => {
  const frontEnd = await AntlrFrontEnd.load({
    grammarFiles: [join(REPO, "test/fixtures/grammar/JSON.g4")],
    start: "json",
    cacheDir: join(scratch, "cache"),
  });
  const grammar = frontEnd.grammar;
  let parses = 0;
  const parse = grammar.parse.bind(grammar);
  grammar.parse = (...args) => {
    parses++;
    return parse(...args);
  };
  const input = Buffer.from('{"a": [1, 2, {"b": null}], "c": "d"}');
  assert.equal(frontEnd.checkOriginal(input, false), 0);
  assert.equal(parses, 1);
  assert.equal(frontEnd.syntaxErrors(Buffer.from(input)), 0, "equal bytes, another array");
  const { tree } = frontEnd.parse(Buffer.from(input));
  assert.equal(parses, 1, "the check's parse gave the tree");
  assert.equal(frontEnd.syntaxErrors(input), 0);
  assert.equal(
    parses,
    1,
    "its error count outlives the tree (the syntax filter asks after the tree is built)",
  );
  assert.ok(tree.size > 10);
  assert.notEqual(frontEnd.msPerByte(), undefined, "the parse was timed");
  // The tree is given once; later parses and other bytes are parsed.
  frontEnd.parse(input);
  assert.equal(parses, 2);
  assert.equal(frontEnd.syntaxErrors(Buffer.from('{"a": [1,, 2]}')), 1);
  assert.equal(parses, 3);
});
