/**
 * A full garbage collection after the parse of a large input. While a parse of hundreds of KB
 * allocates its representations one after the other (ANTLR's contexts, RawNodes, drafts), V8 lets
 * its heap grow far past what is live instead of collecting: for 586 KB of C with the shared C.g4,
 * whittle's peak RSS was 700–770 MiB while its live data fit in a 300 MB heap. Collecting once the
 * parse's garbage is garbage (after the parse, after the tree is built) keeps the peak near the live
 * data. It costs a few hundred ms, next to a parse of such an input that takes seconds.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Inputs from this size on are large: their parse is followed by a collection. */
export const LARGE_PARSE_BYTES = 256 * 1024;

let collect: (() => void) | null | undefined;

/** V8's full collection, made callable once (`--expose-gc` for a new context); null if refused. */
function collector(): (() => void) | null {
  if (collect !== undefined) return collect;
  collect = null;
  try {
    setFlagsFromString("--expose-gc");
    const gc: unknown = runInNewContext("gc");
    if (typeof gc === "function") collect = gc as () => void;
  } catch {
    // no collector: the heap grows as V8 sees fit
  }
  return collect;
}

/**
 * How far V8's heap may grow past what a full collection leaves live while a large input is parsed,
 * in percent. V8 picks the factor itself (up to 4×) from how fast it collects; ANTLR's prediction
 * on deeply nested input allocates configuration sets by the hundred MB, most of them dead at once,
 * and V8 answers by growing the heap: for 579 KiB of csmith's C with the shared C.g4, a peak RSS of
 * 1.3 GB over about 260 MB of live data. Held to 15 %, whittle's HDD* on that file peaked at
 * 411–463 MiB in two runs by hand (at 30 %: 444–489 MiB in five runs, four of them before the DFAs
 * were let go of after the parse and before the copy into the model ran under this heap), in no
 * more time than the machine's noise showed; the benchmark's figures are in bench/README.md,
 * section "Memory".
 */
export const PARSE_HEAP_GROWING_PERCENT = 15;

/** Sets V8's heap growing factor (0: V8's own choice); false if V8 refused the flag. */
function setHeapGrowing(percent: number): boolean {
  try {
    setFlagsFromString(`--heap-growing-percent=${percent}`);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs the parse of `bytes` bytes of input: for a large input, with the heap's growth held to
 * PARSE_HEAP_GROWING_PERCENT, and V8's own factor restored afterwards.
 */
export function parseWithTightHeap<T>(bytes: number, parse: () => T): T {
  if (bytes < LARGE_PARSE_BYTES || !setHeapGrowing(PARSE_HEAP_GROWING_PERCENT)) return parse();
  try {
    return parse();
  } finally {
    setHeapGrowing(0);
  }
}

/** After parsing (or building the tree of) `bytes` bytes of input: collects if that was large. */
export function reclaimAfterParse(bytes: number): void {
  if (bytes >= LARGE_PARSE_BYTES) collector()?.();
}
