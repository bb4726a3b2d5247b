/**
 * The CLI's per-test timeout: adaptive by default, fixed by --timeout; the time spent in tests that
 * timed out is reported in the summary and in --stats.
 */
import assert from "node:assert/strict";
import { chmodSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { runWhittle, scratch } from "../helpers/cli.js";

interface Stats {
  tests: number;
  timeouts: number;
  timeoutMs: number;
  timeoutMode: string;
  timedOutRuns: number;
  timeoutTotalMs: number;
  retests: number;
  timeoutSkips: number;
  passes: Record<string, { timeouts: number; timeoutSkips: number }>;
}

/** A case whose candidates without "line 3" hang, as a candidate without a loop's increment would. */
function hangingCase(): { dir: string; input: string; oracle: string; tmp: string } {
  const dir = scratch();
  const input = join(dir, "in.txt");
  writeFileSync(input, Array.from({ length: 12 }, (_, i) => `line ${i}\n`).join("") + "KEEP\n");
  const oracle = join(dir, "hang.sh");
  writeFileSync(
    oracle,
    '#!/usr/bin/env bash\nif ! grep -q "line 3" "$1"; then exec sleep 1000; fi\ngrep -q KEEP "$1"\n',
  );
  chmodSync(oracle, 0o755);
  return { dir, input, oracle, tmp: scratch("whittle-tmproot-") };
}

test("without --timeout, candidates that hang cost well under the old 5 s floor each, and the summary and --stats say what they cost", async () => {
  const { dir, input, oracle, tmp } = hangingCase();
  const statsPath = join(dir, "stats.json");
  const run = await runWhittle([input, "--atom=line", "-j", "2", "--stats", statsPath, "--test", oracle], {
    env: { TMPDIR: tmp },
  });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(readFileSync(join(dir, "in.reduced.txt"), "utf8"), "line 3\nKEEP\n");
  const stats = JSON.parse(readFileSync(statsPath, "utf8")) as Stats;
  assert.equal(stats.timeoutMode, "adaptive");
  assert.ok(stats.timedOutRuns >= 3, `${stats.timedOutRuns} runs timed out`);
  assert.ok(stats.timeouts >= 1 && stats.timeouts <= stats.timedOutRuns);
  // The tests take milliseconds, so the limit stays near its floor (0.1–0.25 s with 2 jobs, by the
  // cores), far below the old 5 s: under the old default these runs alone would have taken at least
  // 5 s each.
  assert.ok(stats.timeoutMs >= 100 && stats.timeoutMs < 5000, `final limit ${stats.timeoutMs} ms`);
  assert.ok(
    stats.timeoutTotalMs >= 100 * stats.timedOutRuns && stats.timeoutTotalMs < 5000 * stats.timedOutRuns,
    `${stats.timedOutRuns} timeouts took ${stats.timeoutTotalMs} ms`,
  );
  assert.match(run.stderr, /timeout adaptive \(now [\d.]+ s\)/);
  assert.match(run.stderr, new RegExp(`, ${stats.timedOutRuns} timeouts \\([\\d.]+ s\\)`));
  assert.deepEqual(readdirSync(tmp), [], "no temporary directory is left behind");
});

test("--timeout fixes the limit: the adaptive policy is bypassed", async () => {
  const { dir, input, oracle, tmp } = hangingCase();
  const statsPath = join(dir, "stats.json");
  const run = await runWhittle(
    [input, "--quiet", "--atom=line", "-j", "2", "--timeout=0.4", "--stats", statsPath, "--test", oracle],
    { env: { TMPDIR: tmp } },
  );
  assert.equal(run.code, 0, run.stderr);
  const stats = JSON.parse(readFileSync(statsPath, "utf8")) as Stats;
  assert.equal(stats.timeoutMode, "fixed");
  assert.equal(stats.timeoutMs, 400);
  assert.equal(stats.retests, 0, "a fixed limit never rises");
  assert.ok(stats.timedOutRuns >= 2);
  assert.ok(stats.timeoutTotalMs >= 400 * stats.timedOutRuns);
});

test("a candidate that removes all a timed-out one removed is taken for a timeout untested; with --cache none every one runs", async () => {
  const { dir, input, oracle, tmp } = hangingCase();
  const run = async (
    cache: string,
  ): Promise<{ stats: Stats; stderr: string; result: string; skipEvents: number }> => {
    const statsPath = join(dir, `stats-${cache}.json`);
    const output = join(dir, `out-${cache}.txt`);
    const events = join(dir, `events-${cache}.jsonl`);
    const r = await runWhittle(
      [
        input,
        "--atom=line",
        "-j1",
        "--timeout=0.3",
        "--cache",
        cache,
        "--stats",
        statsPath,
        "--events",
        events,
        "-o",
        output,
        "--test",
        oracle,
      ],
      { env: { TMPDIR: tmp } },
    );
    assert.equal(r.code, 0, r.stderr);
    const stats = JSON.parse(readFileSync(statsPath, "utf8")) as Stats;
    const skipEvents = readFileSync(events, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; pass?: string })
      .filter((e) => e.type === "timeout-skip" && e.pass === "ddmin:line").length;
    return { stats, stderr: r.stderr, result: readFileSync(output, "utf8"), skipEvents };
  };
  const skipping = await run("content-hash");
  const all = await run("none");
  assert.equal(skipping.result, "line 3\nKEEP\n");
  assert.equal(all.result, skipping.result);
  assert.ok(skipping.stats.timeoutSkips > 0, "some candidates were taken for timeouts");
  assert.equal(skipping.stats.passes["ddmin:line"]?.timeoutSkips, skipping.stats.timeoutSkips);
  assert.equal(skipping.skipEvents, skipping.stats.timeoutSkips, "one timeout-skip event each");
  assert.equal(all.stats.timeoutSkips, 0);
  // Each skipped candidate would have timed out: run, they are timeouts.
  assert.ok(all.stats.timeouts >= skipping.stats.timeouts + skipping.stats.timeoutSkips);
  assert.match(skipping.stderr, new RegExp(`, ${skipping.stats.timeoutSkips} taken for timeouts untested`));
  assert.doesNotMatch(all.stderr, /taken for timeouts/);
  assert.deepEqual(readdirSync(tmp), [], "no temporary directory is left behind");
});
