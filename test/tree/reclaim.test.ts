/** After the parse of a large input, whittle collects V8's garbage at once (see reclaim.ts). */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { LARGE_PARSE_BYTES } from "../../src/tree/reclaim.js";

/**
 * Whether an 8 MB array that became garbage is gone after `reclaimAfterParse(bytes)`, in a fresh
 * process (a test runner's own work may trigger full collections at any time). V8 keeps objects that
 * large apart, and only a full collection frees them; a weak reference's target is kept until the
 * job that made it has ended.
 */
function clearedAfter(bytes: number): boolean {
  const module = pathToFileURL(new URL("../../src/tree/reclaim.js", import.meta.url).pathname).href;
  const script = `
    const { reclaimAfterParse } = await import(${JSON.stringify(module)});
    let garbage = new Array(1_000_000).fill(0);
    const ref = new WeakRef(garbage);
    garbage = undefined;
    await new Promise((resolve) => setImmediate(resolve));
    reclaimAfterParse(${bytes});
    console.log(ref.deref() === undefined ? "cleared" : "alive");
  `;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.trim() === "cleared";
}

test("after a large parse, garbage is collected at once; after a small one, not", () => {
  assert.equal(clearedAfter(LARGE_PARSE_BYTES), true);
  assert.equal(clearedAfter(LARGE_PARSE_BYTES - 1), false);
});
