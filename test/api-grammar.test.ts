/**
 * The library does what the command does (issue 24): reduce() with `language` or `grammar` runs the
 * command's default pipeline along it, and gives the command's result; options it does not know,
 * or of the wrong type, are refused at once, naming the key.
 */
import assert from "node:assert/strict";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { FIXTURES, runWhittle, scratch } from "./helpers/cli.js";
import { writePredicateScript } from "./helpers/oracle-server.js";

const SOURCE = `function helper(a, b) {
  const total = a + b;
  return total * 2;
}
function crash(value) {
  if (value > 10) {
    throw new TypeError("too big: " + value);
  }
  return value;
}
console.log(helper(1, 2), crash(42));
`;

/** The failure: a TypeError is still thrown (as text, the way the shell test sees it). */
const shows = (text: string): boolean => text.includes("throw new TypeError") && text.includes("crash");

/** A test script for the command with the same verdicts as `shows` (decided in this process). */
function commandTest(dir: string): Promise<string> {
  return writePredicateScript(join(dir, "t.sh"), (bytes) => shows(bytes.toString("utf8")));
}

test('reduce() with language "javascript" gives the command\'s default result on the same input and test', async () => {
  const { reduce } = await import("whittle-reduce");
  const dir = scratch();
  const input = join(dir, "crash.js");
  writeFileSync(input, SOURCE);
  const output = join(dir, "out.js");
  const run = await runWhittle([input, "-q", "--timeout=60", "-o", output, "--test", await commandTest(dir)]);
  assert.equal(run.code, 0, run.stderr);
  const command = readFileSync(output, "utf8");

  let tests = 0;
  const result = await reduce(Buffer.from(SOURCE), (c) => (tests++, shows(Buffer.from(c).toString("utf8"))), {
    language: "javascript",
  });
  assert.equal(result.kind, "done");
  const library = Buffer.from(result.output).toString("utf8");
  assert.equal(library, command);
  assert.ok(library.length < SOURCE.length / 2, `reduced: ${JSON.stringify(library)}`);
  // Lines and characters alone are another pipeline, with another result.
  const text = await reduce(Buffer.from(SOURCE), (c) => shows(Buffer.from(c).toString("utf8")), {});
  assert.notEqual(Buffer.from(text.output).toString("utf8"), library);
  assert.ok(tests > 0);
});

// With an ANTLR grammar the syntax filter's "auto" weighs a parse against a test's time, which a
// command's test and an in-process oracle do not share: both check every candidate here.
test("reduce() with an ANTLR grammar gives the command's --grammar result", async () => {
  const { reduce } = await import("whittle-reduce");
  const dir = scratch();
  const json = '{"name": "x", "list": [1, 2, 87, 4], "nested": {"deep": [true, null]}}\n';
  const input = join(dir, "in.json");
  writeFileSync(input, json);
  const script = join(dir, "t.sh");
  writeFileSync(script, '#!/bin/sh\ngrep -q 87 "$1" && grep -q deep "$1"\n');
  chmodSync(script, 0o755);
  const grammar = join(FIXTURES, "grammar", "JSON.g4");
  const env = { XDG_CACHE_HOME: join(dir, "cache") };
  const output = join(dir, "out.json");
  const run = await runWhittle(
    [input, "-q", "--timeout=60", "--grammar", grammar, "--syntax-filter", "-o", output, "--test", script],
    {
      env,
    },
  );
  assert.equal(run.code, 0, run.stderr);
  const result = await reduce(
    Buffer.from(json),
    (c) => {
      const t = Buffer.from(c).toString("utf8");
      return t.includes("87") && t.includes("deep");
    },
    { grammar: [grammar], syntaxFilter: true },
  );
  assert.equal(result.kind, "done");
  assert.equal(Buffer.from(result.output).toString("utf8"), readFileSync(output, "utf8"));
});

test("reduce() refuses unknown options and values of the wrong type at once, naming the key, before any test", async () => {
  const { reduce, InvalidOptionError } = await import("whittle-reduce");
  let tests = 0;
  const oracle = (): boolean => (tests++, true);
  const input = Buffer.from("a\nb\n");
  const refused: [Record<string, unknown>, string, RegExp][] = [
    [
      { langauge: "javascript" },
      "langauge",
      /^langauge: not an option of reduce\(\); the options are atom, .*language/,
    ],
    [{ language: 42 }, "language", /^language: expected one of .*javascript.*, got 42$/],
    [{ language: "cobol" }, "language", /got "cobol"/],
    [
      { grammar: "JSON.g4" },
      "grammar",
      /expected a non-empty array of ANTLR grammar file paths, got "JSON.g4"/,
    ],
    [{ onEvent: "log" }, "onEvent", /expected a function/],
    [{ spare: true }, "spare", /expected a function/],
    [{ idleWork: 1 }, "idleWork", /expected a function/],
    [{ signal: {} }, "signal", /expected an AbortSignal/],
    [{ assumeInteresting: "yes" }, "assumeInteresting", /expected true or false/],
    [{ jobs: "2" }, "jobs", /expected a whole number ≥ 1, got "2"/],
    [{ language: "javascript", pipeline: [] }, "language", /not both/],
    [{ language: "javascript", grammar: ["x.g4"] }, "grammar", /not both/],
    [{ start: "json" }, "start", /give grammar too/],
  ];
  for (const [options, key, message] of refused) {
    await assert.rejects(
      reduce(input, oracle, options),
      (error: unknown) =>
        error instanceof InvalidOptionError && error.option === key && message.test(error.message),
      JSON.stringify(options),
    );
  }
  await assert.rejects(reduce(input, oracle, "fast" as never), InvalidOptionError);
  assert.equal(tests, 0, "no test ran");
  // Keys set to undefined are as good as absent.
  const result = await reduce(input, (c) => Buffer.from(c).includes("a"), {
    language: undefined,
    atom: "line",
  });
  assert.equal(Buffer.from(result.output).toString(), "a\n");
});

test('reduce() with language "javascript" refuses an original with syntax errors, as --language does', async () => {
  const { reduce, WhittleError } = await import("whittle-reduce");
  await assert.rejects(
    reduce(Buffer.from("function (\n"), () => true, { language: "javascript" }),
    (error: unknown) => error instanceof WhittleError && error.code === "syntax",
  );
});
