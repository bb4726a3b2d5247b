/**
 * The package's public surface, imported by name as a user would: a small root, the engine behind an
 * explicit subpath, and internals out of reach.
 */
import assert from "node:assert/strict";
import { chmodSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { findBash } from "../src/oracle/shell.js";
import { scratch } from "./helpers/cli.js";

test("the root exports reduce, its options and results, oracles, events, errors and outcomes — nothing else", async () => {
  const root = await import("whittle-reduce");
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

test("whittle-reduce/engine holds the algorithms' building blocks", async () => {
  const engine = await import("whittle-reduce/engine");
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
  const internal: string = "whittle-reduce/dist/src/reduce/reduce.js";
  await assert.rejects(import(internal), {
    code: "ERR_PACKAGE_PATH_NOT_EXPORTED",
  });
});

test("commandOracle() runs an external test for reduce()", async () => {
  const { commandOracle, reduce } = await import("whittle-reduce");
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
    if (findBash() !== null)
      assert.ok(bashChildren() > 0, "the tests ran through bash workers, children of this process");
  } finally {
    await oracle.close();
  }
  // close() ends the workers (they do not keep Node alive, but they are still processes).
  for (let i = 0; i < 100 && bashChildren() > 0; i++) await new Promise((done) => setTimeout(done, 20));
  assert.equal(bashChildren(), 0);
});

/** Live bash processes whose parent is this process (on Linux; 0 elsewhere). */
function bashChildren(): number {
  let count = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "latin1");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (comm === "bash" && Number(ppid) === process.pid && state !== "Z") count++;
    } catch {
      // gone meanwhile
    }
  }
  return count;
}
