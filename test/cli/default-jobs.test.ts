/**
 * The command's default -j: every core, or one test at a time when the check of the original shows
 * a test too quick for parallel tests to pay (reduce/default-jobs.ts). --stats records the jobs used.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, chmodSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { defaultJobs, QUICK_TEST_MS } from "../../src/reduce/default-jobs.js";
import { runWhittle, scratch } from "../helpers/cli.js";

test("a test quicker than QUICK_TEST_MS runs one at a time; a slower one on every core", () => {
  assert.deepEqual(defaultJobs(QUICK_TEST_MS - 1, 4), { jobs: 1, quickMs: QUICK_TEST_MS - 1 });
  assert.deepEqual(defaultJobs(12, 2), { jobs: 1, quickMs: 12 });
  assert.deepEqual(defaultJobs(QUICK_TEST_MS, 4), { jobs: 4 });
  assert.deepEqual(defaultJobs(800, 8), { jobs: 8 });
  // One core: one job, and nothing to explain.
  assert.deepEqual(defaultJobs(5, 1), { jobs: 1 });
});

/** Reduces "keep\nx\ny\n" with a test that sleeps `sleep` seconds; returns stderr and the stats. */
async function reduceWith(
  sleep: number,
  extra: string[] = [],
): Promise<{ stderr: string; jobs: unknown; checkMs: number }> {
  const dir = scratch();
  writeFileSync(join(dir, "in.txt"), "keep\nx\ny\n");
  const script = join(dir, "t.sh");
  writeFileSync(script, `#!/bin/sh\n${sleep > 0 ? `sleep ${sleep}\n` : ""}grep -q keep "$1"\n`);
  chmodSync(script, 0o755);
  const run = await runWhittle(["in.txt", "-o", "out.txt", "--stats", "s.json", ...extra, "--test", script], {
    cwd: dir,
  });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(readFileSync(join(dir, "out.txt"), "utf8"), "keep");
  const stats = JSON.parse(readFileSync(join(dir, "s.json"), "utf8")) as {
    jobs: unknown;
    initialCheckMs: number;
  };
  return { stderr: run.stderr, jobs: stats.jobs, checkMs: stats.initialCheckMs };
}

const QUICK_MESSAGE =
  /; one test at a time \(a test this quick gains nothing from \d+ at once; -j \d+ runs \d+\)/;

test("without -j, a quick test runs one at a time, and whittle says why", async (t) => {
  // A grep's check takes a few ms on an idle machine, but more than QUICK_TEST_MS on one the rest of
  // the suite keeps busy: up to three tries for a quick check, each run held to the rule by the
  // duration its --stats records (rounded to the ms: within 1 ms of the threshold either is right).
  const cpus = availableParallelism();
  for (let attempt = 1; attempt <= 3; attempt++) {
    const { stderr, jobs, checkMs } = await reduceWith(0);
    if (checkMs <= QUICK_TEST_MS - 1) {
      assert.equal(jobs, 1);
      if (cpus > 1) assert.match(stderr, QUICK_MESSAGE);
      return;
    }
    if (checkMs >= QUICK_TEST_MS + 1) {
      assert.equal(jobs, cpus);
      assert.doesNotMatch(stderr, QUICK_MESSAGE);
    }
    t.diagnostic(`try ${attempt}: the check took ${checkMs} ms (a busy machine), ${String(jobs)} jobs`);
  }
  t.skip(
    "the check of a grep took QUICK_TEST_MS or more three times: the machine is too busy to see the quick case",
  );
});

test("without -j, a test that takes longer runs on every core", async () => {
  const { stderr, jobs } = await reduceWith((QUICK_TEST_MS * 3) / 1000);
  assert.equal(jobs, availableParallelism());
  assert.doesNotMatch(stderr, QUICK_MESSAGE);
});

test("-j is what the user gives, however quick the test", async () => {
  const { stderr, jobs } = await reduceWith(0, ["-j", "2"]);
  assert.equal(jobs, 2);
  assert.doesNotMatch(stderr, QUICK_MESSAGE);
});
