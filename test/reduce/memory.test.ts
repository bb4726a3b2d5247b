/**
 * Memory in proportion to the input: a character-level run measured in a child process, the
 * pre-flight estimate, and allocation failures turned into a clean error that keeps the best input.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { OutOfMemoryError, reduce, WhittleError } from "../../src/index.js";
import { estimateMemory } from "../../src/engine.js";
import { checkTreeMemory, TREE_HEAP_BYTES_PER_NODE } from "../../src/reduce/memory.js";
import type { MemoryChildResult } from "../helpers/memory-child.js";

const run$ = promisify(execFile);
const CHILD = join(import.meta.dirname, "..", "helpers", "memory-child.js");
const PLENTY = { available: 2 ** 50, heapAvailable: 2 ** 50 };

test("a 4 MB character-level reduction stays under 64 bytes per atom at peak (measured in a child process)", async () => {
  const { stdout } = await run$(process.execPath, [CHILD, "4", "2"], { timeout: 120_000 });
  const r = JSON.parse(stdout.trim()) as MemoryChildResult;
  assert.equal(r.output, "<MARK>", "the reduction found the marker (the run was real)");
  assert.ok(r.atoms > 3_500_000, `${r.atoms} atoms`);
  assert.ok(r.tests > 20, `${r.tests} tests`);
  const perAtom = (r.maxRss - r.rssBefore) / r.atoms;
  // One object per atom cost about 200 bytes per atom; offsets and runs cost a few.
  assert.ok(
    perAtom < 64,
    `peak ${r.maxRss} − before ${r.rssBefore} over ${r.atoms} atoms = ${perAtom.toFixed(1)} B/atom`,
  );
});

test("a reduction that cannot fit fails before any test, with the reason, the figures and the input", async () => {
  const input = Buffer.alloc(4 * 2 ** 20, "x");
  let calls = 0;
  const oracle = (): boolean => {
    calls++;
    return true;
  };
  await assert.rejects(
    reduce(input, oracle, {
      atom: "char",
      jobs: 4,
      memory: { available: 16 * 2 ** 20, heapAvailable: 2 ** 40 },
    }),
    (error: unknown) => {
      assert.ok(error instanceof OutOfMemoryError);
      assert.ok(error instanceof WhittleError);
      assert.equal(error.code, "out-of-memory");
      assert.equal(error.best, input);
      assert.ok(error.needed! > error.available!);
      assert.match(
        error.message,
        /needs about \d+ MiB of memory, but only 16 MiB is available; use fewer jobs/,
      );
      return true;
    },
  );
  assert.equal(calls, 0, "not even the initial check ran");
});

test("the content cache is refused when its keys would not fit in V8's heap, and the message names the fix", async () => {
  const input = Buffer.alloc(2 ** 20, "x");
  await assert.rejects(
    reduce(input, () => true, { cache: "content", memory: { available: 2 ** 40, heapAvailable: 2 ** 20 } }),
    (error: unknown) => error instanceof OutOfMemoryError && /content-hash cache/.test(error.message),
  );
  // The default cache keeps digests only, so the same budget is enough.
  const result = await reduce(Buffer.from("ab\ncd\n"), (c) => c.length > 0, {
    memory: { available: 2 ** 40, heapAvailable: 2 ** 20 },
  });
  assert.equal(result.kind, "done");
});

test("an allocation that fails during the run becomes an OutOfMemoryError carrying the best input so far", async () => {
  const input = Buffer.from(Array.from({ length: 64 }, (_, i) => `line ${i}\n`).join(""));
  let calls = 0;
  const oracle = (c: Uint8Array): boolean => {
    // After a few tests, the oracle asks for an impossible buffer, as a huge candidate would.
    if (++calls === 5) return new Uint8Array(2 ** 53).length > 0;
    return Buffer.from(c).includes("line 40\n");
  };
  const result = await reduce(input, oracle, {
    atom: "line",
    jobs: 1,
    assumeInteresting: true,
    memory: PLENTY,
  });
  assert.equal(result.kind, "failed");
  if (result.kind !== "failed") return;
  const error = result.error;
  assert.ok(error instanceof OutOfMemoryError);
  assert.ok(error.cause instanceof RangeError);
  assert.match(error.message, /ran out of memory while reducing \(Invalid typed array length/);
  assert.ok(error.best.length < input.length, "some reduction happened before the failure");
  assert.ok(Buffer.from(error.best).includes("line 40\n"), "the best input is interesting");
  assert.deepEqual(result.output, error.best, "the result carries the same best input");
});

test("other errors of the oracle are not mistaken for memory errors", async () => {
  const result = await reduce(
    Buffer.from("a\nb\n"),
    (c) => {
      if (c.length === 0) return false; // the empty-input check
      throw new RangeError("my own range check");
    },
    { memory: PLENTY, assumeInteresting: true },
  );
  assert.equal(result.kind, "failed");
  if (result.kind !== "failed") return;
  assert.ok(result.error instanceof RangeError && !(result.error instanceof WhittleError));
});

test("the estimate counts a boundary table only where atoms need one, and a candidate per job", () => {
  const ascii = Buffer.alloc(1000, "a\n");
  const accented = Buffer.alloc(1000, "é"); // 500 two-byte characters
  const binary = Buffer.alloc(1000, 0xff);
  // ASCII or invalid UTF-8 characters: every atom is a byte, no table; jobs + 1 candidates of the input's size.
  assert.equal(estimateMemory(ascii, "char", 3), 4 * 1000);
  assert.equal(estimateMemory(binary, "char", 1), 2 * 1000);
  // Multi-byte text: 4 bytes per byte of input at most.
  assert.equal(estimateMemory(accented, "char", 1), 4 * 1001 + 2 * 1000);
  // Lines: 4 bytes per line.
  assert.equal(estimateMemory(ascii, "line", 1), 4 * (500 + 2) + 2 * 1000);
  assert.equal(estimateMemory(accented, "both", 1), 4 * 1001 + 2 * 1000);
});

test("a parse tree is estimated per node of tree-sitter's tree, against V8's heap and then free memory", () => {
  const MiB = 2 ** 20;
  // 1 M nodes: 640 MB of heap at the peak of the build, plus the young generation the limit counts.
  assert.equal(checkTreeMemory(1_000_000, { available: 2 ** 40, heapAvailable: 1024 * MiB }), undefined);
  const heap = checkTreeMemory(1_000_000, { available: 2 ** 40, heapAvailable: 600 * MiB });
  assert.ok(heap !== undefined);
  assert.equal(heap.needed, 1_000_000 * TREE_HEAP_BYTES_PER_NODE + 48 * MiB);
  assert.match(
    heap.message,
    /^the parse tree \(1,000,000 nodes\) needs about 658 MiB of V8's heap to build, but its limit leaves 600 MiB$/,
  );
  // The model's typed arrays live outside the heap.
  const arrays = checkTreeMemory(1_000_000, { available: 9 * MiB, heapAvailable: 2 ** 40 });
  assert.match(arrays?.message ?? "", /needs about 46 MiB of memory, but only 9\.0 MiB is available/);
});
