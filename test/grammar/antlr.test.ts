/**
 * The ANTLR front-end on the project's own small grammars (always run): JSON.g4 (a copy of the
 * shared one) and a tiny lexer + parser pair with an imported grammar, a custom channel and a
 * predicate that calls a grammar helper.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import fc from "fast-check";
import { WhittleError } from "../../src/errors.js";
import { loadAntlrGrammar, type AntlrGrammar } from "../../src/grammar/antlr/index.js";
import type { RawNode } from "../../src/tree/raw.js";
import { FIXTURES, REPO, nodes, renderUntouched, textOf, tokens } from "./helpers.js";

const scratch = mkdtempSync(join(tmpdir(), "whittle-antlr-test-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

const JSON_G4 = join(FIXTURES, "JSON.g4");
const TINY = ["TinyLexer.g4", "TinyParser.g4"].map((f) => join(FIXTURES, "tiny", f));
const TINY_HELPERS = join(REPO, "dist/test/fixtures/grammar/tiny/tiny-helpers.js");

let jsonGrammar: Promise<AntlrGrammar> | undefined;
const json = (): Promise<AntlrGrammar> =>
  (jsonGrammar ??= loadAntlrGrammar({ grammarFiles: [JSON_G4], cacheDir: false }));

const utf8 = (s: string): Buffer => Buffer.from(s, "utf8");

function kidsOf(node: RawNode | null | undefined, kind: string): RawNode[] {
  return [...nodes(node ?? null)].filter((n) => n.kind === kind);
}

describe("JSON grammar (fixture copy)", () => {
  test("spans are byte offsets of the UTF-8 input, also after non-ASCII text", async () => {
    const g = await json();
    const input = utf8('{"é😀" : "ü", "k": [1, 2]}');
    const { root } = g.parse(input);
    const strings = tokens(root).filter((t) => t.kind === "STRING");
    assert.deepEqual(
      strings.map((t) => textOf(input, t)),
      ['"é😀"', '"ü"', '"k"'],
    );
    assert.deepEqual([strings[0]!.start, strings[0]!.end], [1, 9]); // " é(2) 😀(4) "
    assert.deepEqual(renderUntouched(g, input, root), input);
  });

  test("hidden tokens and EOF are not nodes; the root spans first to last token", async () => {
    const g = await json();
    const input = utf8("  [ true ,\n null ]  \n");
    const { root } = g.parse(input);
    assert.equal(root?.kind, "json");
    assert.deepEqual([root.start, root.end], [2, 18]);
    assert.deepEqual(
      tokens(root).map((t) => t.kind),
      ["'['", "'true'", "','", "'null'", "']'"],
    );
  });

  test("round trip over random JSON documents", async () => {
    const g = await json();
    const doc = fc.tuple(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom(undefined, 0, 1, 2, "\t"));
    fc.assert(
      fc.property(doc, ([value, indent]) => {
        const input = utf8(JSON.stringify(value, null, indent));
        const { root } = g.parse(input);
        assert.deepEqual(renderUntouched(g, input, root), input);
      }),
      { numRuns: 150 },
    );
  });

  test("deeply nested input (10,000 levels) converts without overflowing the stack", async () => {
    const g = await json();
    const input = utf8("[".repeat(10_000) + "]".repeat(10_000));
    const { root } = g.parse(input);
    assert.equal(tokens(root).length, 20_000);
    assert.deepEqual(renderUntouched(g, input, root), input);
  });

  test('minimal replacements from the ATN: value → 0, obj → {}, array → [], pair → "":0', async () => {
    const g = await json();
    assert.equal(g.replacements.get("value"), "0");
    assert.equal(g.replacements.get("obj"), "{}");
    assert.equal(g.replacements.get("array"), "[]");
    assert.equal(g.replacements.get("pair"), '"":0');
    assert.equal(g.replacements.get("STRING"), '""');
    assert.equal(g.replacements.get("NUMBER"), "0");
    assert.equal(g.replacements.get("'{'"), "{");
  });

  test("an iteration of (',' pair)* is one removable node with replacement \"\"; the first pair is not removable", async () => {
    const g = await json();
    const input = utf8('{"a": 1, "b": 2, "c": 3}');
    const { root } = g.parse(input);
    const obj = kidsOf(root, "obj")[0]!;
    assert.deepEqual(
      obj.children.map((c) => [c.kind, c.removable, c.replacement]),
      [
        ["'{'", false, "{"],
        ["pair", false, '"":0'],
        ["obj:*", true, ""],
        ["obj:*", true, ""],
        ["'}'", false, "}"],
      ],
    );
    assert.deepEqual(
      obj.children[2]!.children.map((c) => c.kind),
      ["','", "pair"],
    );
    assert.equal(textOf(input, obj.children[3]!), ', "c": 3');
  });

  test("every rule's replacement parses as that rule", async () => {
    const g = await json();
    for (const rule of g.ruleNames) {
      const text = g.replacements.get(rule)!;
      assert.doesNotThrow(() => g.parse(text, { start: rule }), `${rule} → ${JSON.stringify(text)}`);
    }
  });

  test("a syntax error names line, column and the offending token", async () => {
    const g = await json();
    const input = utf8('{\n  "a" 1\n}');
    assert.throws(
      () => g.parse(input, { fileName: "in.json" }),
      (e: unknown) =>
        e instanceof WhittleError &&
        e.code === "syntax" &&
        e.message.startsWith('in.json:2:7: syntax error at "1"'),
    );
    const recovered = g.parse(input, { allowSyntaxErrors: true });
    assert.equal(recovered.syntaxErrors, 1);
    assert.ok(recovered.root);
  });

  test("input left over after the start rule is an error, not a partial tree", async () => {
    const g = await json();
    assert.throws(
      () => g.parse("[1] [2]", { start: "value" }),
      (e: unknown) => e instanceof WhittleError && e.code === "syntax" && /1:5/.test(e.message),
    );
  });

  test("characters no token matches are a syntax error", async () => {
    const g = await json();
    assert.throws(
      () => g.parse("[1, @]"),
      (e: unknown) =>
        e instanceof WhittleError && e.code === "syntax" && /1:5.*token recognition error/.test(e.message),
    );
  });

  test("the glue check asks the lexer", async () => {
    const g = await json();
    assert.equal(g.glue("1", "2"), true); // "12" is one NUMBER
    assert.equal(g.glue("1", "e5"), true);
    assert.equal(g.glue("[", "1"), false);
    assert.equal(g.glue('""', '""'), false); // two empty strings either way
  });

  test("an unknown start rule is a grammar error naming the rule", async () => {
    await assert.rejects(
      loadAntlrGrammar({ grammarFiles: [JSON_G4], cacheDir: false, start: "nope" }),
      (e: unknown) => e instanceof WhittleError && e.code === "grammar" && /"nope"/.test(e.message),
    );
  });
});

describe("lexer + parser grammar pair", () => {
  const load = (helpers?: Parameters<typeof loadAntlrGrammar>[0]["grammarHelpers"]): Promise<AntlrGrammar> =>
    loadAntlrGrammar({
      grammarFiles: TINY,
      cacheDir: false,
      ...(helpers ? { grammarHelpers: helpers } : {}),
    });

  test("imported rules, tokenVocab from the lexer, a custom channel, a helper module by path", async () => {
    const g = await load(TINY_HELPERS);
    assert.deepEqual(g.ruleNames, ["script", "stmt", "tail", "args", "item"]);
    assert.deepEqual(g.warnings, []);
    const input = utf8("f(a, 12 34); # note\ng;\n");
    const { root } = g.parse(input);
    assert.deepEqual(renderUntouched(g, input, root), input);
    assert.deepEqual(
      tokens(root).map((t) => textOf(input, t)),
      ["f", "(", "a", ",", "12", "34", ")", ";", "g", ";"],
    );
  });

  test("removable: stmt* items, args?, later Num+ items; not the first Num", async () => {
    const g = await load(TINY_HELPERS);
    const input = utf8("f(1 2 3); g;");
    const { root } = g.parse(input);
    const stmts = kidsOf(root, "stmt");
    assert.deepEqual(
      stmts.map((s) => [textOf(input, s), s.removable, s.replacement]),
      [
        ["f(1 2 3);", true, ""],
        ["g;", true, ""],
      ],
    );
    const args = kidsOf(root, "args")[0]!;
    assert.equal(args.removable, true);
    const nums = tokens(root).filter((t) => t.kind === "Num");
    assert.deepEqual(
      nums.map((n) => n.removable),
      [false, true, true],
    );
    assert.equal(g.replacements.get("stmt"), "a;");
    assert.equal(g.replacements.get("args"), "(a)");
    assert.equal(g.replacements.get("script"), "");
  });

  test("a rule that may derive nothing is removable itself; its optional content is not wrapped again", async () => {
    const g = await load(TINY_HELPERS);
    const input = utf8("f x;");
    const tail = kidsOf(g.parse(input).root, "tail")[0]!;
    assert.deepEqual([textOf(input, tail), tail.removable, tail.replacement], ["x", true, ""]);
    assert.deepEqual(
      tail.children.map((c) => [c.kind, c.removable, c.replacement]),
      [["Word", false, "a"]],
    );
  });

  test("replacement overrides by kind apply to the nodes of that kind", async () => {
    const g = await load(TINY_HELPERS);
    const { root } = g.parse("f(a, b);", { replacements: new Map([["item", "z"]]) });
    const items = kidsOf(root, "item");
    assert.ok(items.length > 0);
    for (const item of items) assert.equal(item.replacement, "z");
  });

  test("the lexer's predicate runs through the helpers", async () => {
    const refusing = await load({
      lexer: (Base) =>
        class extends Base {
          numbersAllowed(): boolean {
            return false;
          }
        },
    });
    assert.throws(
      () => refusing.parse("f(1);"),
      (e: unknown) => e instanceof WhittleError && e.code === "syntax",
    );
  });

  test("without helpers the predicate is ignored (holds) and reported", async () => {
    const g = await load();
    assert.equal(g.warnings.length, 1);
    assert.match(g.warnings[0]!, /numbersAllowed/);
    assert.ok(g.parse("f(1);").root);
  });

  test("a parser grammar without its lexer is a grammar error", async () => {
    await assert.rejects(
      loadAntlrGrammar({ grammarFiles: [TINY[1]!], cacheDir: false }),
      (e: unknown) =>
        e instanceof WhittleError && e.code === "grammar" && /lexer and a parser/.test(e.message),
    );
  });

  test("a grammar with errors is a grammar error listing the tool's messages", async () => {
    const file = join(scratch, "Broken.g4");
    writeFileSync(file, "grammar Broken;\nstart : missing ;\nA : 'a' ;\n");
    await assert.rejects(
      loadAntlrGrammar({ grammarFiles: [file], cacheDir: false }),
      (e: unknown) =>
        e instanceof WhittleError &&
        e.code === "grammar" &&
        e.message.includes(`${file}:2:9: reference to undefined rule: missing`),
    );
  });

  test("a grammar that does not parse is a grammar error naming file:line:column, and is not cached", async () => {
    const cacheDir = join(scratch, "cache-broken");
    const file = join(scratch, "NoSemi.g4");
    writeFileSync(file, "grammar NoSemi;\nstart : A\nA : 'a' ;\n");
    await assert.rejects(
      loadAntlrGrammar({ grammarFiles: [file], cacheDir }),
      (e: unknown) =>
        e instanceof WhittleError &&
        e.code === "grammar" &&
        e.message.includes(`${file}:3:3: syntax error: no viable alternative at input ':'`),
    );
    assert.ok(!existsSync(join(cacheDir, "grammars")), "nothing cached");
    writeFileSync(file, "grammar NoSemi;\nstart : A ;\nA : 'a' ;\n");
    const fixed = await loadAntlrGrammar({ grammarFiles: [file], cacheDir });
    assert.equal(fixed.source, "tool");
    assert.ok(fixed.parse("a").root);
    assert.equal((await loadAntlrGrammar({ grammarFiles: [file], cacheDir })).source, "cache");
  });
});

describe("grammar cache", () => {
  test("the second load reads the cache file instead of running the tool", async () => {
    const cacheDir = join(scratch, "cache");
    const first = await loadAntlrGrammar({ grammarFiles: TINY, cacheDir, grammarHelpers: TINY_HELPERS });
    assert.equal(first.source, "tool");
    assert.ok(first.cacheFile?.startsWith(cacheDir));
    assert.ok(existsSync(first.cacheFile!));
    const second = await loadAntlrGrammar({ grammarFiles: TINY, cacheDir, grammarHelpers: TINY_HELPERS });
    assert.equal(second.source, "cache");
    assert.equal(second.cacheFile, first.cacheFile);
    assert.deepEqual(second.data, first.data);
    const input = "f(a, 1 2); g;";
    assert.deepEqual(second.parse(input).root, first.parse(input).root);
  });

  test("the key covers imported grammars and is separate per grammar", async () => {
    const cacheDir = join(scratch, "cache2");
    const tiny = await loadAntlrGrammar({ grammarFiles: TINY, cacheDir, grammarHelpers: TINY_HELPERS });
    const jsonG = await loadAntlrGrammar({ grammarFiles: [JSON_G4], cacheDir });
    assert.notEqual(tiny.cacheFile, jsonG.cacheFile);
    assert.equal(jsonG.source, "tool");
  });
});
