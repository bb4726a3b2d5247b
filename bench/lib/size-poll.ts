/**
 * The size of a reducer's best-so-far file over time, by polling it: whittle keeps its best result in
 * its `-o` file (replaced atomically), C-Vise rewrites the file it reduces in place. Sizes are
 * non-whitespace characters (the papers' metric); only changes are kept.
 */
import { readFileSync, statSync } from "node:fs";
import { nonWhitespaceChars } from "./anchors.js";

/** The best so far had `nonWs` non-whitespace characters from `ms` after the start on. */
export interface SizeSample {
  ms: number;
  nonWs: number;
}

/**
 * The size at `atMs` after the start: the last sample at or before it, or, when the run had ended by
 * then (finished, or stopped at its cap), its final size; null when no sample precedes it.
 */
export function sizeAt(
  series: readonly SizeSample[],
  atMs: number,
  end: { ms: number; nonWs: number },
): number | null {
  if (atMs >= end.ms) return end.nonWs;
  let value: number | null = null;
  for (const s of series) {
    if (s.ms > atMs) break;
    value = s.nonWs;
  }
  return value;
}

/**
 * Reads `path` once it is the same before and after the read (size and mtime), so a file being
 * rewritten in place is not measured half-written; undefined when it is missing or keeps changing.
 */
export function readStable(path: string): Buffer | undefined {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const before = statSync(path);
      const content = readFileSync(path);
      const after = statSync(path);
      if (before.size === after.size && before.mtimeMs === after.mtimeMs && content.length === after.size)
        return content;
    } catch {
      return undefined; // not written yet, or between a remove and a rename
    }
  }
  return undefined;
}

/** Polls `path` every `intervalMs` from now; the input's size stands until the file exists. */
export class SizePoller {
  readonly series: SizeSample[];
  readonly #t0 = performance.now();
  readonly #timer: NodeJS.Timeout;

  constructor(
    private readonly path: string,
    inputNonWs: number,
    intervalMs = 1000,
  ) {
    this.series = [{ ms: 0, nonWs: inputNonWs }];
    this.#timer = setInterval(() => this.poll(), intervalMs);
  }

  /** Takes one sample now (also called at the end, after the reducer exited). */
  poll(): void {
    const content = readStable(this.path);
    if (content === undefined) return;
    const nonWs = nonWhitespaceChars(content);
    const last = this.series[this.series.length - 1]!;
    if (nonWs !== last.nonWs) this.series.push({ ms: Math.round(performance.now() - this.#t0), nonWs });
  }

  stop(): void {
    clearInterval(this.#timer);
    this.poll();
  }
}
