/**
 * --max-time and --max-tests through the command line: a run they stop keeps its best result on
 * disk, says which limit stopped it and exits 4; bad values are usage errors; the summary's share
 * is never rounded to 100% for a result that is not empty; -V is --version.
 */
import assert from "node:assert/strict";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { parseDuration, parseTestCount } from "../../src/cli/limits.js";
import { EXIT } from "../../src/cli/exit.js";
import { FIXTURES, REPO, runWhittle, scratch } from "../helpers/cli.js";

const MOCK_INPUT = join(FIXTURES, "mock", "input-100.txt");
/** Example C's elements: a candidate is interesting iff it has all of them. */
const NEEDED = ["1", "2", "3", "4", "6", "8"];

/** Example C's oracle behind a script that logs each of its runs (one line each) to `log`. */
function countingOracle(): { dir: string; log: string; oracle: string } {
  const dir = scratch();
  const log = join(dir, "runs.log");
  const oracle = join(dir, "oracle.sh");
  writeFileSync(
    oracle,
    `#!/usr/bin/env bash\necho run >> '${log}'\nexec '${join(FIXTURES, "mock", "oracle-c.sh")}' "$1"\n`,
  );
  chmodSync(oracle, 0o755);
  writeFileSync(log, "");
  return { dir, log, oracle };
}

const runsIn = (log: string): number => readFileSync(log, "utf8").split("\n").filter(Boolean).length;

function assertInteresting(path: string): string {
  const lines = readFileSync(path, "utf8").split("\n");
  for (const x of NEEDED) assert.ok(lines.includes(x), `the result keeps ${x}`);
  return readFileSync(path, "utf8");
}

test("--max-tests 5 runs the test 5 times (the checks included), keeps the best result so far and exits 4", async () => {
  const { dir, log, oracle } = countingOracle();
  const output = join(dir, "out.txt");
  const stats = join(dir, "stats.json");
  const run = await runWhittle([
    MOCK_INPUT,
    "--atom=line",
    "-j",
    "1",
    "--timeout=60",
    "--max-tests",
    "5",
    "-o",
    output,
    "--stats",
    stats,
    "--test",
    oracle,
  ]);
  assert.equal(run.code, EXIT.limit, run.stderr);
  assert.equal(runsIn(log), 5, "one test at a time: exactly the limit");
  const result = assertInteresting(output);
  assert.ok(result.length < readFileSync(MOCK_INPUT).length, "an improvement was kept");
  assert.match(run.stderr, /stopped by --max-tests 5: \d+ B → \d+ B \([\d.]+% smaller\)/);
  assert.match(run.stderr, /Best result so far in /);
  const s = JSON.parse(readFileSync(stats, "utf8")) as Record<string, unknown>;
  assert.equal(s.result, "limit");
  assert.equal(s.limit, "--max-tests");
  assert.equal(s.outputBytes, result.length);
  // The initial check, the check of the empty input and three tests of the reduction.
  assert.equal((s.tests as number) + (s.checks as number), 5);
});

test("with -j 3, --max-tests runs the test at most that often", async () => {
  const { dir, log, oracle } = countingOracle();
  const output = join(dir, "out.txt");
  const run = await runWhittle([
    MOCK_INPUT,
    "--atom=line",
    "-j",
    "3",
    "--timeout=60",
    "--max-tests=7",
    "-o",
    output,
    "--test",
    oracle,
  ]);
  assert.equal(run.code, EXIT.limit, run.stderr);
  assert.ok(runsIn(log) <= 7, `${runsIn(log)} runs`);
  assertInteresting(output);
});

test("--max-tests 1 stops after the initial check: the output holds the original", async () => {
  const { dir, log, oracle } = countingOracle();
  const output = join(dir, "out.txt");
  const run = await runWhittle([MOCK_INPUT, "--max-tests", "1", "-o", output, "--test", oracle]);
  assert.equal(run.code, EXIT.limit, run.stderr);
  assert.equal(runsIn(log), 1);
  assert.deepEqual(readFileSync(output), readFileSync(MOCK_INPUT));
  assert.match(run.stderr, /stopped by --max-tests 1: /);
});

test("--max-time stops a run whose tests sleep near the limit, with the best result so far", async () => {
  const dir = scratch();
  const input = join(dir, "in.txt");
  writeFileSync(input, Array.from({ length: 40 }, (_, i) => `line ${i}\n`).join(""));
  const oracle = join(dir, "slow.sh");
  // The original is answered at once; every other candidate takes 30 s (far beyond the limit).
  writeFileSync(
    oracle,
    `#!/usr/bin/env bash\ncmp -s "$1" '${input}' && exit 0\nsleep 30\ngrep -q 'line 7' "$1"\n`,
  );
  chmodSync(oracle, 0o755);
  const output = join(dir, "out.txt");
  const started = Date.now();
  const run = await runWhittle([input, "--timeout=120", "--max-time", "2s", "-o", output, "--test", oracle]);
  const took = Date.now() - started;
  assert.equal(run.code, EXIT.limit, run.stderr);
  // 2 s of limit, plus Node's start and the cleanup: far from the 30 s of one test.
  assert.ok(took >= 2000 && took < 12_000, `took ${took} ms`);
  assert.deepEqual(readFileSync(output), readFileSync(input), "the original is the best so far");
  assert.match(run.stderr, /stopped by --max-time 2\.0 s: /);
});

test("--max-time and --max-tests refuse 0, negative and non-numeric values (exit 2), saying what they take", async () => {
  const cases: [string, string, RegExp][] = [
    ["--max-tests", "0", /must be a whole number of tests, at least 1/],
    ["--max-tests", "-1", /must be a whole number of tests, at least 1/],
    ["--max-tests", "abc", /must be a whole number of tests, at least 1/],
    ["--max-time", "0", /must be a duration greater than 0, such as 90s, 10m, 1h30m/],
    ["--max-time", "-1", /must be a duration greater than 0/],
    ["--max-time", "abc", /must be a duration greater than 0/],
  ];
  for (const [option, value, message] of cases) {
    const run = await runWhittle([MOCK_INPUT, option, value, "--test", "/bin/true"]);
    assert.equal(run.code, EXIT.usage, `${option} ${value}`);
    assert.match(run.stderr, new RegExp(`option '${option} <\\w+>' argument '${value}' is invalid`));
    assert.match(run.stderr, message);
  }
});

test("durations: h, m, s and ms, largest first, or bare seconds", () => {
  assert.equal(parseDuration("90s"), 90_000);
  assert.equal(parseDuration("10m"), 600_000);
  assert.equal(parseDuration("1h30m"), 5_400_000);
  assert.equal(parseDuration("1.5h"), 5_400_000);
  assert.equal(parseDuration("2m30s500ms"), 150_500);
  assert.equal(parseDuration("2"), 2000);
  for (const bad of ["", "0", "0s", "-1", "1x", "s", "30s1m", "1h1h", "1h 30m", "abc"]) {
    assert.throws(() => parseDuration(bad), /must be a duration/, bad);
  }
  assert.equal(parseTestCount("12"), 12);
  for (const bad of ["0", "-3", "1.5", "1e3", " ", "x"]) assert.throws(() => parseTestCount(bad), bad);
});

test("-V prints the version, as --version does", async () => {
  const version = (JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { version: string })
    .version;
  for (const flag of ["-V", "--version"]) {
    const run = await runWhittle([flag]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.toString().trim(), version);
  }
});

test("the summary of a 40-byte result of a 109 KiB input says 99.96% smaller, not 100.0%", async () => {
  const dir = scratch();
  const input = join(dir, "in.txt");
  const line = (i: number): string => `${i === 1500 ? "KEEP" : "line"} ${String(i).padStart(34, "0")}\n`;
  writeFileSync(input, Array.from({ length: 2788 }, (_, i) => line(i)).join(""));
  const oracle = join(dir, "keep.sh");
  writeFileSync(oracle, '#!/usr/bin/env bash\ngrep -q KEEP "$1"\n');
  chmodSync(oracle, 0o755);
  const run = await runWhittle([input, "--atom=line", "-o", join(dir, "out.txt"), "--test", oracle]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(readFileSync(join(dir, "out.txt"), "utf8"), line(1500));
  assert.match(run.stderr, /done: 108\.9 KiB → 40 B \(99\.96% smaller\)/);
});
