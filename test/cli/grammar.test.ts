/**
 * Grammar-aware reduction through the command: --grammar, --phase, the default tree pipeline,
 * syntax errors, and `whittle tree`. Uses the JSON grammar in test/fixtures (always present).
 */
import assert from "node:assert/strict";
import { chmodSync, copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { FIXTURES, jsonObjArr87Case, runWhittle, scratch } from "../helpers/cli.js";
import { writePredicateScript } from "../helpers/oracle-server.js";

const GRAMMAR = join(FIXTURES, "grammar", "JSON.g4");

test("--grammar: the default pipeline (coarse HDD, hoisting, HDDH*, then the polish, with ProbDD) reduces the JSON case to 87", async () => {
  const { dir, input, test: t, env } = await jsonObjArr87Case();
  const stats = join(dir, "s.json");
  // One job: the test counts below tell the algorithms apart, and speculative tests would blur them.
  const run = await runWhittle(
    [input, "--grammar", GRAMMAR, "-j", "1", "--stats", stats, "-q", "--test", t],
    {
      env,
    },
  );
  assert.equal(run.code, 0, run.stderr);
  assert.equal(readFileSync(join(dir, "input.reduced.json"), "utf8").trim(), "87");
  const s = JSON.parse(readFileSync(stats, "utf8")) as {
    pipeline: string[];
    schedule: { phase: string; pass: string | null; algorithm: string; status: string; why?: string }[];
    passes: Record<string, { tests: number; cacheHits: number }>;
    options: Record<string, unknown>;
  };
  assert.deepEqual(s.pipeline, [
    "ddmin:hidden",
    "hdd:chain",
    "hdd:biggest",
    "hdd:coarse",
    "hdd:hoist*",
    "hdd:prune+hoist*",
    "ddmin:token",
    "ddmin:glyph",
    "ddmin:blank",
  ]);
  assert.ok(s.passes["hdd:prune+hoist*"]!.tests > 0);
  // An input under BIGGEST_MIN_INPUT: the default pipeline's biggest makes no test.
  assert.equal(s.passes["hdd:biggest"]?.tests ?? 0, 0);
  // The schedule says so, and that an ANTLR grammar leaves out rename and literal.
  assert.deepEqual(
    s.schedule.map((step) => [step.phase, step.pass, step.algorithm, step.status, step.why]),
    [
      ["hidden", "ddmin:hidden", "adaptive", "ran", undefined],
      ["chain", "hdd:chain", "probdd", "ran", undefined],
      ["biggest", "hdd:biggest", "run", "skipped", "input under 64 KiB"],
      ["coarse", "hdd:coarse", "probdd", "ran", undefined],
      ["hoist*", "hdd:hoist*", "probdd", "ran", undefined],
      ["rename", null, "adaptive", "skipped", "not a built-in language"],
      ["literal", null, "adaptive", "skipped", "not a built-in language"],
      ["prune+hoist*", "hdd:prune+hoist*", "probdd", "ran", undefined],
      ["token", "ddmin:token", "adaptive", "ran", undefined],
      ["literal", null, "adaptive", "skipped", "not a built-in language"],
      ["glyph", "ddmin:glyph", "adaptive", "ran", undefined],
      ["blank", "ddmin:blank", "adaptive", "ran", undefined],
    ],
  );

  // The tree phases ran ProbDD, the polish the run's algorithm (ddmin): the same phases named with
  // --phase run ddmin everywhere, or with --algorithm probdd ProbDD everywhere.
  const phases = s.pipeline.flatMap((name) => ["--phase", name.replace(/^(hdd|ddmin):/, "")]);
  type Passes = Record<string, { tests: number; cacheHits: number }>;
  const passTests = async (...extra: string[]): Promise<Passes> => {
    const again = await runWhittle(
      [input, "--grammar", GRAMMAR, "-j", "1", ...extra, "--stats", stats, "-q", "-o", "x.json", "--test", t],
      { env, cwd: dir },
    );
    assert.equal(again.code, 0, again.stderr);
    return (JSON.parse(readFileSync(stats, "utf8")) as { passes: Passes }).passes;
  };
  // What an algorithm leaves in the tree phases' statistics: the candidates each one asked for.
  const trace = (passes: Passes): string =>
    ["hdd:coarse", "hdd:prune+hoist*"].map((p) => `${passes[p]!.tests}+${passes[p]!.cacheHits}`).join(" ");
  const ddmin = await passTests(...phases);
  const probdd = await passTests(...phases, "--algorithm", "probdd");
  assert.notEqual(trace(ddmin), trace(probdd), "the case tells the algorithms apart");
  assert.equal(trace(s.passes), trace(probdd));
  // --algorithm given: the default pipeline uses it everywhere, and its schedule says so; with
  // --phase there is no schedule.
  assert.equal(trace(await passTests("--algorithm", "ddmin")), trace(ddmin));
  const given = JSON.parse(readFileSync(stats, "utf8")) as { schedule: { algorithm: string }[] };
  assert.deepEqual(new Set(given.schedule.map((step) => step.algorithm)), new Set(["run"]));
  await passTests(...phases);
  assert.equal((JSON.parse(readFileSync(stats, "utf8")) as { schedule: unknown }).schedule, null);
});

test("--phase 'prune*' is HDD*: Picireny's 1-tree-minimal result for this case", async () => {
  const { dir, input, test: t, env } = await jsonObjArr87Case();
  const run = await runWhittle([input, "--grammar", GRAMMAR, "--phase", "prune*", "-q", "--test", t], {
    env,
  });
  assert.equal(run.code, 0, run.stderr);
  const out = readFileSync(join(dir, "input.reduced.json"), "utf8");
  assert.equal(out.replace(/\s/g, ""), '{"":0,"":[0,87]}');
});

test("an original the grammar rejects is reduced with ANTLR's error recovery, saying where the first error is", async () => {
  const { dir, env } = await jsonObjArr87Case();
  const bad = join(dir, "bad.json");
  writeFileSync(bad, '{"a": [1, 2,, 87], "b": {"c": [true, false]}}');
  // A parser bug that needs the double comma and 87.
  const t = join(dir, "commas.sh");
  writeFileSync(t, '#!/usr/bin/env bash\ngrep -q ",," "$1" && grep -q 87 "$1"\n');
  chmodSync(t, 0o755);
  const run = await runWhittle([bad, "--grammar", GRAMMAR, "--test", t], { env });
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stderr,
    /bad\.json:1:13: syntax error at ",".* \(1 syntax error in all\): reducing along the grammar with ANTLR's error recovery/,
  );
  const out = readFileSync(join(dir, "bad.reduced.json"), "utf8").replace(/\s/g, "");
  assert.ok(out.includes(",,") && out.includes("87") && out.length <= 8, out);
  // --allow-syntax-errors: the same reduction, without the notice.
  const allowed = await runWhittle(
    [bad, "--grammar", GRAMMAR, "--allow-syntax-errors", "-o", join(dir, "b2.json"), "--test", t],
    { env },
  );
  assert.equal(allowed.code, 0, allowed.stderr);
  assert.doesNotMatch(allowed.stderr, /error recovery/);
  assert.equal(readFileSync(join(dir, "b2.json"), "utf8").replace(/\s/g, ""), out);
});

test("options that need a grammar are refused without one, and unknown phases are named", async () => {
  const { input, test: t, env } = await jsonObjArr87Case();
  // input.json would be JSON by its extension: --language none asks for no grammar.
  const prune = await runWhittle([input, "--language", "none", "--phase", "prune", "--test", t], { env });
  assert.equal(prune.code, 2);
  assert.match(prune.stderr, /--phase prune works on a parse tree: give a grammar/);
  const start = await runWhittle([input, "--language", "none", "--start", "json", "--test", t], { env });
  assert.equal(start.code, 2);
  assert.match(start.stderr, /--start needs a grammar/);
  const unknown = await runWhittle([input, "--grammar", GRAMMAR, "--phase", "shrink*", "--test", t], { env });
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown phase "shrink\*"/);
  const lines = await runWhittle([input, "--phase", "line", "--phase", "char", "-q", "--test", t], { env });
  assert.equal(lines.code, 0, "line and char phases need no grammar");
});

test("whittle tree prints the tree as the passes see it, as text and as JSON", async () => {
  const { input, env } = await jsonObjArr87Case();
  const text = await runWhittle(["tree", input, "--grammar", GRAMMAR], { env });
  assert.equal(text.code, 0, text.stderr);
  const lines = text.stdout.toString().split("\n");
  assert.match(lines[0]!, /^value \[0,57\) .* → "0"$/);
  assert.ok(
    lines.some((l) => /^\s+obj:\* \[18,55\) .* removable$/.test(l)),
    "the `(',' pair)*` group",
  );
  const json = await runWhittle(["tree", input, "--grammar", GRAMMAR, "--json", "--no-squeeze"], { env });
  assert.equal(json.code, 0, json.stderr);
  const root = JSON.parse(json.stdout.toString()) as { kind: string; children: unknown[] };
  assert.equal(root.kind, "json", "without squeezing, the start rule is the root");
  // Without a grammar, the tree of input.json is JSON's built-in one; a name of no language has none.
  const builtIn = await runWhittle(["tree", input], { env });
  assert.equal(builtIn.code, 0, builtIn.stderr);
  assert.match(builtIn.stdout.toString(), /^object \[0,57\) .* removable$/m);
  const other = join(dirname(input), "input.txt");
  copyFileSync(input, other);
  const missing = await runWhittle(["tree", other], { env });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /needs a grammar/);
});

test("--format: the JSON inside a page's <script> is reduced along the JSON grammar, around the page's text", async () => {
  const dir = scratch();
  const env = { XDG_CACHE_HOME: join(dir, "cache") };
  const format = join(FIXTURES, "grammar", "page", "page.yaml");
  const input = join(dir, "page.txt");
  writeFileSync(
    input,
    'Some text\n<script>{"foo": "bar", "baz": [6, 7, 12, 31, 77, 87]}</script>\nmore text <script>[1, 2]</script>',
  );
  // Interesting: some <script> holds valid JSON whose value shows 87.
  const t = await writePredicateScript(join(dir, "t.sh"), (bytes) =>
    [...bytes.toString("utf8").matchAll(/<script>(.*?)<\/script>/gs)].some((m) => {
      try {
        return JSON.stringify(JSON.parse(m[1]!)).includes("87");
      } catch {
        return false;
      }
    }),
  );
  const stats = join(dir, "s.json");
  const run = await runWhittle(
    [
      input,
      "--format",
      format,
      "--phase",
      "hoist*",
      "--phase",
      "prune*",
      "--stats",
      stats,
      "-q",
      "--test",
      t,
    ],
    { env },
  );
  assert.equal(run.code, 0, run.stderr);
  assert.equal(readFileSync(join(dir, "page.reduced.txt"), "utf8"), "<script>87</script>");

  const tree = await runWhittle(["tree", input, "--format", format], { env });
  assert.equal(tree.code, 0, tree.stderr);
  assert.match(tree.stdout.toString(), /json:array/);
  assert.match(tree.stdout.toString(), /SCRIPT</);
});

test("--format mistakes: exit 2 naming the file and the field; not with --grammar", async () => {
  const dir = scratch();
  const input = join(dir, "page.txt");
  writeFileSync(input, "text\n");
  const bad = join(dir, "bad.json");
  writeFileSync(
    bad,
    JSON.stringify({ grammars: { page: { files: ["Page.g4"], islands: { SCRIPT: "js" } } } }),
  );
  const run = await runWhittle([input, "--format", bad, "--test", "true"]);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /--format .*bad\.json: grammars\.page\.islands\.SCRIPT: no grammar named "js"/);
  const both = await runWhittle([input, "--format", bad, "--grammar", GRAMMAR, "--test", "true"]);
  assert.equal(both.code, 2);
  assert.match(both.stderr, /--format and --grammar cannot be combined/);
  const missing = await runWhittle([input, "--format", join(dir, "nope.json"), "--test", "true"]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /--format .*nope\.json: no such file/);
});

test("a grammar file that does not parse: exit 2 naming file:line:column, by every way in; never cached", async () => {
  const dir = scratch();
  const cache = join(dir, "cache");
  const env = { XDG_CACHE_HOME: cache };
  const write = (name: string, text: string): string => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  const input = write("in.txt", "abc 123\n");
  const tokens = "A : [a-z]+ ;\nB : [0-9]+ ;\nWS : [ \\n]+ -> skip ;\n";
  const semi = write("Semi.g4", `grammar Semi;\nstart : A B\n${tokens}`);
  const paren = write("Paren.g4", `grammar Paren;\nstart : (A B ;\n${tokens}`);
  const json = write("data.json", '{"a": [1, 2]}\n');
  const c = write("prog.c", "#include <stdio.h>\nint main(void) { return 0; }\n");
  const empty = write("Empty.g4", "");
  const noRules = write("NoRules.g4", "grammar NoRules;\n");
  const ticks = write("ticks.txt", "`\n".repeat(100));
  const lexer = write("Lex.g4", `lexer grammar Lex;\n${tokens}`);
  const badLexer = write("BadLex.g4", "lexer grammar BadLex;\nA : [a-z]+\nB : [0-9]+ ;\n");
  const parser = write("Par.g4", "parser grammar Par;\noptions { tokenVocab = Lex; }\nstart : A B ;\n");
  const badParser = write(
    "BadPar.g4",
    "parser grammar BadPar;\noptions { tokenVocab = Lex; }\nstart : A (B ;\n",
  );
  write("Common.g4", "parser grammar Common;\nitem : A (B ;\n");
  const host = write("Host.g4", `grammar Host;\nimport Common;\nstart : item ;\n${tokens}`);
  const format = write("fmt.yaml", "grammars:\n  g:\n    files: [Semi.g4]\n");

  const refused = async (args: string[], message: RegExp): Promise<void> => {
    const run = await runWhittle(args, { env, cwd: dir });
    assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
    assert.doesNotMatch(run.stderr, /internal error/);
    assert.match(run.stderr, message, args.join(" "));
  };
  const reduce = (...grammar: string[]): string[] => [
    input,
    ...grammar.flatMap((g) => ["--grammar", g]),
    "--test",
    "true",
  ];
  // Columns count from 1, as in the input's syntax errors (antlr-ng counts them from 0).
  await refused(reduce(semi), /Semi\.g4:3:3: syntax error: no viable alternative at input ':'/);
  await refused(reduce(paren), /Paren\.g4:2:14: syntax error: missing '\)' at ';'/);
  await refused(
    reduce(json),
    /data\.json:1:1: syntax error: mismatched input .* expecting \{'lexer', 'parser', 'grammar'\}/,
  );
  await refused(reduce(c), /prog\.c:1:1: syntax error: mismatched input '#'/);
  await refused(reduce(empty), /Empty\.g4:1:1: syntax error: mismatched input '<EOF>'/);
  await refused(
    reduce(noRules),
    /NoRules\.g4: grammar NoRules has no rules \(antlr-ng gives no line and column\)$/m,
  );
  // Of a file's many errors, the first 20 are listed.
  await refused(
    reduce(ticks),
    /ticks\.txt:20:1: syntax error: token recognition error at: '`'\n\(and 81 more errors\)\n$/,
  );
  await refused(
    reduce(lexer),
    /Lex\.g4 is a lexer grammar; give a combined grammar, or a lexer and a parser/,
  );
  await refused(reduce(lexer, lexer), /give one lexer grammar and one parser grammar/);
  await refused(reduce(badLexer, parser), /BadLex\.g4:3:3: syntax error/);
  await refused(reduce(parser, badLexer), /BadLex\.g4:3:3: syntax error/);
  await refused(reduce(lexer, badParser), /BadPar\.g4:3:14: syntax error: missing '\)' at ';'/);
  await refused(reduce(host), /Common\.g4:2:13: syntax error: missing '\)' at ';'/);
  await refused([input, "--format", format, "--test", "true"], /Semi\.g4:3:3: syntax error/);
  await refused(["tree", input, "--grammar", semi], /Semi\.g4:3:3: syntax error/);
  await refused(["tree", input, "--grammar", host], /Common\.g4:2:13: syntax error/);

  // Nothing broken was cached; once fixed, the grammar loads (and is cached).
  const cached = (): string[] =>
    existsSync(join(cache, "whittle", "grammars")) ? readdirSync(join(cache, "whittle", "grammars")) : [];
  assert.deepEqual(cached(), []);
  writeFileSync(semi, `grammar Semi;\nstart : A B ;\n${tokens}`);
  const fixed = await runWhittle(["tree", input, "--grammar", semi], { env, cwd: dir });
  assert.equal(fixed.code, 0, fixed.stderr);
  assert.match(fixed.stdout.toString(), /start/);
  assert.equal(cached().length, 1);
  const split = await runWhittle(["tree", input, "--grammar", lexer, "--grammar", parser], { env, cwd: dir });
  assert.equal(split.code, 0, split.stderr);
});
