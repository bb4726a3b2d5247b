/**
 * The ANTLR front-end converts each rule's subtree the moment ANTLR completes it (and lets go of
 * ANTLR's), so that a large input's parse tree never exists whole. The tree must be the one that
 * converting ANTLR's whole tree after the parse gives. A grammar helper that skips the hook (its
 * parser calls antlr4ng's own exitRule and unrollRecursionContexts) gives the late conversion; the
 * two must agree on inputs with left recursion, quantifiers, nesting and syntax errors.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import fc from "fast-check";
import { loadAntlrGrammar, type AntlrGrammar } from "../../src/grammar/antlr/index.js";
import { FIXTURES } from "./helpers.js";

const scratch = mkdtempSync(join(tmpdir(), "whittle-antlr-streaming-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** Left-recursive (a precedence rule), right-recursive, quantified and nested rules. */
const EXPR = `grammar Expr;
prog : stat* EOF ;
stat : e ';' | ID '=' e ';' | '{' stat* '}' | 'if' e stat ('else' stat)? ;
e : e ('*' | '/') e | e ('+' | '-') e | <assoc=right> e '^' e | '(' e ')' | call | INT | ID ;
call : ID '(' (e (',' e)*)? ')' ;
INT : [0-9]+ ;
ID : [a-z]+ ;
WS : [ \\t\\r\\n]+ -> skip ;
`;

/** A parser mixin that bypasses whittle's hook: ANTLR's own methods, as before the hook existed. */
const LATE = `export const parser = (Base) => class extends Base {
  exitRule() { Object.getPrototypeOf(Base.prototype).exitRule.call(this); }
  unrollRecursionContexts(parent) {
    Object.getPrototypeOf(Base.prototype).unrollRecursionContexts.call(this, parent);
  }
};
`;

async function pair(grammarFiles: string[]): Promise<[AntlrGrammar, AntlrGrammar]> {
  const late = join(scratch, "late.mjs");
  writeFileSync(late, LATE);
  return Promise.all([
    loadAntlrGrammar({ grammarFiles, cacheDir: false }),
    loadAntlrGrammar({ grammarFiles, cacheDir: false, grammarHelpers: late }),
  ]);
}

const WORDS = [
  "a",
  "b",
  "f",
  "1",
  "23",
  "+",
  "-",
  "*",
  "/",
  "^",
  "(",
  ")",
  ",",
  ";",
  "=",
  "{",
  "}",
  "if",
  "else",
];

test("subtrees converted as ANTLR completes them give the tree of converting it after the parse", async () => {
  const grammar = join(scratch, "Expr.g4");
  writeFileSync(grammar, EXPR);
  const [streaming, late] = await pair([grammar]);
  const check = (text: string): void => {
    const a = streaming.parse(text, { allowSyntaxErrors: true });
    const b = late.parse(text, { allowSyntaxErrors: true });
    assert.deepEqual(a.root, b.root, text);
    assert.equal(a.syntaxErrors, b.syntaxErrors, text);
  };
  // Valid programs with deep operator nests, and random token soup (ANTLR's error recovery).
  check("x = 1 + 2 * 3 - f(4, 5 ^ 6 ^ 7) / (8 - 9); if a { b; c = d; } else e;");
  check("a = ((((1)))) * 2 + 3 * 4 + 5 * 6 + 7; f(); g(1); h(1, 2, 3);");
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...WORDS), { maxLength: 40 }), (words) => check(words.join(" "))),
    { numRuns: 300 },
  );
});

test("the same for the JSON grammar (quantified groups, no recursion of its rules into themselves)", async () => {
  const [streaming, late] = await pair([join(FIXTURES, "JSON.g4")]);
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
      const text = JSON.stringify(value, null, 1);
      assert.deepEqual(streaming.parse(text).root, late.parse(text).root);
    }),
    { numRuns: 200 },
  );
});
