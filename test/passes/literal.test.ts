/**
 * The literal pass (`--phase literal`): numbers toward 0 then 1, strings toward empty (the quotes
 * stay) then their first character; all literals in one test first, then one literal at a time, the
 * largest first; a candidate with more syntax errors than the input is never tested.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { coin, frontEnd, reduceWith } from "../helpers/passes.js";
import fc from "fast-check";
import {
  BUILT_IN_LANGUAGES,
  packageRoot,
  type BuiltInLanguage,
} from "../../src/grammar/tree-sitter/index.js";
import { languageSpec } from "../../src/grammar/tree-sitter/languages.js";
import type { Tree } from "../../src/tree/tree.js";

const text = (b: Uint8Array): string => Buffer.from(b).toString();

/** Reduces `input` with `--phase literal` at -j 1: the result and the candidates tested. */
function literals(
  language: BuiltInLanguage,
  input: string,
  interesting: (candidate: string) => boolean,
): Promise<{ out: string; tested: string[] }> {
  return reduceWith(language, ["literal"], input, interesting);
}

test("literal: every number to 0 and every string to empty, in one test", async () => {
  const input = "let x = 12345; let s = \"hello world\"; let f = 3.25; let t = 'q'; let z = 0;\n";
  const { out, tested } = await literals("javascript", input, () => true);
  assert.equal(out, "let x = 0; let s = \"\"; let f = 0; let t = ''; let z = 0;\n");
  assert.equal(tested.length, 1);
});

test("literal: then one literal at a time, the largest first; a string the test needs keeps its first character", async () => {
  const input = "let x = 12345; let s = \"hello world\"; let f = 3.25; let t = 'q';\n";
  const { out, tested } = await literals("javascript", input, (c) => /"[^"]+"/.test(c));
  assert.equal(out, "let x = 0; let s = \"h\"; let f = 0; let t = '';\n");
  assert.deepEqual(tested, [
    "let x = 0; let s = \"\"; let f = 0; let t = '';\n",
    "let x = 12345; let s = \"\"; let f = 3.25; let t = 'q';\n",
    "let x = 12345; let s = \"h\"; let f = 3.25; let t = 'q';\n",
    "let x = 0; let s = \"h\"; let f = 3.25; let t = 'q';\n",
    "let x = 0; let s = \"h\"; let f = 0; let t = 'q';\n",
    "let x = 0; let s = \"h\"; let f = 0; let t = '';\n",
  ]);
});

test("literal (C): a number the test needs non-zero becomes 1; escapes and exponents go too", async () => {
  const input = 'int y = 100 / 7; double d = 2.5e10; char *s = "abc\\n";\n';
  const { out, tested } = await literals("c", input, (c) => !c.includes("/ 0"));
  assert.equal(out, 'int y = 0 / 1; double d = 0; char *s = "";\n');
  // All at once; 2.5e10 and "abc\n" (5 bytes each), 100, then 7 → 1 (7 → 0 is now the all-at-once
  // candidate again: the cache answers it).
  assert.equal(tested.length, 5);
});

test("literal (Python): prefixed and triple-quoted strings keep their quotes", async () => {
  const input = 'x = 1.5\ny = "abc" + \'de\' + f"{x}" + """doc"""\nz = 0\n';
  const { out } = await literals("python", input, () => true);
  assert.equal(out, 'x = 0\ny = "" + \'\' + f"" + """"""\nz = 0\n');
});

test("literal (TypeScript): the type `number` is a keyword, not a number literal", async () => {
  const input = "let x: number = 5;\n";
  const { out } = await literals("typescript", input, () => true);
  assert.equal(out, "let x: number = 0;\n");
});

test("literal (CSS): a dimension keeps its unit", async () => {
  const input = 'a { width: 10px; margin: 1.5em; content: "x"; }\n';
  const { out } = await literals("css", input, () => true);
  assert.equal(out, 'a { width: 0px; margin: 0em; content: ""; }\n');
});

test("literal: a candidate with more syntax errors than the input is never tested", async () => {
  const f = await frontEnd("python");
  // Not empty: the test wants something inside the f-string; its first character `{` alone is no
  // Python tree-sitter reads without an error.
  const input = 'x = f"{y}"\n';
  assert.ok(f.syntaxErrors(Buffer.from('x = f"{"\n')) > 0);
  const { out, tested } = await literals("python", input, (c) => /f"[^"]/.test(c));
  assert.equal(out, input);
  assert.deepEqual(tested, ['x = f""\n']);
});

test("every literal kind a language names is a kind of its grammar", () => {
  for (const language of BUILT_IN_LANGUAGES) {
    const spec = languageSpec(language);
    const types = JSON.parse(
      readFileSync(join(packageRoot(spec), spec.dir, "src/node-types.json"), "utf8"),
    ) as { type: string; named: boolean }[];
    const named = new Set(types.filter((t) => t.named).map((t) => t.type));
    for (const kind of [...spec.numberKinds, ...spec.stringKinds]) {
      assert.ok(named.has(kind), `${language}: ${kind} is not a node type`);
    }
  }
});

// ---------------------------------------------------------------------------------------------------
// A property over generated programs.

interface Literal {
  kind: string;
  text: string;
}

/** The tokens outside literals (their texts) and the literals (outermost), in document order. */
function split(tree: Tree, numberKinds: ReadonlySet<string>, stringKinds: ReadonlySet<string>) {
  const others: string[] = [];
  const found: Literal[] = [];
  const stack = [0];
  while (stack.length > 0) {
    const id = stack.pop()!;
    const kind = tree.kind(id);
    if (numberKinds.has(kind) || stringKinds.has(kind)) {
      found.push({ kind, text: text(tree.input.subarray(tree.start(id), tree.end(id))) });
      continue;
    }
    if (tree.isToken(id)) others.push(text(tree.text(id)));
    const children = tree.children(id);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return { others, found };
}

const word = fc.constantFrom("a", "b", "n");
const number = fc.oneof(
  fc.nat(100000).map(String),
  fc.tuple(fc.nat(99), fc.nat(99)).map(([a, b]) => `${a}.${b}`),
  fc.nat(255).map((n) => `0x${n.toString(16)}`),
);
const content = fc.stringMatching(/^[a-z %]{0,6}$/);
const jsString = fc.oneof(
  content.map((s) => `"${s}"`),
  content.map((s) => `'${s}'`),
  content.map((s) => `"${s}\\n"`),
);
const jsExpr = fc.oneof(
  number,
  jsString,
  fc.tuple(word, number).map(([w, n]) => `${w} * ${n}`),
  fc.tuple(jsString, number).map(([s, n]) => `${s} + ${n}`),
  fc.tuple(word, jsString).map(([w, s]) => `${w}[${s}]`),
);
const jsProgram = fc
  .array(
    fc.tuple(word, jsExpr).map(([w, e]) => `${w} = ${e};`),
    { minLength: 1, maxLength: 6 },
  )
  .map((s) => s.join("\n") + "\n");
const cNumber = fc.oneof(
  number,
  fc.nat(999).map((n) => `${n}UL`),
);
const cProgram = fc
  .array(
    fc.oneof(
      fc.tuple(word, cNumber, cNumber).map(([w, x, y]) => `long ${w} = ${x} + ${y};`),
      fc.tuple(word, jsString).map(([w, s]) => `char *${w} = ${s.replace(/'/g, '"')};`),
      fc.tuple(word, fc.nat(9)).map(([w, n]) => `int ${w}[${n + 1}];`),
    ),
    { minLength: 1, maxLength: 6 },
  )
  .map((s) => s.join("\n") + "\n");

async function literalProperty(language: BuiltInLanguage, program: fc.Arbitrary<string>): Promise<void> {
  const f = await frontEnd(language);
  const { numberKinds, stringKinds } = f.lexicon;
  let shrunk = 0;
  await fc.assert(
    fc.asyncProperty(program, fc.integer(), async (input, seed) => {
      const toss = coin(seed);
      const { out } = await literals(language, input, (c) => c === input || (c !== "" && toss(c)));
      assert.ok(f.syntaxErrors(Buffer.from(out)) <= f.syntaxErrors(Buffer.from(input)));
      const before = split(f.parse(Buffer.from(input)).tree, numberKinds, stringKinds);
      const after = split(f.parse(Buffer.from(out)).tree, numberKinds, stringKinds);
      // Nothing but literals changed, and each literal is as it was or one of its smaller forms.
      assert.deepEqual(after.others, before.others);
      assert.equal(after.found.length, before.found.length);
      before.found.forEach((old, i) => {
        const now = after.found[i]!;
        if (now.text === old.text) return;
        shrunk++;
        if (numberKinds.has(old.kind)) {
          assert.ok(["0", "1", "0.0"].includes(now.text.replace(/UL$/, "")), `${old.text} → ${now.text}`);
        } else {
          const q = old.text[0]!;
          const inner = old.text.slice(1, -1);
          assert.ok(now.text === q + q || now.text === q + inner[0] + q, `${old.text} → ${now.text}`);
        }
      });
    }),
    { numRuns: 60 },
  );
  assert.ok(shrunk > 50, `${shrunk} literals shrunk`);
}

test("literal property (JavaScript): no new errors, only literals change, each to 0, 1, empty or its first character", async () => {
  await literalProperty("javascript", jsProgram);
});

test("literal property (C): no new errors, only literals change, each to 0, 1, empty or its first character", async () => {
  await literalProperty("c", cProgram);
});
