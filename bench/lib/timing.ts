/** Wall-clock time of an async function, in milliseconds. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

/** CPU time (user + system) this process spent while `fn` ran, in milliseconds; children excluded. */
export async function withCpu<T>(fn: () => Promise<T>): Promise<{ ms: number; cpuMs: number; value: T }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const value = await fn();
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { ms, cpuMs: (used.user + used.system) / 1000, value };
}

/**
 * Runs every variant once per repetition, alternating (v1, v2, …, v1, v2, …), so that slow phases of a
 * noisy machine hit all variants alike. The order within a repetition rotates too.
 */
export async function alternate<V, R>(
  variants: readonly V[],
  repetitions: number,
  run: (variant: V, repetition: number) => Promise<R>,
  /** Leave a variant out of later repetitions (e.g. when one run of it is very slow). */
  skip?: (variant: V, done: readonly R[]) => boolean,
): Promise<R[][]> {
  const results: R[][] = variants.map(() => []);
  for (let rep = 0; rep < repetitions; rep++) {
    for (let k = 0; k < variants.length; k++) {
      const i = (k + rep) % variants.length;
      if (rep > 0 && skip?.(variants[i]!, results[i]!)) continue;
      results[i]!.push(await run(variants[i]!, rep));
    }
  }
  return results;
}

/** Samples this process's resident set size every `everyMs` and keeps the peak. */
export class RssSampler {
  peak = process.memoryUsage.rss();
  readonly #timer: NodeJS.Timeout;

  constructor(everyMs = 5) {
    this.#timer = setInterval(() => this.sample(), everyMs);
    this.#timer.unref();
  }

  sample(): void {
    const rss = process.memoryUsage.rss();
    if (rss > this.peak) this.peak = rss;
  }

  stop(): number {
    clearInterval(this.#timer);
    this.sample();
    return this.peak;
  }
}

/** Runs async jobs with at most `limit` under way at once; results keep the input order. */
export async function pool<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}
