/**
 * The package's public surface, imported by name as a user would: a small root, the engine behind an
 * explicit subpath, and internals out of reach.
 */
import assert from "node:assert/strict";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { scratch } from "./helpers/cli.js";

test("the root exports reduce, its options and results, oracles, events, errors and outcomes — nothing else", async () => {
  const root = await import("whittle");
  assert.deepEqual(Object.keys(root).sort(), [
    "DEFAULTS",
    "InvalidOptionError",
    "NotInterestingError",
    "OUTCOMES",
    "OutOfMemoryError",
    "WhittleError",
    "commandOracle",
    "isInteresting",
    "reduce",
  ]);
});

test("whittle/engine holds the algorithms' building blocks", async () => {
  const engine = await import("whittle/engine");
  for (const name of [
    "ddmin",
    "split",
    "findInteresting",
    "createCache",
    "splitAtoms",
    "joinAtoms",
    "resolveOptions",
  ]) {
    assert.equal(typeof (engine as Record<string, unknown>)[name], "function", name);
  }
});

test("deep imports of internals are blocked by the package's exports", async () => {
  const internal: string = "whittle/dist/src/reduce/reduce.js";
  await assert.rejects(import(internal), {
    code: "ERR_PACKAGE_PATH_NOT_EXPORTED",
  });
});

test("commandOracle() runs an external test for reduce()", async () => {
  const { commandOracle, reduce } = await import("whittle");
  const dir = scratch();
  const check = join(dir, "check.sh");
  writeFileSync(check, '#!/bin/sh\ngrep -q KEEP "$1"\n');
  chmodSync(check, 0o755);
  const oracle = commandOracle({ command: [check, "{}"], fileName: "in.txt", timeoutMs: 10_000 });
  try {
    const run = await oracle.run(Buffer.from("no\n"));
    assert.equal(run.outcome, "not-interesting");
    assert.equal(run.exitCode, 1);
    const result = await reduce(Buffer.from("a\nKEEP\nb\n"), oracle, { atom: "line", jobs: 2 });
    assert.equal(result.kind, "done");
    assert.equal(Buffer.from(result.output).toString(), "KEEP\n");
  } finally {
    await oracle.close();
  }
});
