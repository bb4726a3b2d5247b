/**
 * The token pass (`--phase token`): ddmin over the grammar's tokens, and over the lexemes of a
 * token the grammar leaves long (a macro's body, a string's words).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { tokenLexemes } from "../../src/passes/lexemes.js";
import { frontEnd, reduceWith } from "../helpers/passes.js";

/** The lexemes tokenLexemes gives for the token of `kind` in `input`, as text. */
async function lexemesOf(language: "c" | "javascript", input: string, kind: string): Promise<string[]> {
  const f = await frontEnd(language);
  const { tree } = f.parse(Buffer.from(input));
  const t = tree.tokens.find((id) => tree.kind(id) === kind);
  assert.ok(t !== undefined, `no ${kind} in ${JSON.stringify(input)}`);
  const pairs = tokenLexemes(f, tree, t);
  const out: string[] = [];
  for (let p = 0; p < pairs.length; p += 2)
    out.push(Buffer.from(tree.input.subarray(pairs[p], pairs[p + 1])).toString());
  return out;
}

test("tokenLexemes: a macro's body is its words and marks, each with the blanks and continuations before it", async () => {
  assert.deepEqual(await lexemesOf("c", "#define SWAP(a) \\\n  { tmp = a[1]; } \n", "preproc_arg"), [
    "{",
    " tmp",
    " =",
    " a",
    "[",
    "1",
    "]",
    ";",
    " }",
  ]);
});

test("tokenLexemes: a string's content without its quotes; one word, a number or a keyword is not split", async () => {
  assert.deepEqual(await lexemesOf("javascript", 'x = "the quick fox";\n', "string_fragment"), [
    "the",
    " quick",
    " fox",
  ]);
  assert.deepEqual(await lexemesOf("javascript", 'x = "word";\n', "string_fragment"), []);
  assert.deepEqual(await lexemesOf("javascript", "x = 1.5e3;\n", "number"), []);
  assert.deepEqual(await lexemesOf("javascript", "x = y;\n", "identifier"), []);
  assert.deepEqual(await lexemesOf("c", "int x;\n", "primitive_type"), []);
});

test("--phase token deletes the lexemes of a macro's body one by one, and is 1-minimal over them", async () => {
  const input = "#define SWAP { int t = lo[a]; lo[a] = hi[b]; hi[b] = t; }\nint x;\n";
  const { out, tested } = await reduceWith("c", ["token"], input, (s) =>
    /^#define SWAP .*\bhi\b.*\nint x;\n$/.test(s),
  );
  assert.equal(out, "#define SWAP hi\nint x;\n");
  // No candidate cut a word, and each lexeme of the result was tried without it.
  for (const s of tested) assert.ok(!/\b(h|i|l|o)\b/.test(s.replace("int x;", "")), JSON.stringify(s));
  assert.ok(tested.includes("#define SWAP \nint x;\n") || tested.includes("#define SWAP\nint x;\n"));
});

test("--phase token: the words of a string go one by one, never cut", async () => {
  const input = 'console.log("the quick brown fox jumps");\n';
  const { out, tested } = await reduceWith("javascript", ["token"], input, (s) =>
    /"[^"]*brown[^"]*"/.test(s),
  );
  assert.equal(out, '"brown"\n');
  const words = new Set(input.match(/\w+/g));
  for (const s of tested) for (const w of s.match(/\w+/g) ?? []) assert.ok(words.has(w), JSON.stringify(s));
  // The pass found "brown" inside the string, which is one token to the tree.
  assert.ok(tested.some((s) => /"\w+( \w+){1,3}"/.test(s)));
});
