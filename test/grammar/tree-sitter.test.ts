/**
 * The tree-sitter front-end: built-in languages parsed into the tree model, removability from
 * grammar.json checked against the parser itself, minimal replacements, and a reduction end to end.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { Script } from "node:vm";
import { reduce } from "../../src/index.js";
import { parsePhase, treePass } from "../../src/hdd/phases.js";
import { TsGrammar, type Rule } from "../../src/grammar/tree-sitter/grammar-json.js";
import {
  BUILT_IN_LANGUAGES,
  TreeSitterFrontEnd,
  type BuiltInLanguage,
} from "../../src/grammar/tree-sitter/index.js";
import { removableGroups } from "../../src/grammar/tree-sitter/match.js";
import { shortestMatch } from "../../src/grammar/tree-sitter/shortest.js";
import { decodeUtf8 } from "../../src/grammar/tree-sitter/utf8.js";
import { EditSet } from "../../src/tree/edits.js";
import { render } from "../../src/tree/render.js";
import { NO_TRANSFORMS, Tree } from "../../src/tree/tree.js";
import { nodes, sharedInput, sharedPresent, tokens } from "./helpers.js";
import { SAMPLES } from "./tree-sitter-samples.js";

const text = (b: Uint8Array): string => Buffer.from(b).toString();

/** The samples, and the small shared benchmark inputs of the language when ../shared is there. */
function inputsOf(language: BuiltInLanguage): Buffer[] {
  const shared: Partial<Record<BuiltInLanguage, string[]>> = {
    json: ["json-obj-arr-87/input.json"],
    c: ["zeller-bug-c/input.c"],
  };
  return [
    ...SAMPLES[language].map((s) => Buffer.from(s)),
    ...(sharedPresent ? (shared[language] ?? []).map(sharedInput) : []),
  ];
}
const frontEnds = new Map<BuiltInLanguage, TreeSitterFrontEnd>();
async function frontEnd(language: BuiltInLanguage): Promise<TreeSitterFrontEnd> {
  let fe = frontEnds.get(language);
  if (fe === undefined) frontEnds.set(language, (fe = await TreeSitterFrontEnd.load({ language })));
  return fe;
}

test("every sample parses without a syntax error", async () => {
  for (const language of BUILT_IN_LANGUAGES) {
    const fe = await frontEnd(language);
    for (const sample of SAMPLES[language]) assert.equal(fe.parseRaw(Buffer.from(sample)).errors, 0, sample);
  }
});

test("round trip: parse and render without edits gives the input, byte for byte", async () => {
  const odd = [
    Buffer.from([0x7b, 0x22, 0xff, 0xc3, 0x22, 0x3a, 0x20, 0x31, 0x7d]), // invalid UTF-8 in a string
    Buffer.from("  \n"),
    Buffer.from(""),
  ];
  for (const language of BUILT_IN_LANGUAGES) {
    const fe = await frontEnd(language);
    for (const input of [...SAMPLES[language].map((s) => Buffer.from(s)), ...odd]) {
      const { tree, glue } = fe.parse(input);
      assert.deepEqual(Buffer.from(render(tree, EditSet.EMPTY, glue)), input, `${language}: ${text(input)}`);
    }
  }
});

test("error-tolerant trees: broken inputs of every language round-trip, each error region one removable leaf", async () => {
  let regions = 0;
  for (const language of BUILT_IN_LANGUAGES) {
    const fe = await frontEnd(language);
    let brokenInputs = 0;
    for (const sample of SAMPLES[language]) {
      const input = Buffer.from(sample);
      // Cuts of a few bytes in the middle leave ERROR nodes (and MISSING ones) behind.
      const step = Math.max(1, Math.floor(input.length / 12));
      for (let i = step; i < input.length; i += step) {
        const broken = Buffer.concat([input.subarray(0, i), input.subarray(i + 3)]);
        const raw = fe.parseRaw(broken);
        if (raw.errors === 0) continue;
        brokenInputs++;
        const { tree, glue } = fe.parse(broken);
        assert.deepEqual(
          Buffer.from(render(tree, EditSet.EMPTY, glue)),
          broken,
          `${language}: ${text(broken)}`,
        );
        for (const node of nodes(raw.root)) {
          if (node.kind !== "ERROR" || node === raw.root) continue;
          // Never split: a leaf, whose text is the region's; removable whole.
          regions++;
          assert.ok(node.token && node.children.length === 0, `${language}: ${text(broken)}`);
          assert.equal(node.replacement, "");
          assert.ok(node.removable);
        }
        assert.ok(raw.errorBytes <= broken.length);
      }
    }
    assert.ok(brokenInputs > 0, `${language}: no broken input`);
  }
  assert.ok(regions > 50, `only ${regions} error regions`);
});

test("offsets are UTF-8 byte offsets, also after non-ASCII text and astral characters", async () => {
  const fe = await frontEnd("json");
  const input = Buffer.from('["é🙂", 42]');
  const numbers = tokens(fe.parseRaw(input).root).filter((t) => t.kind === "number");
  assert.equal(numbers.length, 1);
  assert.equal(numbers[0]!.start, input.indexOf("42"));
  assert.equal(numbers[0]!.end, input.indexOf("42") + 2);

  const decoded = decodeUtf8(Buffer.from([0x61, 0xc3, 0xa9, 0xf0, 0x9f, 0x99, 0x82, 0xff, 0x62]));
  assert.equal(decoded.text, "aé🙂\ufffdb");
  assert.deepEqual([...decoded.byteAt], [0, 1, 3, 3, 7, 8, 9]);
});

test("a byte order mark: every language's tokens keep their kinds and offsets (three bytes later), and the round trip is exact", async () => {
  const bom = Buffer.from([0xef, 0xbb, 0xbf]);
  assert.equal(decodeUtf8(Buffer.concat([bom, Buffer.from("é")])).text, "\ufeffé");
  for (const language of BUILT_IN_LANGUAGES) {
    const fe = await frontEnd(language);
    for (const sample of SAMPLES[language]) {
      const input = Buffer.concat([bom, Buffer.from(sample)]);
      const plain = tokens(fe.parseRaw(Buffer.from(sample)).root);
      const marked = tokens(fe.parseRaw(input).root);
      for (const token of marked) assert.ok(token.start >= 3, `${language}: a token in the mark: ${sample}`);
      assert.deepEqual(
        marked.map((t) => [t.kind, t.start - 3, t.end - 3]),
        plain.map((t) => [t.kind, t.start, t.end]),
        `${language}: ${sample}`,
      );
      const { tree, glue } = fe.parse(input);
      assert.deepEqual(Buffer.from(render(tree, EditSet.EMPTY, glue)), input, `${language}: ${sample}`);
    }
  }
});

test("glue: a space between tokens that would lex as one, never inside a string literal", async () => {
  const fe = await frontEnd("javascript");
  assert.equal(fe.glue("let", "x"), true);
  assert.equal(fe.glue("+", "+"), true);
  assert.equal(fe.glue("1", ".5"), true);
  assert.equal(fe.glue("(", "x"), false);
  assert.equal(fe.glue("x", ";"), false);
  assert.equal(fe.glue("ab", "cd", "string_fragment", "escape_sequence"), false);
  // Removing the escape of "ab\ncd" leaves "abcd", not "ab cd".
  const input = Buffer.from('x = "ab\\ncd";');
  const { tree, glue } = fe.parse(input);
  const escape = [...Array(tree.size).keys()].find((id) => tree.kind(id) === "escape_sequence")!;
  assert.ok(tree.isRemovable(escape));
  assert.equal(text(render(tree, EditSet.EMPTY.remove([escape]), glue)), 'x = "abcd";');
});

test("extras (comments) are not nodes: their bytes stay between the tokens", async () => {
  const fe = await frontEnd("javascript");
  const { root } = fe.parseRaw(Buffer.from("a; /* c */ b; // d\n"));
  assert.ok([...nodes(root)].every((n) => n.kind !== "comment"));
  assert.deepEqual(
    tokens(root).map((t) => t.kind),
    ["identifier", ";", "identifier", ";"],
  );
});

/**
 * Node kinds whose removal is known to break the sample: in Bash the newline that ends the statement
 * before an `elif` is hidden text before the elif clause, and goes with it (`b` `fi` on one line).
 * HDD then finds the candidate not interesting if the test parses the script, and goes on.
 */
const KNOWN_BAD_REMOVALS: ReadonlySet<string> = new Set(["bash elif_clause"]);

/** How many kinds of removable node the samples must have at least, per language (default 15). */
const MIN_REMOVABLE_KINDS: Partial<Record<BuiltInLanguage, number>> = { json: 5, html: 8, yaml: 8 };

/**
 * Removability against the parser: every node the front-end marks removable, removed alone, leaves
 * an input that tree-sitter parses without an ERROR or MISSING node. Checked on the tree as the
 * passes see it (all transforms) and on the bare tree, for every node type in the samples.
 */
test("syntaxErrors (the syntax filter's count) is parseRaw's count, on intact and broken inputs", async () => {
  for (const language of BUILT_IN_LANGUAGES) {
    const fe = await frontEnd(language);
    let broken = 0;
    for (const input of inputsOf(language)) {
      // Every prefix and every one-token-sized cut, in steps: truncations leave MISSING nodes,
      // cuts in the middle ERROR nodes.
      const step = Math.max(1, Math.floor(input.length / 40));
      const candidates = [input];
      for (let i = 0; i < input.length; i += step) {
        candidates.push(input.subarray(0, i));
        candidates.push(Buffer.concat([input.subarray(0, i), input.subarray(i + step)]));
      }
      for (const candidate of candidates) {
        const expected = fe.parseRaw(candidate).errors;
        if (expected > 0) broken++;
        assert.equal(fe.syntaxErrors(candidate), expected, `${language}: ${JSON.stringify(text(candidate))}`);
      }
    }
    assert.ok(broken > 10, `${language}: only ${broken} broken candidates`);
  }
});

test("removing any removable node adds no syntax error to any sample", async () => {
  for (const language of BUILT_IN_LANGUAGES) {
    const fe = await frontEnd(language);
    const removableKinds = new Set<string>();
    for (const input of inputsOf(language)) {
      // A shared input may have errors of its own (zeller-bug-c's Duff's device): none may be added.
      const before = fe.parseRaw(input).errors;
      for (const transforms of [undefined, NO_TRANSFORMS]) {
        const tree =
          transforms === undefined
            ? fe.parse(input).tree
            : Tree.build(input, fe.parseRaw(input).root, transforms);
        let removable = 0;
        for (let id = 1; id < tree.size; id++) {
          if (!tree.isRemovable(id)) continue;
          removable++;
          removableKinds.add(tree.kind(id));
          if (KNOWN_BAD_REMOVALS.has(`${language} ${tree.kind(id)}`)) continue;
          const candidate = render(tree, EditSet.EMPTY.remove([id]), fe.glue);
          assert.ok(
            fe.parseRaw(candidate).errors <= before,
            `${language}: removing ${tree.kind(id)} ${JSON.stringify(text(tree.text(id)))} gives ${JSON.stringify(text(candidate))}`,
          );
        }
        assert.ok(removable > 0, `${language}: nothing removable`);
      }
    }
    assert.ok(
      removableKinds.size >= (MIN_REMOVABLE_KINDS[language] ?? 15),
      `${language}: ${[...removableKinds].join(" ")}`,
    );
  }
});

test("replacing any node by its minimal replacement adds no syntax error to any sample", async () => {
  for (const language of BUILT_IN_LANGUAGES) {
    const fe = await frontEnd(language);
    for (const input of inputsOf(language)) {
      const before = fe.parseRaw(input).errors;
      const { tree, glue } = fe.parse(input);
      for (let id = 1; id < tree.size; id++) {
        if (tree.isFixed(id) || KNOWN_BAD_REMOVALS.has(`${language} ${tree.kind(id)}`)) continue;
        const candidate = render(tree, EditSet.EMPTY.remove([id]), glue);
        assert.ok(
          fe.parseRaw(candidate).errors <= before,
          `${language}: replacing ${tree.kind(id)} ${JSON.stringify(text(tree.text(id)))} by ${JSON.stringify(text(tree.replacement(id)))} gives ${JSON.stringify(text(candidate))}`,
        );
      }
    }
  }
});

test("minimal replacements of known nodes", async () => {
  const cases: [BuiltInLanguage, string, string][] = [
    ["json", "object", "{}"],
    ["json", "array", "[]"],
    ["json", "number", "0"],
    ["json", "string", '""'],
    ["javascript", "statement_block", "{}"],
    ["javascript", "formal_parameters", "()"],
    ["javascript", "identifier", "a"],
    ["c", "compound_statement", "{}"],
    ["c", "parameter_list", "()"],
    ["c", "number_literal", "0"],
  ];
  for (const [language, kind, replacement] of cases) {
    assert.equal((await frontEnd(language)).language.shortest.get(kind), replacement, `${language} ${kind}`);
  }
  // In the tree: a node that must stay gets its rule's shortest text, an optional one "".
  const { root } = (await frontEnd("c")).parseRaw(Buffer.from("int main(void) { return 0; }"));
  const body = [...nodes(root)].find((n) => n.kind === "compound_statement")!;
  assert.deepEqual([body.removable, body.replacement], [false, "{}"]);
  const ret = [...nodes(root)].find((n) => n.kind === "return_statement")!;
  assert.deepEqual([ret.removable, ret.replacement], [true, ""]);
});

test("removable groups: repeats, REPEAT1 beyond its first item, optionals; ambiguity is not removable", () => {
  const s = (value: string): Rule => ({ type: "STRING", value });
  const grammar = new TsGrammar({ name: "t", rules: { start: { type: "BLANK" } } });
  const kids = (...types: string[]) => types.map((type) => ({ type, named: false }));
  const list: Rule = {
    type: "SEQ",
    members: [
      s("["),
      { type: "REPEAT1", content: s("x") },
      { type: "REPEAT", content: { type: "SEQ", members: [s(","), s("y")] } },
      { type: "CHOICE", members: [s("!"), { type: "BLANK" }] },
      s("]"),
    ],
  };
  assert.deepEqual(removableGroups(grammar, list, kids("[", "x", "x", ",", "y", "!", "]")), [
    { start: 2, end: 3, quantifier: "+" },
    { start: 3, end: 5, quantifier: "*" },
    { start: 5, end: 6, quantifier: "?" },
  ]);
  assert.equal(removableGroups(grammar, list, kids("[", "]")), undefined);
  // "a b" is both `a b?` (b optional) and `a b` (b required): b is not removable.
  const ambiguous: Rule = {
    type: "CHOICE",
    members: [
      { type: "SEQ", members: [s("a"), { type: "CHOICE", members: [s("b"), { type: "BLANK" }] }] },
      { type: "SEQ", members: [s("a"), s("b")] },
    ],
  };
  assert.deepEqual(removableGroups(grammar, ambiguous, kids("a", "b")), []);
  // CSS's block, `{ item* declaration? }`: the last x is an item of the `*` in one derivation and
  // the `?` in the other; removable in both, so removable (the quantifier only names the group).
  const block: Rule = {
    type: "SEQ",
    members: [
      s("{"),
      { type: "REPEAT", content: s("x") },
      { type: "CHOICE", members: [s("x"), { type: "BLANK" }] },
      s("}"),
    ],
  };
  assert.deepEqual(
    removableGroups(grammar, block, kids("{", "x", "x", "}"))?.map(({ start, end }) => [start, end]),
    [
      [1, 2],
      [2, 3],
    ],
  );
});

test("the last declaration of a CSS block, the last item of a YAML sequence and a Rust block's tail expression are removable", async () => {
  const cases: [BuiltInLanguage, string, string][] = [
    ["css", "a{b:c;d:e;}", "d:e;"],
    ["css", "a{b:c;d:e}", "d:e"],
    ["yaml", "k:\n  - a\n  - b\n", "- b"],
    ["rust", "fn f() -> i32 { g(); h() }", "h()"],
  ];
  for (const [language, text, last] of cases) {
    const { root } = (await frontEnd(language)).parseRaw(Buffer.from(text));
    const node = [...nodes(root)].find((n) => text.slice(n.start, n.end) === last);
    assert.ok(node, `${language}: no node spells ${last}`);
    assert.equal(node.removable, true, `${language}: ${last} (${node.kind})`);
  }
});

test("shortest matches of patterns", () => {
  assert.equal(shortestMatch("[a-zA-Z_]\\w*"), "a");
  assert.equal(shortestMatch("\\d+(\\.\\d+)?"), "0");
  assert.equal(shortestMatch('[^\\\\"\\n]+'), "a");
  assert.equal(shortestMatch("0[xX][0-9a-fA-F]{2,}"), "0xaa");
  assert.equal(shortestMatch("abc|d"), "d");
  assert.equal(shortestMatch("[\\s\\p{Zs}]"), " ");
  assert.equal(shortestMatch("(?=a)b"), undefined);
});

test("HDD* with the JSON front-end reduces json-obj-arr-87 to a minimal object", async () => {
  const fe = await frontEnd("json");
  const shows87 = (c: Uint8Array): boolean => {
    try {
      return JSON.stringify(JSON.parse(text(c))).includes("87");
    } catch {
      return false;
    }
  };
  const input = '{\n    "foo": "bar",\n    "baz": [ 6, 7, 12, 31, 77, 87 ]\n}\n';
  const result = await reduce(Buffer.from(input), shows87, {
    pipeline: [treePass(parsePhase("prune*"), fe)],
    jobs: 1,
  });
  assert.equal(result.kind, "done");
  // The first pair of an object and the first item of an array are not removable by the grammar
  // (`seq(pair, repeat(seq(",", pair)))`): they become their minimal replacements.
  assert.equal(text(result.output).replace(/\s/g, ""), '{"":0,"":[0,87]}');
});

test("HDD with hoisting on JavaScript keeps valid code around what the oracle needs", async () => {
  const fe = await frontEnd("javascript");
  const parses = (code: string): boolean => {
    try {
      new Script(code); // compiled, not run
      return true;
    } catch {
      return false;
    }
  };
  // The sample as a function body: no module syntax, no await outside an async function.
  const input = SAMPLES.javascript[0]!.replace(/^import.*\n/m, "")
    .replace("export default ", "")
    .replace("await ", "");
  const wanted = (c: Uint8Array): boolean => parses(text(c)) && text(c).includes('new Error("x")');
  assert.ok(wanted(Buffer.from(input)));
  const result = await reduce(Buffer.from(input), wanted, {
    pipeline: [treePass(parsePhase("hoist*"), fe), treePass(parsePhase("prune+hoist*"), fe)],
    jobs: 1,
  });
  assert.equal(result.kind, "done");
  const out = text(result.output);
  assert.ok(wanted(result.output), out);
  // The function and the try statement were hoisted away (statements of other kinds, one supertype):
  // the throw statement is left.
  assert.equal(out.trim(), 'throw new Error("x");');
  assert.equal(fe.parseRaw(result.output).errors, 0, out);
});

/** A string of each language's first sample that a grep-style test looks for. */
const NEEDLES: Record<BuiltInLanguage, string> = {
  javascript: "new Error",
  typescript: "JSON.parse",
  tsx: "useState",
  json: "whittle",
  c: "printf",
  cpp: "runtime_error",
  html: "<em>world</em>",
  css: "rotate(360deg)",
  python: "ValueError(f",
  java: "IllegalStateException",
  rust: "HashMap::new()",
  go: "fmt.Printf",
  yaml: "three: 3",
  php: "RuntimeException",
  bash: "whoami",
};

test("HDD* on every language's sample keeps what a grep-style test needs, in less text", async () => {
  for (const language of BUILT_IN_LANGUAGES) {
    const fe = await frontEnd(language);
    const input = Buffer.from(SAMPLES[language][0]!);
    const needle = NEEDLES[language];
    const result = await reduce(input, (c) => text(c).includes(needle), {
      pipeline: [treePass(parsePhase("prune*"), fe)],
      jobs: 1,
    });
    assert.equal(result.kind, "done", language);
    const out = text(result.output);
    assert.ok(out.includes(needle), `${language}: ${out}`);
    assert.ok(result.output.length < input.length / 2, `${language}: ${out}`);
  }
});

test("HTML's scripts and styles are islands: a JavaScript and a CSS tree whose every removal and replacement stays JavaScript and CSS", async () => {
  const html = await frontEnd("html");
  const js = await frontEnd("javascript");
  const css = await frontEnd("css");
  const input = Buffer.from(
    [
      "<html><head><style>body { margin: 0 } .a > b { color: red }</style>",
      '<script type="text/template"><p>{{ name }}</p></script>',
      '<script type="application/ld+json">{"a": [1, 2]}</script></head>',
      "<body><p>text</p>",
      '<script type="module">const cfg = { limits: { low: 5 } };',
      "function run(x) { if (x > 1) { return cfg.limits.warn.level; } return 0; }",
      "run(2);</script></body></html>",
    ].join("\n"),
  );
  const { tree, glue } = html.parse(input);
  assert.equal(text(render(tree, EditSet.EMPTY, glue)), text(input), "round trip");
  const kinds = new Set<string>();
  for (let id = 1; id < tree.size; id++) kinds.add(tree.kind(id));
  for (const kind of ["stylesheet", "rule_set", "program", "function_declaration", "return_statement"])
    assert.ok(kinds.has(kind), `${kind} in ${[...kinds].join(" ")}`);
  // Scripts of other types (a template, JSON data) stay one token: they are no JavaScript.
  const rawTexts = [...Array(tree.size).keys()].filter((id) => id > 0 && tree.kind(id) === "raw_text");
  assert.deepEqual(
    rawTexts.map((id) => text(tree.text(id))),
    ["<p>{{ name }}</p>", '{"a": [1, 2]}'],
  );
  // Every removal or minimal replacement of a node leaves the islands parsing without errors.
  const islands = (page: string): [TreeSitterFrontEnd, string][] => [
    ...[...page.matchAll(/<style>([^]*?)<\/style>/g)].map((m): [TreeSitterFrontEnd, string] => [css, m[1]!]),
    ...[...page.matchAll(/<script type="module">([^]*?)<\/script>/g)].map(
      (m): [TreeSitterFrontEnd, string] => [js, m[1]!],
    ),
  ];
  let edits = 0;
  for (let id = 1; id < tree.size; id++) {
    if (tree.isFixed(id)) continue;
    const candidate = text(render(tree, EditSet.EMPTY.remove([id]), glue));
    for (const [fe, island] of islands(candidate)) {
      edits++;
      assert.equal(
        fe.parseRaw(Buffer.from(island)).errors,
        0,
        `removing ${tree.kind(id)} ${JSON.stringify(text(tree.text(id)))} gives ${JSON.stringify(island)}`,
      );
    }
  }
  assert.ok(edits > 50, `${edits} edits`);
});

test("HTML: an island's syntax errors are the page's, for the syntax filter and the tree alike", async () => {
  const html = await frontEnd("html");
  const js = await frontEnd("javascript");
  const page = (script: string, style = "b { color: red }"): Buffer =>
    Buffer.from(`<p>é</p><style>${style}</style>\n<script>${script}</script><p>x</p>`);
  assert.equal(html.syntaxErrors(page("let a = 1;")), 0);
  const broken = "let a = ;";
  const errors = js.syntaxErrors(Buffer.from(broken));
  assert.ok(errors > 0);
  assert.equal(html.syntaxErrors(page(broken)), errors);
  assert.equal(html.parseRaw(page(broken)).errors, errors);
  assert.ok(html.syntaxErrors(page(broken, "b { color: }}")) > errors, "the style's count too");
  // Where: the first error's line and column are the page's (after a two-byte character).
  assert.match(html.describeErrors(page(broken))!.text, /^input:2:/);
  // Its error regions are not the page's: a script that is no JavaScript leaves the page's tree whole
  // (the share of the input in error regions decides a fall back to text).
  assert.equal(html.describeErrors(page(broken))!.errorBytes, 0);
  assert.equal(html.parseRaw(page(broken)).errorBytes, 0);
  // A template is no JavaScript: its text is not parsed, so it has no errors.
  assert.equal(html.syntaxErrors(Buffer.from('<script type="text/template">let a = ;</script>')), 0);
  // The same page again, its islands' scans remembered: the same answers.
  assert.equal(html.syntaxErrors(page("let b = 1;")), 0);
  assert.equal(html.syntaxErrors(page(broken)), errors);
});

test("HTML's event handlers are JavaScript islands, quoted or not; other attributes are text", async () => {
  const html = await frontEnd("html");
  const js = await frontEnd("javascript");
  const input = Buffer.from(
    `<body onload="start(1, 'go'); x = y ? 2 : 'z';" title="a + b" onclick=run(a,[1,2],c.d)>` +
      `<a ONMOUSEOVER='f("q", [1, 2])' data-on="g(1)" data-x=h(2) onblur=a.b.c()>k</a></body>`,
  );
  const { tree, glue } = html.parse(input);
  assert.equal(text(render(tree, EditSet.EMPTY, glue)), text(input), "round trip");
  const kinds = new Set<string>();
  for (let id = 1; id < tree.size; id++) kinds.add(tree.kind(id));
  for (const kind of ["program", "call_expression", "ternary_expression", "array", "member_expression"])
    assert.ok(kinds.has(kind), `${kind} in ${[...kinds].join(" ")}`);
  const values = [...Array(tree.size).keys()].filter((id) => id > 0 && tree.kind(id) === "attribute_value");
  assert.deepEqual(
    values.map((id) => text(tree.text(id))),
    ["a + b", "g(1)", "h(2)"],
  );
  // Every removal or minimal replacement keeps each handler JavaScript within its value: no
  // replacement there holds a character that ends the value (a string's `""` inside `"…"`; a
  // quote or a blank in an unquoted one, where member_expression's `0 .a` would make an attribute).
  const handlers = (page: string): string[] =>
    [...page.matchAll(/ on[a-z]+=(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/gi)].map(
      (m) => m[1] ?? m[2] ?? m[3]!,
    );
  const names = new Set(["a", "onload", "title", "onclick", "onmouseover", "data-on", "data-x", "onblur"]);
  let edits = 0;
  for (let id = 1; id < tree.size; id++) {
    if (tree.isFixed(id)) continue;
    const candidate = text(render(tree, EditSet.EMPTY.remove([id]), glue));
    // An unquoted handler left empty is a syntax error of the page: the filter skips it untested.
    if (/ on[a-z]+=[\s>]/i.test(candidate)) {
      assert.ok(html.syntaxErrors(Buffer.from(candidate)) > 0, candidate);
      continue;
    }
    assert.equal(html.syntaxErrors(Buffer.from(candidate)), 0, candidate);
    const parsed = html.parse(Buffer.from(candidate)).tree;
    for (let node = 1; node < parsed.size; node++)
      if (parsed.kind(node) === "attribute_name") {
        const name = text(parsed.text(node)).toLowerCase();
        assert.ok(names.has(name), `${name} in ${candidate}`);
      }
    const found = handlers(candidate);
    assert.ok(found.length >= 2, candidate);
    for (const handler of found) {
      edits++;
      assert.equal(js.syntaxErrors(Buffer.from(handler)), 0, `${candidate}: ${handler}`);
    }
  }
  assert.ok(edits > 40, `${edits} edits`);
  // A handler's syntax errors are the page's.
  assert.equal(
    html.syntaxErrors(Buffer.from('<p onclick="a = ;">x</p>')),
    js.syntaxErrors(Buffer.from("a = ;")),
  );
  assert.ok(js.syntaxErrors(Buffer.from("a = ;")) > 0);
  assert.equal(html.syntaxErrors(Buffer.from('<p title="a = ;">x</p>')), 0);
  assert.equal(html.syntaxErrors(Buffer.from("<p onclick=a(;>x</p>")), js.syntaxErrors(Buffer.from("a(;")));
});
