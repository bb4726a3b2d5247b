/**
 * Large and deep trees through the command (issue 21): a tree that would not fit in V8's heap is a
 * fallback to text or a clean error, never V8's abort; `whittle tree` prints a deep tree in linear
 * size; a chain of nested nodes costs a few tests, not one per level.
 */
import assert from "node:assert/strict";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { runWhittle, scratch } from "../helpers/cli.js";

/** Under this heap limit whittle runs, but the tree of bigJson() does not fit (about 300 MB at peak). */
const SMALL_HEAP = { NODE_OPTIONS: "--max-old-space-size=64" };

/** One line of JSON of 1.1 MB, 615,000 parse-tree nodes, `"BUG"` in its last object. */
function bigJson(dir: string): { input: string; bytes: Buffer } {
  const parts: string[] = [];
  for (let i = 0; i < 15_000; i++) parts.push(`{"id":${i},"name":"x${"y".repeat(i % 72)}","tags":["a","b"]}`);
  parts.push('{"id":"BUG"}');
  const bytes = Buffer.from(`[${parts.join(",")}]`);
  const input = join(dir, "big.json");
  writeFileSync(input, bytes);
  return { input, bytes };
}

function grepTest(dir: string, word = "BUG"): string {
  const t = join(dir, "t.sh");
  writeFileSync(t, `#!/bin/sh\ngrep -q ${word} "$1"\n`);
  chmodSync(t, 0o755);
  return t;
}

test("a JSON file whose tree does not fit in V8's heap is reduced as text, and whittle says so in one line", async () => {
  const dir = scratch();
  const { input, bytes } = bigJson(dir);
  const run = await runWhittle([input, "-o", "out.json", "--test", grepTest(dir)], {
    cwd: dir,
    env: SMALL_HEAP,
  });
  assert.equal(run.signal, null, run.stderr);
  assert.equal(run.code, 0, run.stderr);
  assert.doesNotMatch(run.stderr, /FATAL ERROR|heap out of memory/);
  const said = run.stderr
    .split("\n")
    .filter((line) => /the parse tree \([\d,]+ nodes\) needs about \d+ MiB of V8's heap/.test(line));
  assert.equal(said.length, 1, run.stderr);
  assert.match(said[0]!, /reducing lines and characters instead; NODE_OPTIONS=--max-old-space-size/);
  assert.match(run.stderr, /^whittle: big\.json: parsing 1\d\d\d\.\d KiB as JSON…$/m);
  const out = readFileSync(join(dir, "out.json"), "utf8");
  assert.match(out, /BUG/);
  assert.ok(out.length < bytes.length / 100, out);
});

test("tree phases asked for by name end with the out-of-memory error (exit 1), keeping the original", async () => {
  const dir = scratch();
  const { input, bytes } = bigJson(dir);
  const run = await runWhittle([input, "--phase", "coarse", "-o", "out.json", "--test", grepTest(dir)], {
    cwd: dir,
    env: SMALL_HEAP,
  });
  assert.equal(run.signal, null, run.stderr);
  assert.equal(run.code, 1, run.stderr);
  assert.doesNotMatch(run.stderr, /FATAL ERROR|heap out of memory/);
  assert.match(run.stderr, /the parse tree \([\d,]+ nodes\) needs about \d+ MiB of V8's heap/);
  assert.ok(existsSync(join(dir, "out.json")));
  assert.deepEqual(readFileSync(join(dir, "out.json")), bytes);
});

test("whittle tree on a tree that does not fit in V8's heap is a clean error (exit 1)", async () => {
  const dir = scratch();
  const { input } = bigJson(dir);
  const run = await runWhittle(["tree", input], { cwd: dir, env: SMALL_HEAP });
  assert.equal(run.signal, null, run.stderr);
  assert.equal(run.code, 1, run.stderr);
  assert.doesNotMatch(run.stderr, /FATAL ERROR|heap out of memory/);
  assert.match(
    run.stderr,
    /^whittle: error: the parse tree \([\d,]+ nodes\) needs about \d+ MiB of V8's heap/m,
  );
  assert.equal(run.stdout.length, 0);
});

/** `[[[…x…]]]`, `depth` arrays deep. */
function nested(dir: string, depth: number, inner: string, name = "deep.json"): string {
  const input = join(dir, name);
  writeFileSync(input, "[".repeat(depth) + inner + "]".repeat(depth));
  return input;
}

test("whittle tree prints JSON nested 100,000 deep in lines of bounded length, and as JSON", async () => {
  const dir = scratch();
  const input = nested(dir, 100_000, "1");
  const run = await runWhittle(["tree", input], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  const lines = run.stdout.toString().trimEnd().split("\n");
  assert.equal(lines.length, 300_001); // 100,000 arrays of 3 nodes, and the number
  assert.ok(lines.every((l) => l.length < 250));
  assert.match(lines[200_000]!, /^ {128}…\(depth 100000\) number \[100000,100001\) "1" removable$/);

  const json = await runWhittle(["tree", input, "--json"], { cwd: dir });
  assert.equal(json.code, 0, json.stderr);
  let node = JSON.parse(json.stdout.toString()) as { kind: string; children: { kind: string }[] };
  let depth = 0;
  while (node.children.length === 3) {
    node = node.children[1] as typeof node;
    depth++;
  }
  assert.equal(depth, 100_000);
  assert.equal(node.kind, "number");
});

/** The number of tests a run made, from its --stats file. */
function testsOf(statsFile: string): number {
  return (JSON.parse(readFileSync(statsFile, "utf8")) as { tests: number }).tests;
}

test(
  "JSON nested 10,000 deep is reduced to its innermost value in a few tests, not one per level",
  { timeout: 120_000 },
  async () => {
    const dir = scratch();
    const input = nested(dir, 10_000, '"BUG"');
    const run = await runWhittle([input, "-o", "out.json", "--stats", "s.json", "--test", grepTest(dir)], {
      cwd: dir,
    });
    assert.equal(run.code, 0, run.stderr);
    // chain hoists to the innermost array (the same kind), HDDH that array to its string (one JSON
    // value for another: a supertype of the grammar).
    assert.equal(readFileSync(join(dir, "out.json"), "utf8"), '"BUG"');
    assert.ok(testsOf(join(dir, "s.json")) < 30, readFileSync(join(dir, "s.json"), "utf8"));
  },
);

test(
  "JSON nested 100,000 deep goes through parse, tree, chain and render without overflowing the stack",
  { timeout: 120_000 },
  async () => {
    const dir = scratch();
    const input = nested(dir, 100_000, '"BUG"');
    const run = await runWhittle([input, "-o", "out.json", "--stats", "s.json", "--test", grepTest(dir)], {
      cwd: dir,
    });
    assert.equal(run.code, 0, run.stderr);
    // chain hoists to the innermost array (the same kind), HDDH that array to its string (one JSON
    // value for another: a supertype of the grammar).
    assert.equal(readFileSync(join(dir, "out.json"), "utf8"), '"BUG"');
    assert.ok(testsOf(join(dir, "s.json")) < 30, readFileSync(join(dir, "s.json"), "utf8"));
  },
);

test("chain: when the deepest link fails, the first and then halves find the deepest that works", async () => {
  const dir = scratch();
  const input = nested(dir, 1000, "1");
  // Interesting while at least 300 arrays are nested.
  const t = join(dir, "t.sh");
  writeFileSync(t, `#!/bin/sh\n[ "$(tr -cd '[' < "$1" | wc -c)" -ge 300 ]\n`);
  chmodSync(t, 0o755);
  const run = await runWhittle(
    [input, "--phase", "chain", "-o", "out.json", "--stats", "s.json", "--test", t],
    { cwd: dir },
  );
  assert.equal(run.code, 0, run.stderr);
  assert.equal(readFileSync(join(dir, "out.json"), "utf8"), "[".repeat(300) + "1" + "]".repeat(300));
  // The deepest (fails), the first (works), then bisection of 998 links: 10 more.
  assert.ok(testsOf(join(dir, "s.json")) <= 12, readFileSync(join(dir, "s.json"), "utf8"));
});
