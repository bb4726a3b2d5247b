/**
 * The rename pass (`--phase rename`): every occurrence of an identifier renamed at once to a short
 * name that nothing in the input uses and that is no keyword; all names in one test first, then one
 * name a test. And the names the tree-sitter languages take for identifiers and keywords.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { coin, frontEnd, reduceWith } from "../helpers/passes.js";
import fc from "fast-check";
import { buildPipeline } from "../../src/cli/pipeline.js";
import { UsageError } from "../../src/cli/args.js";
import type { BuiltInLanguage } from "../../src/grammar/tree-sitter/index.js";
import { freshNames } from "../../src/passes/rename.js";
import type { Tree } from "../../src/tree/tree.js";

const text = (b: Uint8Array): string => Buffer.from(b).toString();

test("rename: every name at once in one test, the most bytes first, each occurrence alike", async () => {
  const input =
    "function compute(value) { const total = value * 2; return total; }\nconsole.log(compute(21));\n";
  const { out, tested } = await reduceWith("javascript", ["rename"], input, () => true);
  // compute saves 2 × 7 bytes, value and total 2 × 5 (value comes first), console 7, log 3.
  assert.equal(out, "function a(b) { const c = b * 2; return c; }\nd.e(a(21));\n");
  assert.equal(tested.length, 1);
});

test("rename: when all at once is not interesting, one name a test; a name the test needs stays", async () => {
  const input =
    "function compute(value) { const total = value * 2; return total; }\nconsole.log(compute(21));\n";
  const { out, tested } = await reduceWith("javascript", ["rename"], input, (c) =>
    c.includes("console.log("),
  );
  assert.equal(out, "function a(b) { const c = b * 2; return c; }\nconsole.log(a(21));\n");
  // All at once, then compute, value, total, console, log: one test each.
  assert.equal(tested.length, 6);
  assert.equal(tested[4], "function a(b) { const c = b * 2; return c; }\nd.log(a(21));\n");
  assert.equal(tested[5], "function a(b) { const c = b * 2; return c; }\nconsole.d(a(21));\n");
});

test("rename: names in strings and comments stay, and no new name is a word of the input", async () => {
  const input = '// the total is b\nlet a = 1, total = a + 2;\nlet label = "total";\n';
  const { out } = await reduceWith("javascript", ["rename"], input, () => true);
  // `a` and `b` are taken (b only in the comment), so total → c, label → d.
  assert.equal(out, '// the total is b\nlet a = 1, c = a + 2;\nlet d = "total";\n');
});

test("rename: names as short as the shortest free name are not renamed (no test at all)", async () => {
  const input = "int x, y; int f(int z) { return x + y + z; }\n";
  const { out, tested } = await reduceWith("c", ["rename"], input, () => true);
  assert.equal(out, input);
  assert.equal(tested.length, 0);
});

test("rename: C's identifiers, types, fields and labels are one name when they are one text", async () => {
  const input =
    "typedef struct node { int value; struct node *next; } node;\n" +
    "int sum(node *list) { int value = 0; again: if (list) { value += list->value; list = list->next; goto again; } return value; }\n";
  const { out, tested } = await reduceWith("c", ["rename"], input, () => true);
  // value (5 × 5 bytes: a field and a variable), list (4 × 5), node (4 × 4: tag and typedef),
  // again (5 × 2: a label), next (4 × 2), sum (3).
  assert.equal(
    out,
    "typedef struct c { int a; struct c *e; } c;\n" +
      "int f(c *b) { int a = 0; d: if (b) { a += b->a; b = b->e; goto d; } return a; }\n",
  );
  assert.equal(tested.length, 1);
});

test("rename: a name written inside a syntax error's region is renamed nowhere, the others are", async () => {
  // gcc takes a function without a return type (implicit int); tree-sitter-c reads an ERROR there,
  // kept whole as one unit, so `count` in it cannot be renamed there, and so nowhere.
  const input =
    "t(double z[],int n){return z[n];}y(double,double,int count){int n=(count)/(count%2);}\nint helper(int value){return value;}\n";
  const f = await frontEnd("c");
  assert.ok(f.syntaxErrors(Buffer.from(input)) > 0);
  const { out, tested } = await reduceWith("c", ["rename"], input, () => true);
  assert.equal(
    out,
    "t(double z[],int n){return z[n];}y(double,double,int count){int n=(count)/(count%2);}\nint b(int a){return a;}\n",
  );
  assert.equal(tested.length, 1);
});

test("rename: a PHP name is taken whatever its case (PHP's functions and classes ignore case)", async () => {
  const input = "<?php\nfunction A() {}\nfunction helper() { return A(); }\n";
  const { out } = await reduceWith("php", ["rename"], input, () => true);
  // `a` would be `A`: helper becomes b.
  assert.equal(out, "<?php\nfunction A() {}\nfunction b() { return A(); }\n");
});

test("rename (HTML): a page's scripts and event handlers are renamed together, its styles' names and its markup are not", async () => {
  const input =
    "<style>.total { color: red } #value { margin: 10px }</style>\n" +
    '<div class="total" id="value" onclick="compute()" data-x="compute" onfocus=compute(1)>x</div>\n' +
    "<script>function compute(value) { var total = value * 2; return total; }</script>\n" +
    "<script>compute(21);</script>\n";
  const { out, tested } = await reduceWith("html", ["rename"], input, () => true);
  // compute (7 × 5: the scripts and the handlers, scripts in the markup), value and total (5 × 2
  // each, value first); not `.total` and `#value`, whose names are the markup's, nor another
  // attribute's text.
  assert.equal(
    out,
    "<style>.total { color: red } #value { margin: 10px }</style>\n" +
      '<div class="total" id="value" onclick="a()" data-x="compute" onfocus=a(1)>x</div>\n' +
      "<script>function a(b) { var c = b * 2; return c; }</script>\n" +
      "<script>a(21);</script>\n",
  );
  assert.equal(tested.length, 1);
  const html = await frontEnd("html");
  assert.ok(html.lexicon.identifierKinds.has("identifier"));
  assert.ok(html.lexicon.numberKinds.has("number") && html.lexicon.numberKinds.has("integer_value"));
  assert.ok(html.lexicon.keywords.has("function"));
  assert.equal(html.hasNames(Buffer.from(input)), true);
  assert.equal(html.hasNames(Buffer.from("<style>.a { color: red }</style><p>b</p>")), false);
  assert.equal(html.hasNames(Buffer.from('<script type="text/template">x = y</script>')), false);
  // A page whose only script is a handler, quoted or not, has names; another attribute's is text.
  assert.equal(html.hasNames(Buffer.from("<body onload='start(1)'>x</body>")), true);
  assert.equal(html.hasNames(Buffer.from("<body onload=start()>x</body>")), true);
  assert.equal(html.hasNames(Buffer.from("<body data-x=start()>x</body>")), false);
});

test("rename (CSS): a custom property keeps its `--` in every declaration and var(); CSS's own words stay", async () => {
  const input =
    "body { --text-muted: var(--text-subtle); --text-subtle: #777 }\n" +
    ".notice { color: var(--text-muted); margin: var(--gap, 4px) }\n";
  const { out, tested } = await reduceWith("css", ["rename"], input, () => true);
  // --text-muted and --text-subtle (2 × 12 and 2 × 13 bytes, the larger first), .notice, --gap;
  // not `body`, `color`, `margin` or `var`, which are CSS's.
  assert.equal(out, "body { --b: var(--a); --a: #777 }\n.c { color: var(--b); margin: var(--d, 4px) }\n");
  assert.equal(tested.length, 1);
  const css = await frontEnd("css");
  assert.equal(css.hasNames(Buffer.from("a { --x: 1 }")), true);
  // In a page, a style's names are the markup's too: not renamed (see the HTML test above).
  const html = await frontEnd("html");
  assert.equal(html.hasNames(Buffer.from("<style>a { --x: var(--x) }</style>")), false);
});

test("freshNames: shortest first, letters then two characters, never a keyword or a taken name", async () => {
  const js = (await frontEnd("javascript")).lexicon;
  const names = [...take(freshNames(new Set(["a", "c"]), js.keywords, false), 300)];
  assert.deepEqual(names.slice(0, 3), ["b", "d", "e"]);
  assert.equal(names[50], "aa");
  for (const name of names) {
    assert.ok(!js.keywords.has(name), `${name} is a keyword`);
    assert.match(name, /^[a-zA-Z][a-zA-Z0-9]*$/);
  }
  // JavaScript's two-letter keywords are skipped.
  for (const keyword of ["do", "if", "in"]) {
    assert.ok(js.keywords.has(keyword), keyword);
    assert.ok(!names.includes(keyword), keyword);
  }
  assert.equal(new Set(names).size, names.length);
  const lengths = names.map((n) => n.length);
  assert.deepEqual(
    lengths,
    [...lengths].sort((x, y) => x - y),
  );
  // Case-insensitive: `A` is taken when `a` is.
  const ci = [...take(freshNames(new Set(["a"]), new Set(), true), 30)];
  assert.ok(!ci.includes("A") && ci.includes("B"));
});

function* take<T>(items: Iterable<T>, n: number): Iterable<T> {
  if (n <= 0) return;
  for (const item of items) {
    yield item;
    if (--n === 0) return;
  }
}

test("the identifier kinds come from each grammar's word rule and its aliases", async () => {
  const kinds = async (language: BuiltInLanguage): Promise<string[]> =>
    [...(await frontEnd(language)).lexicon.identifierKinds].sort();
  assert.deepEqual(await kinds("c"), [
    "field_identifier",
    "identifier",
    "statement_identifier",
    "type_identifier",
  ]);
  assert.deepEqual(await kinds("javascript"), [
    "identifier",
    "property_identifier",
    "shorthand_property_identifier",
    "shorthand_property_identifier_pattern",
    "statement_identifier",
  ]);
  assert.deepEqual(await kinds("python"), ["identifier"]);
  assert.deepEqual(await kinds("go"), [
    "field_identifier",
    "identifier",
    "label_name",
    "package_identifier",
    "type_identifier",
  ]);
  assert.deepEqual(await kinds("bash"), ["variable_name"]);
  assert.deepEqual(await kinds("json"), []);
  const c = (await frontEnd("c")).lexicon.keywords;
  for (const keyword of ["int", "return", "struct", "while", "sizeof"]) assert.ok(c.has(keyword), keyword);
  assert.ok(!c.has("main"));
});

test("--phase rename and literal are refused without a built-in language's lexicon", () => {
  const antlrLike = { parse: () => assert.fail("not parsed") };
  for (const phase of ["rename", "literal"]) {
    assert.throws(
      () => buildPipeline([phase], "both", antlrLike),
      (error: unknown) =>
        error instanceof UsageError &&
        error.message.includes(`--phase ${phase}`) &&
        /built-in/.test(error.message),
    );
    assert.throws(() => buildPipeline([phase], "both", undefined), UsageError);
  }
});

// ---------------------------------------------------------------------------------------------------
// Properties over generated programs.

/** Every node's kind and parent, in document order: the tree's shape without its text. */
function shape(tree: Tree): string[] {
  const out: string[] = [];
  for (let id = 0; id < tree.size; id++) out.push(`${tree.kind(id)}<${tree.parent(id)}`);
  return out;
}

function tokenKinds(tree: Tree): string[] {
  return Array.from(tree.tokens, (t) => tree.kind(t));
}

const NAMES = ["a", "b", "value", "total", "x1", "_tmp", "get", "of", "A", "count", "n", "longer_name"];
const name = fc.constantFrom(...NAMES);

const jsExpr = fc.oneof(
  name,
  fc.nat(99).map(String),
  fc.tuple(name, name).map(([x, y]) => `${x} + ${y}`),
  fc.tuple(name, name).map(([x, y]) => `${x}.${y}`),
  fc.tuple(name, name).map(([f, x]) => `${f}(${x})`),
  fc.tuple(name, name).map(([k, v]) => `({ ${k}: ${v}, ${v} })`),
);
const jsStatement = fc.oneof(
  fc.tuple(name, jsExpr).map(([x, e]) => `var ${x} = ${e};`),
  fc.tuple(name, name, name, jsExpr).map(([f, p, q, e]) => `function ${f}(${p}, ${q}) { return ${e}; }`),
  fc.tuple(name, name, jsExpr).map(([o, p, e]) => `${o}.${p} = ${e};`),
  fc.tuple(name, jsExpr).map(([l, e]) => `${l}: for (;;) { ${e}; break ${l}; }`),
  fc.tuple(name, name).map(([k, v]) => `var { ${k}, x: ${v} } = "${k}";`),
);
const jsProgram = fc.array(jsStatement, { minLength: 1, maxLength: 6 }).map((s) => s.join("\n") + "\n");

const cType = fc.constantFrom("int", "long", "char *");
const cExpr = fc.oneof(
  name,
  fc.nat(99).map(String),
  fc.tuple(name, name).map(([x, y]) => `${x} * ${y}`),
  fc.tuple(name, name).map(([s, f]) => `${s}.${f}`),
  fc.tuple(name, name).map(([f, x]) => `${f}(${x})`),
);
const cStatement = fc.oneof(
  fc.tuple(cType, name, cExpr).map(([t, x, e]) => `${t} ${x} = ${e};`),
  fc
    .tuple(cType, name, name, cExpr)
    .map(([t, f, p, e]) => `${t} ${f}(${t} ${p}) { ${p} = ${e}; return ${p}; }`),
  fc.tuple(name, name, name).map(([s, f, g]) => `struct ${s} { int ${f}; long ${g}; };`),
  fc.tuple(name, cExpr).map(([l, e]) => `void f(void) { ${l}: ${e}; goto ${l}; }`),
);
const cProgram = fc.array(cStatement, { minLength: 1, maxLength: 6 }).map((s) => s.join("\n") + "\n");

const cssDeclaration = fc.oneof(
  fc.tuple(name, name).map(([p, q]) => `--${p}: var(--${q});`),
  name.map((p) => `color: var(--${p}, red);`),
  fc.tuple(name, fc.nat(99)).map(([p, n]) => `--${p}: ${n}px;`),
);
const cssRule = fc
  .tuple(
    fc.oneof(
      name.map((n) => `.${n}`),
      fc.constant("div"),
    ),
    fc.array(cssDeclaration, { minLength: 1, maxLength: 4 }),
  )
  .map(([selector, declarations]) => `${selector} { ${declarations.join(" ")} }`);
const cssSheet = fc.array(cssRule, { minLength: 1, maxLength: 5 }).map((r) => r.join("\n") + "\n");

async function renameProperty(language: BuiltInLanguage, program: fc.Arbitrary<string>): Promise<void> {
  const f = await frontEnd(language);
  const { keywords } = f.lexicon;
  let renamed = 0;
  await fc.assert(
    fc.asyncProperty(program, fc.integer(), async (input, seed) => {
      const toss = coin(seed);
      const { out } = await reduceWith(
        language,
        ["rename"],
        input,
        (c) => c === input || (c !== "" && toss(c)),
      );
      const before = f.parse(Buffer.from(input)).tree;
      const after = f.parse(Buffer.from(out)).tree;
      // The same tree (around syntax errors, the same tokens), and no more syntax errors.
      const errors = f.syntaxErrors(Buffer.from(input));
      if (errors === 0) assert.deepEqual(shape(after), shape(before));
      else assert.deepEqual(tokenKinds(after), tokenKinds(before));
      assert.ok(f.syntaxErrors(Buffer.from(out)) <= errors);
      // Token by token: only identifiers change, each name to one new name, no two names to one.
      const forward = new Map<string, string>();
      const backward = new Map<string, string>();
      for (let i = 0; i < before.tokens.length; i++) {
        const [b, a] = [before.tokens[i]!, after.tokens[i]!];
        const [old, now] = [text(before.text(b)), text(after.text(a))];
        if (!f.isName(before, b)) {
          assert.equal(now, old, `a ${before.kind(b)} changed`);
          continue;
        }
        assert.equal(forward.get(old) ?? now, now, `${old} renamed two ways`);
        assert.equal(backward.get(now) ?? old, old, `${now} is two names`);
        forward.set(old, now);
        backward.set(now, old);
        if (now !== old) {
          renamed++;
          assert.ok(!keywords.has(old), `the keyword ${old} was renamed`);
          assert.ok(!keywords.has(now), `${now} is a keyword`);
          assert.ok(now.length < old.length, `${old} → ${now} is no shorter`);
          if (old.startsWith("--")) assert.ok(now.startsWith("--"), `${old} → ${now} lost its prefix`);
          // A prefixed name (CSS's `--a`) is new when its name after the prefix is.
          const bare = now.replace(/^\W+/, "");
          assert.ok(!new RegExp(`\\b${bare}\\b`).test(input), `${now} was in the input`);
        }
      }
      // Outside the tokens (comments, blanks) nothing changed.
      assert.equal(out.replace(/\w+/g, ""), input.replace(/\w+/g, ""));
    }),
    { numRuns: 60 },
  );
  assert.ok(renamed > 50, `${renamed} names renamed`);
}

test("rename property (JavaScript): same tree, no new errors, names one to one, no keywords", async () => {
  await renameProperty("javascript", jsProgram);
});

test("rename property (C): same tree, no new errors, names one to one, no keywords", async () => {
  await renameProperty("c", cProgram);
});

test("rename property (CSS): same tree, custom properties and class names one to one, each custom property still `--`", async () => {
  await renameProperty("css", cssSheet);
});
