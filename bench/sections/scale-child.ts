/**
 * Child process of the scale section: generates an input of N lines, reduces it with an in-process
 * oracle, and prints one JSON line of figures, including this process's peak RSS. Run alone so that
 * maxRSS is the reduction's (plus Node's baseline), not the harness's.
 *
 *   node dist/bench/sections/scale-child.js <lines> [cache kind]
 */
import type { CacheKind } from "../../src/cache/index.js";
import { reduce } from "../../src/reduce/reduce.js";
import { linesInput } from "../lib/generated.js";
import { RssSampler } from "../lib/timing.js";
import { describeDefaults } from "../lib/defaults.js";

export interface ScaleChildResult {
  lines: number;
  inputBytes: number;
  cache: string;
  tests: number;
  cacheHits: number;
  iterations: number;
  outputLines: number;
  ok: boolean;
  wallMs: number;
  cpuMs: number;
  /** RSS after the input was generated, before reduce(). */
  rssBeforeBytes: number;
  /** Peak RSS of the process (getrusage), in bytes. */
  maxRssBytes: number;
  /** Peak RSS sampled every 5 ms during reduce(). */
  sampledPeakRssBytes: number;
  peakCacheBytes: number;
  /** whittle's defaults as this process loaded them. */
  defaults: string;
}

async function main(): Promise<void> {
  const lines = Number(process.argv[2] ?? 1000);
  const cache = (process.argv[3] ?? "content-hash") as CacheKind;
  const { input, markers } = linesInput(lines, 5);
  const needles = markers.map((m) => Buffer.from(m));
  const oracle = (c: Uint8Array): boolean => {
    const b = Buffer.from(c.buffer, c.byteOffset, c.length);
    return needles.every((n) => b.includes(n));
  };
  const rssBeforeBytes = process.memoryUsage.rss();
  const sampler = new RssSampler(5);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await reduce(input, oracle, { atom: "line", jobs: 1, cache, assumeInteresting: true });
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const sampledPeakRssBytes = sampler.stop();
  const outText = Buffer.from(result.output).toString();
  const out: ScaleChildResult = {
    lines,
    inputBytes: input.length,
    cache,
    tests: result.stats.tests,
    cacheHits: result.stats.cacheHits,
    iterations: result.stats.iterations,
    outputLines: outText.split("\n").filter(Boolean).length,
    ok: oracle(result.output),
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    rssBeforeBytes,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    sampledPeakRssBytes,
    peakCacheBytes: result.stats.cache.peakBytes,
    defaults: describeDefaults(),
  };
  process.stdout.write(JSON.stringify(out) + "\n");
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
