/**
 * --language: built-in languages (tree-sitter) through the command — reduction, syntax errors,
 * options it cannot be combined with, and `whittle tree --language`.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { jsonObjArr87Case, runWhittle, scratch } from "../helpers/cli.js";

test("--language json: the default pipeline reduces the JSON case to 87; --phase 'prune*' is HDD*", async () => {
  const { dir, input, test: t } = jsonObjArr87Case();
  const run = await runWhittle([input, "--language", "json", "-q", "--test", t]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(readFileSync(join(dir, "input.reduced.json"), "utf8").trim(), "87");

  const hdd = await runWhittle(
    [input, "--language", "json", "--phase", "prune*", "-q", "-o", "h.json", "--test", t],
    {
      cwd: dir,
    },
  );
  assert.equal(hdd.code, 0, hdd.stderr);
  assert.equal(readFileSync(join(dir, "h.json"), "utf8").replace(/\s/g, ""), '{"":0,"":[0,87]}');
});

test("--language c: HDD keeps what the test needs and drops the rest", async () => {
  const dir = scratch();
  const input = join(dir, "input.c");
  writeFileSync(
    input,
    '#include <stdio.h>\nstatic int unused(int a) { return a * 2; }\nint main(void) {\n  int x = 1;\n  for (int i = 0; i < 3; i++) x += i;\n  printf("%d\\n", x);\n  return 42;\n}\n',
  );
  const run = await runWhittle([
    input,
    "--language",
    "c",
    "--phase",
    "prune*",
    "-q",
    "--",
    "grep",
    "-q",
    "return 42",
  ]);
  assert.equal(run.code, 0, run.stderr);
  const out = readFileSync(join(dir, "input.reduced.c"), "utf8");
  assert.match(out, /return 42/);
  assert.doesNotMatch(out, /unused|printf|for/);
});

test("--language: a syntax error in the original exits 2 naming where; --allow-syntax-errors goes on", async () => {
  const { dir, test: t } = jsonObjArr87Case();
  const bad = join(dir, "bad.json");
  writeFileSync(bad, '{"a": [1, 2,, 87]}');
  const run = await runWhittle([bad, "--language", "json", "--test", t]);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /bad\.json:1:\d+: syntax error/);
  const allowed = await runWhittle([
    bad,
    "--language",
    "json",
    "--allow-syntax-errors",
    "-q",
    "--test",
    "true",
  ]);
  assert.equal(allowed.code, 0, allowed.stderr);
});

test("--language refuses an unknown language and options that need an ANTLR grammar", async () => {
  const { input, test: t } = jsonObjArr87Case();
  const unknown = await runWhittle([input, "--language", "cobol", "--test", t]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /javascript, typescript, tsx, json, c, cpp, .*, bash, none/);
  for (const extra of [
    ["--grammar", "G.g4"],
    ["--start", "value"],
    ["--format", "f.yaml"],
  ]) {
    const run = await runWhittle([input, "--language", "json", ...extra, "--test", t]);
    assert.equal(run.code, 2, extra.join(" "));
    assert.match(run.stderr, new RegExp(`--language and ${extra[0]} cannot be combined`));
  }
});

test("whittle tree --language javascript prints the tree the passes see", async () => {
  const dir = scratch();
  const input = join(dir, "a.js");
  writeFileSync(input, "function f() { return 1; }\n");
  const run = await runWhittle(["tree", input, "--language", "javascript"]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout.toString(), /statement_block .* → "\{\}"/);
  assert.match(run.stdout.toString(), /return_statement .*removable/);
});
