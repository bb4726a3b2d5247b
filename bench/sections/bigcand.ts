/**
 * Section `bigcand` (issue 23, "Time per test on big candidates"): whittle's own time per test, the
 * time outside the oracle (render, hash, syntax filter, writing the candidate, building trees), next
 * to the test's own. On two generated inputs — a 1.8 MB JSON array of 12,000 objects, one of which
 * holds the marker the oracle greps for, and a 19.5 KB JSON array nested 10,000 deep with the marker
 * at the bottom — with the default pipeline and with `--language none`; and on every shared case with
 * the default pipeline and its oracle.sh. With WHITTLE_BASELINE_MAIN (another build's
 * dist/src/cli/main.js) every run is repeated with that build, alternating.
 *
 * From the `--events` file of each run (`-j 1`, so tests never overlap): when the first test
 * started; the tests, their summed durations (test-start to test-end); whittle's own time per test:
 * the wall time from the first test's start to the last test's end minus the tests' durations,
 * divided by the tests; tests per second; the size at 10 s, 30 s and at the end.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { BenchContext, Section } from "../lib/context.js";
import { fixed, ms, table } from "../lib/format.js";
import { progress } from "../lib/log.js";
import { findRepoRoot } from "../lib/paths.js";
import { gitState } from "../lib/machine.js";
import { runWhittle } from "../lib/whittle-cli.js";

/** The events a run's figures come from. */
interface EventLine {
  t: number;
  type: string;
  id?: number;
  size?: number;
}

export interface CandidateTiming {
  case: string;
  variant: string;
  build: string;
  budgetMs: number;
  inputBytes: number;
  result: string;
  /** When the first test started (ms since the run's start), null when none did. */
  firstTestMs: number | null;
  tests: number;
  syntaxSkips: number;
  testMs: number;
  /** whittle's own wall time per test between the first test's start and the last one's end. */
  ownMsPerTest: number | null;
  /** ownMsPerTest over the mean test's time. */
  ownShare: number | null;
  testsPerSecond: number | null;
  bytesAt10s: number;
  bytesAt30s: number;
  bytesAtEnd: number;
  wallMs: number;
}

export interface BigcandData {
  builds: { name: string; commit: string }[];
  runs: CandidateTiming[];
}

/** The figures of one events file. */
export function timingOf(lines: readonly EventLine[], inputBytes: number) {
  const starts = new Map<number, number>();
  let testMs = 0;
  let tests = 0;
  let skips = 0;
  let first: number | null = null;
  let last = 0;
  const sizes: [number, number][] = [];
  for (const e of lines) {
    if (e.type === "test-start" && e.id !== undefined) {
      starts.set(e.id, e.t);
      first ??= e.t;
    } else if (e.type === "test-end" && e.id !== undefined && starts.has(e.id)) {
      testMs += e.t - starts.get(e.id)!;
      tests++;
      last = e.t;
    } else if (e.type === "syntax-skip") skips++;
    else if (e.type === "improved" && e.size !== undefined) sizes.push([e.t, e.size]);
  }
  const sizeAt = (t: number): number => {
    let size = inputBytes;
    for (const [at, s] of sizes) if (at <= t) size = s;
    return size;
  };
  const own = first === null || tests === 0 ? null : (last - first - testMs) / tests;
  return {
    firstTestMs: first,
    tests,
    syntaxSkips: skips,
    testMs,
    ownMsPerTest: own,
    ownShare: own === null || testMs === 0 ? null : own / (testMs / tests),
    testsPerSecond: first === null || last <= first ? null : (tests * 1000) / (last - first),
    bytesAt10s: sizeAt(10_000),
    bytesAt30s: sizeAt(30_000),
    bytesAtEnd: sizeAt(Infinity),
  };
}

/** The generated inputs: the large JSON array and the deeply nested one. */
export function generatedInputs(): { name: string; inputName: string; content: string }[] {
  const items = [];
  for (let i = 0; i < 12_000; i++) {
    items.push({
      id: i,
      name: `item-${i}`,
      tags: ["alpha", "beta", "gamma"],
      value: i * 3.25,
      ok: i % 2 === 0,
      note: i === 7777 ? "MARKER" : "plain text here",
    });
  }
  const depth = 10_000;
  return [
    { name: "json-1.8mb", inputName: "big.json", content: JSON.stringify(items, null, 1) },
    {
      name: "json-deep-10000",
      inputName: "deep.json",
      content: "[".repeat(depth) + '"MARKER"' + "]".repeat(depth),
    },
  ];
}

export const bigcandSection: Section<BigcandData> = {
  id: "bigcand",
  title: "Time per test on big candidates",
  async run(ctx: BenchContext): Promise<BigcandData> {
    const current = {
      name: "current",
      commit: gitState(ctx.repoRoot),
      main: undefined as string | undefined,
    };
    const baselineMain = process.env.WHITTLE_BASELINE_MAIN || undefined;
    const builds = [current];
    if (baselineMain !== undefined) {
      builds.push({
        name: "baseline",
        commit: gitState(findRepoRoot(dirname(baselineMain))),
        main: baselineMain,
      });
    } else progress("bigcand: WHITTLE_BASELINE_MAIN not set: the current build only");
    const root = join(ctx.tmpDir, "bigcand");
    mkdirSync(root, { recursive: true });
    const grep = join(root, "marker.sh");
    writeFileSync(grep, '#!/bin/sh\nexec grep -q MARKER "$1"\n', { mode: 0o755 });
    const jobs: {
      case: string;
      inputName: string;
      input: string;
      oracle: string;
      variant: string;
      args: string[];
      budgetMs: number;
    }[] = [];
    for (const g of generatedInputs()) {
      const input = join(root, g.inputName);
      writeFileSync(input, g.content);
      for (const [variant, args] of [
        ["default", []],
        ["--language none", ["--language", "none"]],
      ] as const) {
        jobs.push({
          case: g.name,
          inputName: g.inputName,
          input,
          oracle: grep,
          variant,
          args: [...args],
          // Building the 1.8 MB document's tree takes most of a minute on a loaded machine (no test in
          // 30 s at 909dc5f, quick).
          budgetMs:
            g.content.length > 1_000_000 ? (ctx.quick ? 120_000 : 180_000) : ctx.quick ? 30_000 : 60_000,
        });
      }
    }
    for (const c of ctx.shared.cases) {
      const dir = join(root, "inputs", c.name);
      mkdirSync(dir, { recursive: true });
      const input = join(dir, c.inputName);
      writeFileSync(input, c.input);
      jobs.push({
        case: c.name,
        inputName: c.inputName,
        input,
        oracle: c.oraclePath!,
        variant: "default",
        args: [],
        budgetMs: ctx.quick ? 10_000 : 20_000,
      });
    }
    const runs: CandidateTiming[] = [];
    let n = 0;
    for (const job of jobs) {
      // Alternating builds, the order rotating, so that the machine's load falls on both alike.
      const order = n++ % 2 === 0 ? builds : [...builds].reverse();
      for (const build of order) {
        const dir = join(root, "runs", `${job.case}-${job.variant.replace(/\W+/g, "")}-${build.name}`);
        mkdirSync(dir, { recursive: true });
        const events = join(dir, "events.jsonl");
        progress(`bigcand: ${job.case} ${job.variant} (${build.name})`);
        const run = await runWhittle(ctx, {
          section: "bigcand",
          caseName: job.case,
          variant: job.variant,
          label: `${job.variant} (${build.name})`,
          input: job.input,
          inputName: job.inputName,
          oracle: job.oracle,
          args: [...job.args, "--events", events],
          budgetMs: job.budgetMs,
          dir,
          main: build.main,
        });
        const lines = readFileSync(events, "utf8")
          .split("\n")
          .filter((l) => l !== "")
          .map((l) => JSON.parse(l) as EventLine);
        const inputBytes = readFileSync(job.input).length;
        runs.push({
          case: job.case,
          variant: job.variant,
          build: build.name,
          budgetMs: job.budgetMs,
          inputBytes,
          result: run.result,
          wallMs: run.wallMs,
          ...timingOf(lines, inputBytes),
        });
      }
    }
    return { builds: builds.map((b) => ({ name: b.name, commit: b.commit })), runs };
  },
  render(data: BigcandData): string {
    const opt = (v: number | null, digits = 1): string => (v === null ? "–" : fixed(v, digits));
    const rows = data.runs.map((r) => [
      r.case,
      r.variant,
      r.build,
      String(r.inputBytes),
      r.firstTestMs === null ? "–" : ms(r.firstTestMs),
      String(r.tests),
      String(r.syntaxSkips),
      opt(r.testsPerSecond),
      r.tests === 0 ? "–" : fixed(r.testMs / r.tests, 1),
      opt(r.ownMsPerTest),
      r.ownShare === null ? "–" : `${fixed(100 * r.ownShare, 0)} %`,
      String(r.bytesAt10s),
      String(r.bytesAt30s),
      String(r.bytesAtEnd),
      `${r.result} ${ms(r.wallMs)}`,
    ]);
    return [
      `Builds: ${data.builds.map((b) => `${b.name} ${b.commit}`).join(", ")}. \`-j 1\`, a 30 s limit per test, budgets 30 s (quick) or 60 s for the generated inputs (the 1.8 MB one: 120 s or 180 s) (oracle: \`grep -q MARKER\`), 10 s or 20 s for the shared cases (their oracle.sh). "own ms/test": whittle's wall time between the first test's start and the last test's end, minus the tests' time, per test; "own/test": that over the mean test's time (the goal: under 10 %).`,
      "",
      table(
        [
          "case",
          "variant",
          "build",
          "bytes",
          "1st test at",
          "tests",
          "skips",
          "tests/s",
          "ms/test",
          "own ms/test",
          "own/test",
          "bytes @10 s",
          "@30 s",
          "@end",
          "result, wall",
        ],
        rows,
      ),
    ].join("\n");
  },
};
