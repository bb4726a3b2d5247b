/**
 * The ANTLR front-end on the shared grammars and benchmark inputs (../shared): JSON, C and the
 * JavaScript lexer + parser with whittle's own helpers. Skipped, with a message, when ../shared is
 * absent. The JavaScript parses take tens of seconds each (the grammar is highly ambiguous for the
 * interpreter's full-LL prediction).
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import fc from "fast-check";
import { loadAntlrGrammar, type AntlrGrammar } from "../../src/grammar/antlr/index.js";
import {
  nodes,
  renderWithout,
  sharedGrammar,
  sharedInput,
  sharedPresent,
  textOf,
  tokens,
} from "./helpers.js";
import { roundTripTest, type RoundTripCase } from "./round-trip.js";

const scratch = mkdtempSync(join(tmpdir(), "whittle-antlr-shared-"));
after(() => rmSync(scratch, { recursive: true, force: true }));
const cacheDir = join(scratch, "cache");

const loaded = new Map<string, Promise<AntlrGrammar>>();
function grammar(name: keyof typeof sharedGrammar, start?: string): Promise<AntlrGrammar> {
  let g = loaded.get(name);
  if (!g) {
    g = loadAntlrGrammar({ grammarFiles: sharedGrammar[name], cacheDir, ...(start ? { start } : {}) });
    loaded.set(name, g);
  }
  return g;
}

/**
 * Rules whose shortest derivation cannot parse on its own: `templateStringAtom` is a token of the
 * lexer's TEMPLATE mode (only lexed inside backticks); `getter`/`setter` need the predicates
 * `{this.n("get")}?` / `{this.n("set")}?`, which the replacement "a 0" does not satisfy.
 */
const CONTEXT_BOUND_RULES = new Set(["templateStringAtom", "getter", "setter"]);

describe("shared grammars and inputs", () => {
  const cases: RoundTripCase[] = [
    { grammar: "json", input: "json-obj-arr-87/input.json" },
    { grammar: "c", start: "compilationUnit", input: "creduce-file2-c/input.c" },
    { grammar: "c", start: "compilationUnit", input: "cvise-blocksort-c/input.c" },
    { grammar: "c", start: "compilationUnit", input: "zeller-bug-c/input.c" },
    // glibc's headers use `__restrict`, which this C grammar does not know: parsed with recovery.
    { grammar: "c", start: "compilationUnit", input: "hello-world-big-c/input.c", errors: true },
    // The two JavaScript inputs: antlr-shared-js-*.slow.test.ts.
  ];
  for (const c of cases) roundTripTest(c, grammar);

  test('C compoundStatement → {}, JavaScript block → {}, later items of a left-recursive list → ""', async (t) => {
    if (!sharedPresent) return t.skip("../shared not found");
    const c = await grammar("c", "compilationUnit");
    assert.equal(c.replacements.get("compoundStatement"), "{}");
    const input = Buffer.from("int main(void) { int x = 1; x++; return x; }\n");
    const { root } = c.parse(input, { start: "compilationUnit" });
    const items = [...nodes(root)].filter((n) => n.kind === "blockItem");
    assert.deepEqual(
      items.map((n) => [textOf(input, n), n.removable, n.replacement]),
      [
        // blockItemList is left-recursive (`blockItemList blockItem`): the first item is the base
        // case, later items are iterations of the recursion's loop. The list itself is optional.
        ["int x = 1;", false, ";"],
        ["x++;", true, ""],
        ["return x;", true, ""],
      ],
    );
    const list = [...nodes(root)].find((n) => n.kind === "blockItemList")!;
    assert.deepEqual([list.removable, list.replacement], [true, ""]);
    const js = await grammar("javascript");
    assert.equal(js.replacements.get("block"), "{}");
    assert.equal(js.replacements.get("expressionStatement"), "0;");
  });

  for (const name of ["c", "javascript"] as const) {
    test(`${name}: every rule's replacement parses as that rule`, async (t) => {
      if (!sharedPresent) return t.skip("../shared not found");
      const g = await grammar(name, name === "c" ? "compilationUnit" : undefined);
      const failing: string[] = [];
      for (const rule of g.ruleNames) {
        const text = g.replacements.get(rule);
        assert.notEqual(text, undefined, rule);
        try {
          g.parse(text!, { start: rule });
        } catch {
          failing.push(rule);
        }
      }
      assert.deepEqual(
        failing,
        g.ruleNames.filter((r) => CONTEXT_BOUND_RULES.has(r)),
      );
    });
  }

  test("JavaScript helpers: regex vs division, automatic semicolons, strict-mode keywords, templates", async (t) => {
    if (!sharedPresent) return t.skip("../shared not found");
    const g = await grammar("javascript");
    assert.deepEqual(g.warnings, []); // every predicate and action is a call of whittle's helpers
    const kinds = (text: string): string[] => tokens(g.parse(text).root).map((n) => n.kind);
    assert.ok(kinds("x = a / b / c;").filter((k) => k === "Divide").length === 2);
    assert.ok(kinds("x = /ab+c/g.test(s);").includes("RegularExpressionLiteral"));
    // return\nx: the line terminator ends the return statement (x is a statement of its own).
    const ret = g.parse("function f() { return\nx }");
    const returnStatement = [...nodes(ret.root)].find((n) => n.kind === "returnStatement")!;
    assert.equal(returnStatement.end - returnStatement.start, "return".length);
    assert.ok(kinds('"use strict"; let x = 1;').includes("StrictLet"));
    assert.ok(kinds("let x = 1;").includes("NonStrictLet"));
    assert.ok(kinds("s = `a${ {b: 1}.b }c${`d${e}`}`;").includes("TemplateCloseBrace"));
    assert.throws(() => g.parse("return return;"));
  });
});

const JS_SAMPLE = `var a = 1, b = -(-a), c = a + +b;
function f(x, y) { return x - -y + /re+/g.source.length; }
let s = \`t\${a + b}u\`;
if (a in {a: 1}) { b++; } else { b--; }
for (let i = 0; i < 3; i++) { s += i / 2; }
`;

describe("glue check on random removals", () => {
  for (const c of [
    { grammar: "c", start: "compilationUnit", input: "cvise-blocksort-c/input.c" },
    { grammar: "json", start: undefined, input: "json-obj-arr-87/input.json" },
    { grammar: "javascript", start: undefined, input: null },
  ] as const) {
    test(`${c.input ?? "a JavaScript sample"}: every rendering lexes to exactly the kept tokens`, async (t) => {
      if (!sharedPresent) return t.skip("../shared not found");
      const g = await grammar(c.grammar, c.start);
      const input = c.input ? sharedInput(c.input) : Buffer.from(JS_SAMPLE);
      const { root } = g.parse(input, c.start ? { start: c.start } : {});
      // Inside a JavaScript template literal, the text around a removed `${…}` lexes as one
      // TemplateStringAtom ("t" and "u" become "tu"): no separator keeps them apart without changing
      // the string, and the result still parses. Those removals are left out of this property.
      const removable = [...nodes(root)].filter((n) => n.removable && n.kind !== "templateStringAtom");
      fc.assert(
        fc.property(
          fc.array(fc.boolean(), { minLength: removable.length, maxLength: removable.length }),
          (picks) => {
            const removed = new Set(removable.filter((_, i) => picks[i]));
            const { text, kept } = renderWithout(g, input, root, removed);
            const lexed = g
              .tokenize(text)
              .tokens.filter((tok) => tok.channel === 0)
              .map((tok) => tok.text);
            assert.deepEqual(lexed, kept);
          },
        ),
        { numRuns: 40 },
      );
    });
  }
});
