/**
 * Child process of the scale section: generates an input of N lines, reduces it with an in-process
 * oracle, and prints one JSON line of figures, including this process's peak RSS. Run alone so that
 * maxRSS is the reduction's (plus Node's baseline), not the harness's.
 *
 *   node dist/bench/sections/scale-child.js <lines> [cache kind]
 *   node dist/bench/sections/scale-child.js char <megabytes> <jobs> <time budget in ms>
 *
 * The second form reduces one line of <megabytes> MB at character level (every byte an atom) to the
 * marker it holds, and reports the bytes per atom at peak and the time to the first test.
 */
import type { CacheKind } from "../../src/cache/index.js";
import { reduce } from "../../src/reduce/reduce.js";
import { linesInput, oneLineInput } from "../lib/generated.js";
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

export interface ScaleCharChildResult {
  megabytes: number;
  inputBytes: number;
  atoms: number;
  jobs: number;
  tests: number;
  /** Whether the time budget stopped the reduction before it was done. */
  stopped: boolean;
  outputBytes: number;
  ok: boolean;
  /** From the call of reduce() to the first test-start event: splitting into atoms, the first candidate. */
  firstTestMs: number;
  wallMs: number;
  cpuMs: number;
  rssBeforeBytes: number;
  maxRssBytes: number;
  sampledPeakRssBytes: number;
  /** (peak RSS − RSS before) / atoms. */
  bytesPerAtom: number;
  defaults: string;
}

async function charRun(megabytes: number, jobs: number, budgetMs: number): Promise<void> {
  const { input, marker } = oneLineInput(Math.round(megabytes * 1e6));
  const needle = Buffer.from(marker);
  const oracle = (c: Uint8Array): boolean => Buffer.from(c.buffer, c.byteOffset, c.length).includes(needle);
  const rssBeforeBytes = process.memoryUsage.rss();
  const sampler = new RssSampler(5);
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(new Error("time budget")), budgetMs);
  let atoms = 0;
  let firstTestMs = Number.NaN;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await reduce(input, oracle, {
    atom: "char",
    jobs,
    assumeInteresting: true,
    signal: stop.signal,
    onEvent: (event) => {
      if (event.type === "pass") atoms = event.units;
      if (event.type === "test-start" && Number.isNaN(firstTestMs)) firstTestMs = performance.now() - t0;
    },
  });
  const wallMs = performance.now() - t0;
  clearTimeout(timer);
  const cpu = process.cpuUsage(cpu0);
  const sampledPeakRssBytes = sampler.stop();
  const maxRssBytes = process.resourceUsage().maxRSS * 1024;
  const out: ScaleCharChildResult = {
    megabytes,
    inputBytes: input.length,
    atoms,
    jobs,
    tests: result.stats.tests,
    stopped: result.kind === "stopped",
    outputBytes: result.output.length,
    ok: oracle(result.output),
    firstTestMs,
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    rssBeforeBytes,
    maxRssBytes,
    sampledPeakRssBytes,
    bytesPerAtom: (maxRssBytes - rssBeforeBytes) / atoms,
    defaults: describeDefaults(),
  };
  process.stdout.write(JSON.stringify(out) + "\n");
}

async function main(): Promise<void> {
  if (process.argv[2] === "char") {
    const [megabytes, jobs, budgetMs] = process.argv.slice(3).map(Number);
    return charRun(megabytes!, jobs!, budgetMs!);
  }
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
