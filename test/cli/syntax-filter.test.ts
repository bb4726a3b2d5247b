/**
 * The syntax filter through the command: on by default with --language, it keeps candidates with new
 * syntax errors from the test, so the result is the same or smaller with fewer test runs; the
 * summary and --stats count the skips; --no-syntax-filter tests every candidate.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { FIXTURES, jsonObjArr87Case, runWhittle, scratch } from "../helpers/cli.js";
import { writePredicateScript } from "../helpers/oracle-server.js";

interface Stats {
  result: string;
  tests: number;
  syntaxSkips: number;
  cacheHits: number;
  outputBytes: number;
  passes: Record<string, { tests: number; syntaxSkips: number }>;
  options: Record<string, unknown>;
}

/** Runs whittle with and without the filter; the results, their --stats and the summary line. */
async function bothWays(dir: string, args: readonly string[], env: Record<string, string> = {}) {
  const out: Record<"on" | "off", { output: string; stats: Stats; stderr: string }> = {} as never;
  for (const mode of ["on", "off"] as const) {
    const extra = mode === "off" ? ["--no-syntax-filter"] : [];
    const run = await runWhittle(
      [...args, ...extra, "-o", `out.${mode}`, "--stats", `stats.${mode}.json`, "-j", "1"],
      { cwd: dir, env },
    );
    assert.equal(run.code, 0, run.stderr);
    out[mode] = {
      output: readFileSync(join(dir, `out.${mode}`), "utf8"),
      stats: JSON.parse(readFileSync(join(dir, `stats.${mode}.json`), "utf8")) as Stats,
      stderr: run.stderr,
    };
  }
  return out;
}

function assertFilterHelped(out: Awaited<ReturnType<typeof bothWays>>): void {
  const { on, off } = out;
  assert.ok(on.output.length <= off.output.length, `${on.output} vs ${off.output}`);
  assert.ok(
    on.stats.tests < off.stats.tests,
    `tests: ${on.stats.tests} with the filter, ${off.stats.tests} without`,
  );
  assert.ok(on.stats.syntaxSkips > 0);
  assert.equal(off.stats.syntaxSkips, 0);
  assert.equal(on.stats.options["syntaxFilter"], "auto");
  assert.equal(off.stats.options["syntaxFilter"], false);
  const perPass = Object.values(on.stats.passes);
  assert.equal(
    perPass.reduce((n, p) => n + p.syntaxSkips, 0),
    on.stats.syntaxSkips,
  );
  const polish = ["ddmin:token", "ddmin:char"].map((pass) => on.stats.passes[pass]?.syntaxSkips ?? 0);
  assert.ok(
    polish[0]! + polish[1]! > 0,
    "the token and character polish after the tree phases is filtered too",
  );
  assert.match(
    on.stderr,
    new RegExp(`; ${on.stats.tests} tests, \\d+ cache hits, ${on.stats.syntaxSkips} syntax skips, `),
  );
  assert.doesNotMatch(off.stderr, /syntax skips/);
}

test("--language json: the filter skips broken candidates; same or smaller result with fewer tests", async () => {
  const dir = scratch();
  const input = join(dir, "input.json");
  writeFileSync(input, '{\n    "foo": "bar",\n    "baz": [ 6, 7, 12, 31, 77, 87 ]\n}\n');
  // The array must stay under its key (where json-obj-arr-87's test takes any 87, hoisting leaves
  // `87` alone and the polish has nothing left to break).
  const t = await writePredicateScript(join(dir, "t.sh"), (bytes) => {
    try {
      const value = JSON.parse(bytes.toString("utf8")) as { baz?: unknown };
      return Array.isArray(value.baz) && value.baz.includes(87);
    } catch {
      return false;
    }
  });
  const out = await bothWays(dir, [input, "--language", "json", "--test", t], {
    XDG_CACHE_HOME: join(dir, "cache"),
  });
  // The first pair and the first item are required by the grammar (`seq(pair, repeat(seq(",",
  // pair)))`): the tree phases leave them as their minimal replacements, and the token pass's
  // neighbouring pairs take the item and its comma.
  assert.equal(out.on.output.replace(/\s/g, ""), '{"":0,"baz":[87]}');
  assertFilterHelped(out);
});

test("--language c: the filter skips broken candidates; same or smaller result with fewer tests", async (t) => {
  try {
    execFileSync("gcc", ["--version"], { stdio: "ignore" });
  } catch {
    return t.skip("gcc not found");
  }
  const dir = scratch();
  const input = join(dir, "input.c");
  writeFileSync(
    input,
    "static int twice(int a) { return a * 2; }\nstruct point { int x, y; };\n" +
      "int main(void) {\n  struct point p = { 1, 2 };\n  int x = twice(p.x);\n" +
      "  for (int i = 0; i < 3; i++) x += i;\n  if (x > 100) return 7;\n  return 42;\n}\n",
  );
  const check = join(dir, "t.sh");
  writeFileSync(
    check,
    '#!/bin/sh\ngcc -fsyntax-only -std=c11 -pedantic-errors -x c "$1" 2>/dev/null && grep -q "return 42" "$1"\n',
  );
  chmodSync(check, 0o755);
  const out = await bothWays(dir, [input, "--language", "c", "--test", check]);
  assert.match(out.on.output, /return 42/);
  assertFilterHelped(out);
});

test("--grammar (ANTLR): --syntax-filter checks every candidate, --no-syntax-filter none, the default while it is cheap", async () => {
  const { dir, input, test: t, env } = await jsonObjArr87Case();
  const grammar = join(FIXTURES, "grammar/JSON.g4");
  const stats = async (...flags: string[]): Promise<Stats> => {
    const run = await runWhittle(
      // One job: speculative tests, which depend on timing, would make the counts differ by a few.
      [input, "--grammar", grammar, ...flags, "-j", "1", "-q", "--stats", "s.json", "--test", t],
      {
        cwd: dir,
        env,
      },
    );
    assert.equal(run.code, 0, run.stderr);
    return JSON.parse(readFileSync(join(dir, "s.json"), "utf8")) as Stats;
  };
  const off = await stats("--no-syntax-filter");
  assert.equal(off.syntaxSkips, 0);
  const on = await stats("--syntax-filter");
  assert.ok(on.syntaxSkips > 0);
  assert.equal(on.options["syntaxFilter"], true);
  assert.ok(on.tests < off.tests, `tests: ${on.tests} with --syntax-filter, ${off.tests} without`);
  assert.equal(on.outputBytes, off.outputBytes);
  // The default checks what it can afford (timings decide how much): never more tests than without.
  const auto = await stats();
  assert.ok(auto.tests <= off.tests, `tests: ${auto.tests} by default, ${off.tests} without the filter`);
  assert.equal(auto.outputBytes, off.outputBytes);
});
