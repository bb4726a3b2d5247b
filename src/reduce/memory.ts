import { isAscii, isUtf8 } from "node:buffer";
import { constrainedMemory } from "node:process";
import { freemem, totalmem } from "node:os";
import { getHeapStatistics } from "node:v8";
import type { AtomMode } from "../atoms/atoms.js";
import type { CacheKind } from "../cache/index.js";

/**
 * What a reduction allocates besides the input, at most (see `Atoms` and `Configuration`): the atom
 * boundaries (4 bytes per line for lines; for characters none when every byte is one, ASCII or not
 * valid UTF-8, else 4 per character, at most 4 per byte), and one joined candidate per running test
 * plus the best input so far, each at most the input's size. Configurations are runs of consecutive
 * atoms, a few dozen bytes in a typical run. All of it lives in array buffers, outside V8's heap.
 */
export function estimateMemory(input: Uint8Array, mode: AtomMode, jobs: number): number {
  return atomTableBytes(input, mode) + (jobs + 1) * input.length;
}

function atomTableBytes(input: Uint8Array, mode: AtomMode): number {
  let lines = 0;
  if (mode !== "char") {
    for (let lf = input.indexOf(0x0a); lf >= 0; lf = input.indexOf(0x0a, lf + 1)) lines++;
  }
  const lineTable = 4 * (lines + 2);
  const charTable = input.length === 0 || isAscii(input) || !isUtf8(input) ? 0 : 4 * (input.length + 1);
  if (mode === "line") return lineTable;
  if (mode === "char") return charTable;
  return Math.max(lineTable, charTable); // the passes run one after the other
}

/**
 * The content cache keeps whole candidates as strings on V8's heap (whose limit cannot be exceeded
 * without an abort that nothing can catch): with eviction its entries hold about two inputs' worth.
 */
export function estimateHeap(inputBytes: number, cache: CacheKind): number {
  return cache === "content" ? 2 * inputBytes : 0;
}

/**
 * V8 heap bytes that turning one tree-sitter node into the tree model takes at its peak: the plain
 * RawNode tree, the drafts the transforms rewrite while the RawNodes are let go of, and the strings
 * of their replacements. Measured by the smallest `--max-old-space-size` under which the build
 * succeeds (peak live data, not allocation): 545 bytes per node for 1 MB of JSON, 506 for 1.5 MB of
 * C; rounded up, for a margin. The model itself is typed arrays (TREE_ARRAY_BYTES_PER_NODE),
 * outside the heap.
 */
export const TREE_HEAP_BYTES_PER_NODE = 640;
/**
 * V8's heap limit counts the young generation's semispaces (48 MiB in Node 20: the limit is
 * `--max-old-space-size` plus that), which the old generation, where the tree lives, cannot use.
 */
const YOUNG_GENERATION_BYTES = 48 * 2 ** 20;
/**
 * Array-buffer bytes per node of the built tree: eight Int32 facts (kind, start, end, parent, depth,
 * replacement, gap start, last descendant), the token list, flags and the child table, 45 at most.
 */
export const TREE_ARRAY_BYTES_PER_NODE = 48;

/**
 * Whether the tree of an input of `nodes` parse-tree nodes (tree-sitter's count, known before the
 * tree model is built) can be built within the budget; a shortfall says what it would take. Without
 * this check a tree too large for V8's heap ends whittle in V8's own abort, which nothing can catch:
 * 20.9 MB of JSON (11 M nodes) needs about 7 GB of heap at the default limit of 4 GB.
 */
export function checkTreeMemory(nodes: number, budget: MemoryBudget): MemoryShortfall | undefined {
  const heap = nodes * TREE_HEAP_BYTES_PER_NODE + YOUNG_GENERATION_BYTES;
  const arrays = nodes * TREE_ARRAY_BYTES_PER_NODE;
  // Only on a shortfall: the first toLocaleString of a process sets up ICU (25 ms here).
  const what = (): string => `the parse tree (${nodes.toLocaleString("en-US")} nodes)`;
  if (heap > budget.heapAvailable) {
    return {
      needed: heap,
      available: budget.heapAvailable,
      message:
        `${what()} needs about ${mib(heap)} of V8's heap to build, but its limit leaves ` +
        `${mib(budget.heapAvailable)}`,
    };
  }
  if (arrays > budget.available) {
    return {
      needed: arrays,
      available: budget.available,
      message: `${what()} needs about ${mib(arrays)} of memory, but only ${mib(budget.available)} is available`,
    };
  }
  return undefined;
}

export interface MemoryBudget {
  /** Bytes that array buffers may still take: free memory, and the cgroup's limit if there is one. */
  readonly available: number;
  /** Bytes V8's heap may still grow by. */
  readonly heapAvailable: number;
}

/** What this process may still allocate, as the OS and V8 report it now. */
export function measureBudget(): MemoryBudget {
  const rss = process.memoryUsage.rss();
  let available = freemem();
  const limit = constrainedMemory();
  if (limit > 0 && limit < totalmem()) available = Math.min(available, limit - rss);
  const heap = getHeapStatistics();
  return { available, heapAvailable: heap.heap_size_limit - heap.used_heap_size };
}

export interface MemoryShortfall {
  readonly needed: number;
  readonly available: number;
  readonly message: string;
}

/** Compares a reduction's estimated needs with the budget; a shortfall explains what to change. */
export function checkMemory(
  input: Uint8Array,
  options: { readonly jobs: number; readonly cache: CacheKind; readonly atom: AtomMode },
  budget: MemoryBudget,
): MemoryShortfall | undefined {
  const inputBytes = input.length;
  const needed = estimateMemory(input, options.atom, options.jobs);
  if (needed > budget.available) {
    return {
      needed,
      available: budget.available,
      message:
        `reducing ${mib(inputBytes)} with ${options.atom} atoms and ${options.jobs} jobs needs about ` +
        `${mib(needed)} of memory, but only ${mib(budget.available)} is available; ` +
        `use fewer jobs, or reduce a smaller input`,
    };
  }
  const heap = estimateHeap(inputBytes, options.cache);
  if (heap > budget.heapAvailable) {
    return {
      needed: heap,
      available: budget.heapAvailable,
      message:
        `the content cache would keep about ${mib(heap)} of candidates on V8's heap, but its limit leaves ` +
        `${mib(budget.heapAvailable)}; use the content-hash cache (the default), or raise the limit ` +
        `with NODE_OPTIONS=--max-old-space-size=<MiB>`,
    };
  }
  return undefined;
}

/**
 * Whether an error is an allocation that failed: an array buffer the system would not give, a typed
 * array or string beyond V8's limits.
 */
export function isAllocationFailure(error: unknown): boolean {
  if (error instanceof RangeError) {
    return /Array buffer allocation failed|Invalid typed array length|Invalid array buffer length|Invalid array length|Invalid string length/i.test(
      error.message,
    );
  }
  const code = (error as { code?: unknown } | undefined)?.code;
  return (
    code === "ERR_STRING_TOO_LONG" ||
    code === "ERR_BUFFER_TOO_LARGE" ||
    code === "ERR_MEMORY_ALLOCATION_FAILED"
  );
}

function mib(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(bytes < 10 * 2 ** 20 ? 1 : 0)} MiB`;
}
