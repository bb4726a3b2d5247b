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
  const { dir, input, test: t } = await jsonObjArr87Case();
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
  const { dir, test: t } = await jsonObjArr87Case();
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
  const { input, test: t } = await jsonObjArr87Case();
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

test("the language comes from the extension: crash.js is reduced along JavaScript's syntax", async () => {
  const dir = scratch();
  const input = join(dir, "crash.js");
  writeFileSync(input, "function f() {\n  let unused = [1, 2, 3];\n  return 42;\n}\nconsole.log(f());\n");
  const run = await runWhittle([input, "--phase", "prune*", "--", "grep", "-q", "return 42"]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /crash\.js is JavaScript by its extension: reducing along its syntax/);
  assert.match(run.stderr, /reducing with hdd:prune\*/);
  // HDD keeps the function's syntax: its name and body braces stay, the rest goes.
  assert.equal(readFileSync(join(dir, "crash.reduced.js"), "utf8").trim(), "function a() {\n  return 42;\n}");
});

test("with no known extension, the #! line names the language", async () => {
  const dir = scratch();
  const input = join(dir, "tool");
  writeFileSync(
    input,
    "#!/usr/bin/env python3\nimport os\n\ndef main():\n    x = 1\n    print('boom')\n\nmain()\n",
  );
  const run = await runWhittle([input, "--phase", "prune*", "--", "grep", "-q", "boom"]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /tool is Python by its #! line/);
  const out = readFileSync(join(dir, "tool.reduced"), "utf8");
  assert.match(out, /print\('boom'\)/);
  assert.doesNotMatch(out, /import|x = 1|main\(\)\n$/);
});

test("--language none and an explicit --atom reduce lines and characters, as before languages", async () => {
  const dir = scratch();
  const input = join(dir, "a.js");
  writeFileSync(input, "let a = 1;\nlet b = 2;\nboom();\n");
  for (const flags of [
    ["--language", "none"],
    ["--atom", "line"],
  ]) {
    const run = await runWhittle([input, ...flags, "-o", "-", "--", "grep", "-q", "boom"]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /reducing with ddmin:line/, flags.join(" "));
    assert.doesNotMatch(run.stderr, /JavaScript/);
  }
  // --atom with a named language: the language wins.
  const named = await runWhittle([
    input,
    "--atom",
    "line",
    "--language",
    "javascript",
    "-o",
    "-",
    "--",
    "grep",
    "-q",
    "boom",
  ]);
  assert.match(
    named.stderr,
    /reducing with ddmin:hidden, hdd:chain, hdd:biggest \(skipped: input under 64 KiB\), hdd:coarse, hdd:hoist\*/,
  );
});

test("an unknown extension is reduced as text, with one notice (none with -q)", async () => {
  const dir = scratch();
  const input = join(dir, "notes.xyz");
  writeFileSync(input, "keep\ndrop\n");
  const run = await runWhittle([input, "-o", "-", "--", "grep", "-q", "keep"]);
  assert.equal(run.code, 0, run.stderr);
  const notices = run.stderr.split("\n").filter((l) => l.includes("no built-in language"));
  assert.equal(notices.length, 1, run.stderr);
  assert.match(
    notices[0]!,
    /notes\.xyz: no built-in language for "\.xyz" files .*reducing lines and characters/,
  );
  assert.equal(run.stdout.toString(), "keep");
  const quiet = await runWhittle([input, "-q", "-o", "-", "--", "grep", "-q", "keep"]);
  assert.equal(quiet.stderr, "");
});

test("a syntax error in a file whose language was detected: its tree all the same, the error kept whole", async () => {
  const dir = scratch();
  const input = join(dir, "broken.json");
  writeFileSync(input, '{"a": [1, 2,, 87], "b": {"c": [3, 4]}}\n');
  const run = await runWhittle([input, "-o", "-", "--", "grep", "-q", "87"]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stderr,
    /broken\.json:1:\d+: syntax error: not json as tree-sitter's grammar reads it \(1 error in all\): reducing along its syntax all the same, each error region kept whole; --language none/,
  );
  assert.match(
    run.stderr,
    /reducing with ddmin:hidden, hdd:chain, hdd:biggest \(skipped: input under 64 KiB\), hdd:coarse, hdd:hoist\*/,
  );
  assert.equal(run.stdout.toString().trim(), "87");
});

test("a detected language whose error regions cover most of the input falls back to text", async () => {
  const dir = scratch();
  const input = join(dir, "prose.json");
  writeFileSync(input, "This is no JSON at all: BUG, regards\n");
  const run = await runWhittle([input, "-o", "-", "--", "grep", "-q", "BUG"]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stderr,
    /prose\.json:1:\d+: syntax error: .*, \d+% of it in error regions: reducing lines and characters instead/,
  );
  assert.match(run.stderr, /reducing with ddmin:line, ddmin:char/);
  assert.equal(run.stdout.toString(), "BUG");
});

test("--list-languages prints every built-in language with its extensions and package version", async () => {
  const run = await runWhittle(["--list-languages"]);
  assert.equal(run.code, 0, run.stderr);
  const out = run.stdout.toString();
  for (const [name, extension, pkg] of [
    ["javascript", ".mjs", "tree-sitter-javascript 0.25.0"],
    ["typescript", ".ts", "tree-sitter-typescript 0.23.2"],
    ["python", ".py", "tree-sitter-python 0.25.0"],
    ["bash", ".sh", "tree-sitter-bash 0.25.1"],
  ] as const) {
    const line = out.split("\n").find((l) => l.startsWith(`${name} `));
    assert.ok(line?.includes(extension) && line.includes(pkg), `${name}: ${line}`);
  }
  assert.equal(out.trim().split("\n").length, 16); // a header and 15 languages
});

test("whittle tree picks the language from the extension", async () => {
  const dir = scratch();
  const input = join(dir, "m.go");
  writeFileSync(input, "package main\n\nfunc main() {}\n");
  const run = await runWhittle(["tree", input]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout.toString(), /^source_file \[0,28\)/);
  // The last declaration of a Go file may lack its terminator: the `?` after the `*` of
  // source_file, removable all the same (match.ts); so is a body (a function implemented elsewhere).
  assert.match(run.stdout.toString(), /function_declaration \[14,28\) "func main\(\) \{\}" removable/);
  assert.match(run.stdout.toString(), /block \[26,28\) "\{\}" removable/);
  const unknown = join(dir, "m.xyz");
  writeFileSync(unknown, "x");
  const refused = await runWhittle(["tree", unknown]);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /whittle tree needs a grammar: m\.xyz has no extension or #! line/);
});

test("a detected language's syntax error stops the run when tree phases are asked for by name", async () => {
  const dir = scratch();
  const input = join(dir, "broken.json");
  writeFileSync(input, '{"a": [1, 2,, 87]}\n');
  const run = await runWhittle([input, "--phase", "prune*", "-o", "-", "--", "grep", "-q", "87"]);
  assert.equal(run.code, 2);
  assert.match(
    run.stderr,
    /broken\.json:1:\d+: syntax error: not json .*--allow-syntax-errors reduces it all the same/,
  );
  // --start is an ANTLR grammar's: a detected language refuses it, naming the language.
  const js = join(dir, "a.js");
  writeFileSync(js, "x;\n");
  const start = await runWhittle([js, "--start", "program", "--", "true"]);
  assert.equal(start.code, 2);
  assert.match(start.stderr, /--start is for ANTLR grammars, but a\.js is JavaScript by its extension/);
});

test("the default pipeline runs biggest on an input of 64 KiB or more: the largest nodes go first", async () => {
  const dir = scratch();
  const input = join(dir, "big.json");
  const pad = Array.from({ length: 40 }, (_, i) => `"${String(i).padStart(2, "0")}${"x".repeat(2000)}"`);
  writeFileSync(input, `{"pad": [${pad.join(", ")}], "keep": "BUG"}\n`);
  const stats = join(dir, "s.json");
  const run = await runWhittle([input, "-o", "out.json", "--stats", stats, "-q", "--", "grep", "-q", "BUG"], {
    cwd: dir,
  });
  assert.equal(run.code, 0, run.stderr);
  // (The same result as without biggest: HDDH hoisted the object to the string, one JSON value for
  // another.)
  assert.equal(readFileSync(join(dir, "out.json"), "utf8").trim(), '"BUG"');
  const s = JSON.parse(readFileSync(stats, "utf8")) as {
    passes: Record<string, { tests: number; bytesRemoved: number }>;
    schedule: { phase: string; condition: unknown; status: string }[];
  };
  // The schedule in the statistics: biggest's condition held, and it ran.
  const biggest = s.schedule.find((step) => step.phase === "biggest");
  assert.deepEqual(biggest?.condition, { minInputBytes: 65536 });
  assert.equal(biggest?.status, "ran");
  // The pad array (80 KB) goes in biggest's first test or two, before coarse HDD's levels.
  assert.ok(s.passes["hdd:biggest"]!.bytesRemoved > 80_000, JSON.stringify(s.passes));
  assert.ok(s.passes["hdd:biggest"]!.tests <= 5, JSON.stringify(s.passes));
});

test("the summary's per-pass line counts a pass's changes that removed no byte (literal's 7 → 0)", async () => {
  const dir = scratch();
  const input = join(dir, "input.js");
  writeFileSync(input, "var size = 7;\nthrow new RangeError(size);\n");
  const run = await runWhittle(
    [input, "--language", "javascript", "--", "grep", "-Eq", "var [a-z]+ = [0-9];"],
    {
      cwd: dir,
    },
  );
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /per pass .*literal \d+, 0 B, [^;]*\(1 change of the same size\)/);
});
