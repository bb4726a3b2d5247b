/**
 * Hoisting over a built-in language's tree: in HDDH (`prune+hoist`) a node may be replaced by a
 * descendant of its own kind (the paper's same rule) or of another kind of one of the grammar's
 * supertypes; HOIST and `chain` keep to the same kind (SUPERTYPE_HOISTING).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { BUILT_IN_LANGUAGES } from "../../src/grammar/tree-sitter/index.js";
import { frontEnd, reduceWith } from "../helpers/passes.js";

test("supertype kinds: JavaScript's expressions and statements replace each other, nothing else does", async () => {
  const kinds = (await frontEnd("javascript")).language.grammar.supertypeKinds();
  const of = (kind: string): ReadonlySet<string> => kinds.get(kind) ?? new Set();
  for (const other of ["identifier", "number", "call_expression", "binary_expression", "member_expression"])
    assert.ok(of("ternary_expression").has(other), other);
  for (const other of ["expression_statement", "statement_block", "return_statement", "lexical_declaration"])
    assert.ok(of("if_statement").has(other), other);
  assert.ok(!of("identifier").has("if_statement"));
  assert.ok(!of("ternary_expression").has("ternary_expression"), "a kind is not listed among its others");
  // Kinds no supertype derives: a property name, the pieces of a statement.
  for (const kind of ["property_identifier", "statement_identifier", "formal_parameters", "arguments"])
    assert.equal(kinds.get(kind), undefined, kind);
});

test("supertype kinds, every built-in language: symmetric, visible kinds only", async () => {
  for (const language of BUILT_IN_LANGUAGES) {
    const kinds = (await frontEnd(language)).language.grammar.supertypeKinds();
    for (const [kind, others] of kinds) {
      assert.ok(!kind.startsWith("_"), `${language}: ${kind}`);
      for (const other of others) assert.ok(kinds.get(other)?.has(kind), `${language}: ${kind} ↔ ${other}`);
    }
    // CSS, HTML and YAML declare no supertypes: their hoisting stays the paper's.
    if (["css", "html", "yaml"].includes(language)) assert.equal(kinds.size, 0, language);
    else assert.ok(kinds.size > 0, language);
  }
});

test("prune+hoist: a conditional expression is replaced by one of its operands, of another kind", async () => {
  const { out } = await reduceWith("javascript", ["prune+hoist*"], "v = Array(n ? n : 0);\n", (c) =>
    c.startsWith("v = Array(n"),
  );
  assert.equal(out, "v = Array(n);\n");
});

test("prune+hoist*: an if statement gives way to the statement in its block; hoist* keeps to its kind", async () => {
  const input = "if (ready) { go(); }\n";
  const wanted = (c: string): boolean => c.includes("go()");
  assert.equal((await reduceWith("javascript", ["prune+hoist*"], input, wanted)).out, "go();\n");
  const { out, tested } = await reduceWith("javascript", ["hoist*"], input, wanted);
  assert.equal(out, input);
  assert.deepEqual(tested, []);
});

test("prune+hoist: C's expressions and statements too; a function definition is no statement", async () => {
  const c = await frontEnd("c");
  const { out, tested } = await reduceWith(
    "c",
    ["prune+hoist*"],
    "int f(int a, int b) { while (b) { return (a + b) * 2; } }\n",
    (candidate) =>
      candidate.includes("f(int a") &&
      /return \(?a/.test(candidate) &&
      c.syntaxErrors(Buffer.from(candidate)) === 0,
  );
  assert.equal(out, "int f(int a) { return a; }\n");
  // No supertype has both a function definition and a statement: the body alone at the top level
  // (which tree-sitter's C grammar would parse) is never tried.
  assert.ok(tested.length > 0);
  assert.ok(!tested.some((candidate) => /^\s*(while|return|\{)/.test(candidate)), tested.join("\n"));
});
