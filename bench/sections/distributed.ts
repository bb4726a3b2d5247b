/**
 * Section `distributed` (issue 25): reductions through the Redis/BullMQ work queue (`--queue`) with
 * 1, 2, 4, 8 and 16 `whittle worker` processes on this machine, against the local `-j 1` run. The
 * test sleeps (1 s, quick 0.3 s) and then decides by grep, so the tests wait rather than compute and
 * the 2 cores do not limit the workers. For each case and worker count: wall time, speed-up over
 * `-j 1`, the ideal speed-up the reduction's rounds allow (bench/lib/rounds.ts, read from the `-j 1`
 * run's `--events`), the share of it reached, and whether the result is byte-identical to `-j 1`'s.
 * Then the overhead per test of the queue: a test that answers at once, through 1 worker with
 * `-j 1` against the local `-j 1` run.
 */
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BenchContext, Section } from "../lib/context.js";
import { fixed, ms, percent, table } from "../lib/format.js";
import { progress } from "../lib/log.js";
import {
  haveRedisServer,
  startRedis,
  startWorker,
  type BenchRedis,
  type BenchWorker,
} from "../lib/redis-server.js";
import { idealSpeedup, idealTestTimes, roundsOf, type RoundsSummary } from "../lib/rounds.js";
import { median, spread, type Spread } from "../lib/stats.js";

const WORKERS = [1, 2, 4, 8, 16];

export interface QueueRow {
  workers: number;
  /** Wall time of the whittle command (spawn to exit). */
  wallMs: number;
  /** `-j 1`'s wall over this one. */
  speedup: number;
  /** The rounds' ideal speed-up with this many workers. */
  bound: number;
  /** speedup / bound. */
  share: number;
  /** Tests as `--stats` counts them (with --queue and no -j, also candidates cancelled while queued). */
  tests: number;
  /** Tests the workers ran (`queue.done`). */
  done: number;
  /** Workers connected for the command, as the run saw them. */
  connected: number;
  /** The result equals the `-j 1` result byte for byte. */
  identical: boolean;
  /** From the spawn until whittle printed the initial check's line (startup, connection, one test). */
  startMs: number;
  /** The same reduction locally with `-j W`: what this machine gives without the queue. */
  local: { wallMs: number; speedup: number; share: number; identical: boolean; startMs: number };
}

export interface DistributedCase {
  name: string;
  description: string;
  inputBytes: number;
  /** The whittle options besides the input, output and test. */
  args: string[];
  local: { wallMs: number; tests: number; outputBytes: number; startMs: number };
  rounds: RoundsSummary & { roundsCount: number; largest: number };
  rows: QueueRow[];
}

export interface OverheadData {
  case: string;
  tests: number;
  reps: number;
  localMs: Spread;
  queueMs: Spread;
  /** Per test, median over repetitions. */
  localPerTestMs: number;
  queuePerTestMs: number;
  /** (queue − local) / tests, per repetition. */
  extraPerTestMs: Spread;
  identical: boolean;
}

export interface DistributedData {
  /** Why nothing was measured (no redis-server). */
  skipped?: string;
  sleepS: number;
  cases: DistributedCase[];
  overhead?: OverheadData;
  allIdentical: boolean;
}

interface CaseSpec {
  name: string;
  description: string;
  file: string;
  content: string;
  args: string[];
  /** The shell test after the sleep: exit 0 when the candidate "$1" is interesting. */
  check: string;
}

/** A JSON array of 24 numbers, 3 of them replaced by the strings the test looks for. */
function treeCase(): CaseSpec {
  const values: (number | string)[] = Array.from({ length: 24 }, (_, i) => 1000 + i * 37);
  values[3] = "n11";
  values[12] = "n22";
  values[20] = "n33";
  return {
    name: "json-array (tree)",
    description:
      "a JSON array of 24 values, 3 needed, the built-in JSON language (HDD and the default pipeline)",
    file: "values.json",
    content: JSON.stringify({ values }, null, 1) + "\n",
    args: [],
    check: 'for k in n11 n22 n33; do grep -q "$k" "$1" || exit 1; done',
  };
}

/** 48 lines, 6 of them needed. */
function lineCase(): CaseSpec {
  const needed = [3, 11, 20, 29, 37, 45];
  const lines = Array.from({ length: 48 }, (_, i) =>
    needed.includes(i) ? `k${i}` : `line ${i}: ${"abcdefgh".slice(i % 5)}`,
  );
  return {
    name: "text-lines (line)",
    description: "48 lines of text, 6 needed; `--language none --atom line` (ddmin over lines)",
    file: "lines.txt",
    content: lines.join("\n") + "\n",
    args: ["--language", "none", "--atom", "line"],
    check: `for k in ${needed.join(" ")}; do grep -qx "k$k" "$1" || exit 1; done`,
  };
}

function script(dir: string, name: string, sleepS: number, check: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${sleepS > 0 ? `sleep ${sleepS}\n` : ""}${check}\n`);
  chmodSync(path, 0o755);
  return path;
}

interface WhittleResult {
  wallMs: number;
  startMs: number;
  output: Buffer;
  stats: { tests: number; queue?: { workers: number; done: number } };
  events?: string;
  stderr: string;
}

/** One whittle reduction in its own process; `how` is `-j 1` or `--queue URL` (with or without -j). */
async function reduceOnce(
  main: string,
  dir: string,
  spec: CaseSpec,
  input: string,
  command: readonly string[],
  how: readonly string[],
  events: boolean,
): Promise<WhittleResult> {
  const runDir = mkdtempSync(join(dir, "run-"));
  const out = join(runDir, `out-${spec.file}`);
  const stats = join(runDir, "stats.json");
  const eventsFile = join(runDir, "events.jsonl");
  const args = [
    main,
    input,
    ...spec.args,
    ...how,
    "--timeout",
    "30",
    "-o",
    out,
    "--stats",
    stats,
    ...(events ? ["--events", eventsFile] : []),
    "--",
    ...command,
  ];
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { cwd: runDir, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  let startMs = Number.NaN;
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
    if (Number.isNaN(startMs) && /initial check/.test(stderr)) startMs = performance.now() - t0;
  });
  const exit = await new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const wallMs = performance.now() - t0;
  if (exit !== 0)
    throw new Error(`whittle ${how.join(" ")} on ${spec.file} exited ${exit}: ${stderr.trim()}`);
  return {
    wallMs,
    startMs,
    output: readFileSync(out),
    stats: JSON.parse(readFileSync(stats, "utf8")) as WhittleResult["stats"],
    ...(events ? { events: readFileSync(eventsFile, "utf8") } : {}),
    stderr,
  };
}

async function withWorkers<T>(
  count: number,
  start: () => Promise<BenchWorker>,
  fn: () => Promise<T>,
): Promise<T> {
  const workers: BenchWorker[] = [];
  try {
    // Started a few at a time: 16 Node processes booting at once on 2 cores take long to be ready.
    while (workers.length < count) {
      const batch = Math.min(4, count - workers.length);
      workers.push(...(await Promise.all(Array.from({ length: batch }, start))));
    }
    return await fn();
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
  }
}

async function runCase(
  ctx: BenchContext,
  main: string,
  redis: BenchRedis,
  dir: string,
  spec: CaseSpec,
  sleepS: number,
): Promise<DistributedCase> {
  const input = join(dir, spec.file);
  writeFileSync(input, spec.content);
  const command = [script(dir, `test-${spec.file}.sh`, sleepS, spec.check), "{}"];
  progress(`distributed: ${spec.name}: -j 1 locally`);
  const local = await reduceOnce(main, dir, spec, input, command, ["-j", "1"], true);
  const r = roundsOf(local.events!);
  if (r.tests !== local.stats.tests)
    throw new Error(`the events hold ${r.tests} tests, --stats ${local.stats.tests}`);
  progress(
    `distributed: ${spec.name}: ${ms(local.wallMs)}, ${r.tests} tests in ${r.sizes.length} rounds (largest ${Math.max(...r.sizes)})`,
  );
  const rows: QueueRow[] = [];
  for (const workers of WORKERS) {
    const queued = await withWorkers(
      workers,
      () => startWorker(main, redis.url, command, dir),
      () => reduceOnce(main, dir, spec, input, command, ["--queue", redis.url], false),
    );
    // Locally, -j 1 is the baseline itself.
    const parallel =
      workers === 1
        ? local
        : await reduceOnce(main, dir, spec, input, command, ["-j", String(workers)], false);
    const speedup = local.wallMs / queued.wallMs;
    const bound = idealSpeedup(r, workers);
    const identical = queued.output.equals(local.output);
    const localSpeedup = local.wallMs / parallel.wallMs;
    const localIdentical = parallel.output.equals(local.output);
    rows.push({
      workers,
      wallMs: queued.wallMs,
      speedup,
      bound,
      share: speedup / bound,
      tests: queued.stats.tests,
      done: queued.stats.queue?.done ?? 0,
      connected: queued.stats.queue?.workers ?? 0,
      identical,
      startMs: queued.startMs,
      local: {
        wallMs: parallel.wallMs,
        speedup: localSpeedup,
        share: localSpeedup / bound,
        identical: localIdentical,
        startMs: parallel.startMs,
      },
    });
    progress(
      `distributed: ${spec.name}: ${workers} worker(s): ${ms(queued.wallMs)}, ×${fixed(speedup)} of bound ×${fixed(bound)} (${percent(speedup / bound)}); locally -j ${workers}: ${ms(parallel.wallMs)}, ×${fixed(localSpeedup)}${identical && localIdentical ? "" : ", RESULT DIFFERS FROM -j 1"}`,
    );
    if (!identical || !localIdentical) process.exitCode = 1;
  }
  return {
    name: spec.name,
    description: spec.description,
    inputBytes: Buffer.byteLength(spec.content),
    args: spec.args,
    local: {
      wallMs: local.wallMs,
      tests: local.stats.tests,
      outputBytes: local.output.length,
      startMs: local.startMs,
    },
    rounds: { ...r, roundsCount: r.sizes.length, largest: Math.max(...r.sizes) },
    rows,
  };
}

/** The queue's cost per test: an instant test through 1 worker with -j 1, against the local -j 1 run. */
async function overhead(main: string, redis: BenchRedis, dir: string, reps: number): Promise<OverheadData> {
  const spec = lineCase();
  const input = join(dir, `instant-${spec.file}`);
  writeFileSync(input, spec.content);
  const command = [script(dir, "instant.sh", 0, spec.check), "{}"];
  const local: WhittleResult[] = [];
  const queued: WhittleResult[] = [];
  await withWorkers(
    1,
    () => startWorker(main, redis.url, command, dir),
    async () => {
      for (let rep = 0; rep < reps; rep++) {
        // Alternating, the order rotating, as the other timing figures.
        const order = rep % 2 === 0 ? ["local", "queue"] : ["queue", "local"];
        for (const how of order) {
          if (how === "local")
            local.push(await reduceOnce(main, dir, spec, input, command, ["-j", "1"], false));
          else
            queued.push(
              await reduceOnce(main, dir, spec, input, command, ["--queue", redis.url, "-j", "1"], false),
            );
        }
      }
    },
  );
  const tests = local[0]!.stats.tests;
  if (queued.some((q) => q.stats.tests !== tests) || local.some((l) => l.stats.tests !== tests))
    throw new Error("the overhead runs did not all make the same tests");
  const identical = [...local, ...queued].every((x) => x.output.equals(local[0]!.output));
  if (!identical) process.exitCode = 1;
  return {
    case: spec.name,
    tests,
    reps,
    localMs: spread(local.map((l) => l.wallMs)),
    queueMs: spread(queued.map((q) => q.wallMs)),
    localPerTestMs: median(local.map((l) => l.wallMs / tests)),
    queuePerTestMs: median(queued.map((q) => q.wallMs / tests)),
    extraPerTestMs: spread(queued.map((q, i) => (q.wallMs - local[i]!.wallMs) / tests)),
    identical,
  };
}

async function run(ctx: BenchContext): Promise<DistributedData> {
  const sleepS = ctx.quick ? 0.3 : 1;
  if (!haveRedisServer()) {
    const skipped = "redis-server is not installed (apt-get install redis-server): nothing measured";
    progress(`distributed: SKIPPED: ${skipped}`);
    return { skipped, sleepS, cases: [], allIdentical: true };
  }
  const main = join(ctx.repoRoot, "dist", "src", "cli", "main.js");
  const dir = join(ctx.tmpDir, "distributed");
  mkdirSync(dir, { recursive: true });
  const redis = await startRedis(dir);
  try {
    const cases: DistributedCase[] = [];
    for (const spec of [treeCase(), lineCase()])
      cases.push(await runCase(ctx, main, redis, dir, spec, sleepS));
    progress("distributed: overhead per test, an instant test through 1 worker against -j 1 locally");
    const over = await overhead(main, redis, dir, ctx.quick ? 3 : 5);
    const allIdentical =
      over.identical && cases.every((c) => c.rows.every((r) => r.identical && r.local.identical));
    return { sleepS, cases, overhead: over, allIdentical };
  } finally {
    await redis.stop();
  }
}

function render(data: DistributedData): string {
  if (data.skipped) return `**Skipped:** ${data.skipped}.\n`;
  const parts: string[] = [
    `Every test sleeps ${data.sleepS} s, then decides by grep; workers are \`whittle worker URL --jobs 1\`` +
      ` processes on this machine, the reduction \`--queue URL\` without \`-j\` (tests in flight: the` +
      ` workers' capacity), against the same reduction with \`-j 1\` locally; beside it the same reduction` +
      ` locally with \`-j W\`, which shows what this machine gives without the queue. One run per cell.` +
      ` **tests (ran)**: \`tests\` of \`--stats\` (with \`--queue\` and no \`-j\` it counts candidates handed` +
      ` to the queue and cancelled while waiting for a slot) and the tests workers ran. **start**: from the` +
      ` process's spawn until it printed the initial check's line (loading, connecting, one test).` +
      ` **Bound**: the ideal speed-up the reduction's rounds allow with W workers, from the \`-j 1\` run's` +
      ` \`--events\`: a round is one scan in which the deterministic mode may test candidates at once` +
      ` (a ddmin round with subsets and complements combined, a round of adaptive deletion, a hoisting` +
      ` or replacement scan); the \`-j 1\` run tests a round's candidates up to its first interesting one,` +
      ` and a parallel run must run those same tests before it may commit it. With every test taking the` +
      ` same time, a round of k tests needs ceil(k / W) test times; the checks of the original and of the` +
      ` empty input and the final re-test one each. Bound = (tests + 3) / Σ that. **Share** = achieved` +
      ` speed-up / bound (issue 25's goal: ≥ 85 %). Identical: the result equals \`-j 1\`'s byte for byte.`,
    "",
  ];
  for (const c of data.cases) {
    parts.push(
      `### ${c.name}`,
      "",
      `${c.description}; ${c.inputBytes} B → ${c.local.outputBytes} B. \`-j 1\`: ${ms(c.local.wallMs)}, ${c.local.tests} tests in ${c.rounds.roundsCount} rounds (largest ${c.rounds.largest}; ${c.rounds.sizes.filter((k) => k === 1).length} of one test), + ${c.rounds.sequential} checks one at a time.`,
      "",
      table(
        [
          "workers",
          "wall",
          "speed-up",
          "bound",
          "share of bound",
          "ideal (test times)",
          "tests (ran)",
          "connected",
          "start",
          "local -j W: wall",
          "speed-up",
          "share",
          "identical (queue, local)",
        ],
        c.rows.map((r) => [
          r.workers,
          ms(r.wallMs),
          `×${fixed(r.speedup)}`,
          `×${fixed(r.bound)}`,
          percent(r.share),
          idealTestTimes(c.rounds, r.workers),
          `${r.tests} (${r.done})`,
          r.connected,
          ms(r.startMs),
          ms(r.local.wallMs),
          `×${fixed(r.local.speedup)}`,
          percent(r.local.share),
          `${r.identical ? "yes" : "**NO**"}, ${r.local.identical ? "yes" : "**NO**"}`,
        ]),
      ),
    );
  }
  const o = data.overhead;
  if (o) {
    parts.push(
      "### Overhead per test",
      "",
      `${o.case} with a test that answers at once (no sleep), ${o.tests} tests, ${o.reps} repetitions alternating: local \`-j 1\` against \`--queue URL -j 1\` with one worker.`,
      "",
      table(
        ["runner", "wall", "per test"],
        [
          [
            "local -j 1",
            `${ms(o.localMs.median)} (${ms(o.localMs.min)}–${ms(o.localMs.max)})`,
            ms(o.localPerTestMs),
          ],
          [
            "queue, 1 worker, -j 1",
            `${ms(o.queueMs.median)} (${ms(o.queueMs.min)}–${ms(o.queueMs.max)})`,
            ms(o.queuePerTestMs),
          ],
        ],
      ),
      `Extra per test through the queue: **${ms(o.extraPerTestMs.median)}** (${ms(o.extraPerTestMs.min)}–${ms(o.extraPerTestMs.max)}); results identical: ${o.identical ? "yes" : "**NO**"}.`,
      "",
    );
  }
  if (!data.allIdentical) parts.push("**A result differed from the `-j 1` result** (see the tables).", "");
  return parts.join("\n");
}

export const distributedSection: Section<DistributedData> = {
  id: "distributed",
  title: "Distributed: the Redis/BullMQ work queue",
  run,
  render,
};
