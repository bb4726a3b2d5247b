/**
 * Island grammars (`--format FILE`): a token type whose text is parsed with another grammar. The
 * fixture is a small page grammar whose <script> bodies are JSON (test/fixtures/grammar/page/).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import { WhittleError } from "../../src/errors.js";
import {
  formatFromData,
  FormatFileError,
  islandSpan,
  parseFormatText,
  readFormatFile,
} from "../../src/grammar/format-file.js";
import { AntlrFrontEnd } from "../../src/grammar/front-end.js";
import { render } from "../../src/tree/render.js";
import { FIXTURES } from "./helpers.js";

const PAGE = join(FIXTURES, "page");
const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const text = (b: Uint8Array): string => new TextDecoder().decode(b);

let loaded: Promise<AntlrFrontEnd> | undefined;
const pageFrontEnd = (): Promise<AntlrFrontEnd> =>
  (loaded ??= readFormatFile(join(PAGE, "page.json")).then((format) =>
    AntlrFrontEnd.loadFormat({ format, cacheDir: false, fileName: "page.txt" }),
  ));

describe("format files", () => {
  test("JSON and YAML give the same format; paths are relative to the file", async () => {
    const json = await readFormatFile(join(PAGE, "page.json"));
    const yaml = await readFormatFile(join(PAGE, "page.yaml"));
    assert.equal(json.host, "page");
    assert.deepEqual([...json.grammars.keys()], ["page", "json"]);
    assert.deepEqual(json.grammars.get("json")!.files, [join(FIXTURES, "JSON.g4")]);
    assert.deepEqual(yaml, json);
    assert.equal(json.grammars.get("page")!.islands.get("SCRIPT")!.grammar, "json");
  });

  test("mistakes are named by their field", async () => {
    const check = async (data: unknown, message: RegExp): Promise<void> => {
      await assert.rejects(
        formatFromData(data, "/", () => Promise.resolve("")),
        (error: unknown) => error instanceof FormatFileError && message.test(error.message),
        String(message),
      );
    };
    await check([], /must be an object/);
    await check({ grammars: {} }, /"grammars" must be an object with at least one grammar/);
    await check({ grammars: { a: { files: ["a.g4"] } }, colour: 1 }, /unknown field "colour"/);
    await check({ grammars: { a: { file: ["a.g4"] } } }, /grammars\.a: unknown field "file"/);
    await check({ grammars: { a: { files: [] } } }, /grammars\.a\.files must be a list/);
    await check({ grammar: "b", grammars: { a: { files: ["a.g4"] } } }, /"grammar" must name one of/);
    await check(
      { grammars: { a: { files: ["a.g4"], islands: { T: "b" } } } },
      /grammars\.a\.islands\.T: no grammar named "b"/,
    );
    await check(
      { grammars: { a: { files: ["a.g4"], islands: { T: { grammar: "a", pattern: "(" } } } } },
      /grammars\.a\.islands\.T\.pattern: Invalid regular expression/,
    );
    await check(
      { grammars: { a: { files: ["a.g4"], replacements: 3 } } },
      /grammars\.a\.replacements must be/,
    );
    assert.throws(() => parseFormatText("{", false), /not valid JSON/);
    assert.throws(() => parseFormatText("a: [", true), /not valid YAML/);
  });

  test("the island is the pattern's group named island, else its first group, in bytes", () => {
    const rule = (pattern?: string) => ({
      grammar: "x",
      ...(pattern ? { pattern: new RegExp(pattern, "su") } : {}),
    });
    assert.deepEqual(islandSpan(rule(), bytes("abc")), { start: 0, end: 3 });
    assert.deepEqual(islandSpan(rule("^<(?<island>.*)>$"), bytes("<é>")), { start: 1, end: 3 });
    assert.deepEqual(islandSpan(rule("^(<)(.*)>$"), bytes("<ab>")), { start: 0, end: 1 });
    assert.equal(islandSpan(rule("^<(.*)>$"), bytes("<ab")), undefined, "the whole text must match");
  });
});

describe("islands", () => {
  const input = 'Hello <script>{"a": [1, 2, {"b": 87}]}</script> bye <script> [3] </script>';

  test("an island token becomes a node holding the island's tree; untouched, it renders to the input", async () => {
    const fe = await pageFrontEnd();
    const { tree, glue } = fe.parse(bytes(input));
    assert.equal(text(render(tree, undefined, glue)), input);
    const kinds = new Set<string>();
    for (let id = 0; id < tree.size; id++) kinds.add(tree.kind(id));
    for (const kind of [
      "SCRIPT",
      "SCRIPT<",
      "SCRIPT>",
      "json:obj",
      "json:pair",
      "json:array",
      "json:NUMBER",
    ]) {
      assert.ok(kinds.has(kind), `${kind} in ${[...kinds].join(" ")}`);
    }
    const numbers: string[] = [];
    for (let id = 0; id < tree.size; id++) {
      if (tree.kind(id) === "json:NUMBER") numbers.push(text(tree.text(id)));
    }
    assert.deepEqual(numbers, ["1", "2", "87", "3"]);
  });

  test("island kinds take their grammar's replacements from the format file", async () => {
    const fe = await pageFrontEnd();
    const { tree } = fe.parse(bytes(input));
    const values: string[] = [];
    for (let id = 0; id < tree.size; id++) {
      if (tree.kind(id) === "json:value") values.push(text(tree.replacement(id)));
    }
    assert.ok(values.length > 0 && values.every((v) => v === "null" || v === ""), values.join(","));
  });

  test("a syntax error inside an island of the original is located in the whole input", async () => {
    const fe = await pageFrontEnd();
    const broken = 'first line\nsecond <script>{"a": [1, 2,, 3]}</script>';
    assert.throws(
      () => fe.checkOriginal(bytes(broken), false),
      (error: unknown) =>
        error instanceof WhittleError &&
        error.code === "syntax" &&
        /^page\.txt:2:28: syntax error in a "json" island at ","/.test(error.message),
    );
    assert.ok(fe.checkOriginal(bytes(broken), true) > 0, "allowed: counted");
    assert.equal(fe.checkOriginal(bytes(input), false), 0);
  });

  test("a token whose text the pattern does not match stays a plain token", async () => {
    // Only arrays are islands here.
    const format = await formatFromData(
      {
        grammars: {
          page: {
            files: ["Page.g4"],
            islands: { SCRIPT: { grammar: "json", pattern: "^<script>(\\[.*\\])</script>$" } },
          },
          json: { files: ["../JSON.g4"] },
        },
      },
      PAGE,
      () => Promise.resolve(""),
    );
    const fe = await AntlrFrontEnd.loadFormat({ format, cacheDir: false });
    const { tree } = fe.parse(bytes('<script>{"a": 1}</script> <script>[1]</script>'));
    const scripts: [string, number][] = [];
    for (let id = 0; id < tree.size; id++) {
      if (tree.kind(id) === "SCRIPT")
        scripts.push([text(tree.text(id)), tree.isToken(id) ? 0 : tree.children(id).length]);
    }
    assert.deepEqual(scripts, [
      ['<script>{"a": 1}</script>', 0],
      ["<script>[1]</script>", 3], // "<script>", the island, "</script>"
    ]);
  });
});
