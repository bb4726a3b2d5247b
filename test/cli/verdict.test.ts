/**
 * Flaky and declarative tests through the real CLI: --repeat/--need, the final re-test of the
 * result, --expect-exit, --expect-signal, --expect-stdout, --expect-stderr and --same-failure.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { runWhittle, scratch } from "../helpers/cli.js";

/** A scratch directory with `in.txt` holding `input` and an executable `test.sh` with `body`. */
function setup(input: string, body: string): { dir: string; input: string; script: string; tmp: string } {
  const dir = scratch();
  writeFileSync(join(dir, "in.txt"), input);
  const script = join(dir, "test.sh");
  writeFileSync(script, `#!/usr/bin/env bash\nulimit -c 0\n${body}\n`);
  chmodSync(script, 0o755);
  return { dir, input: join(dir, "in.txt"), script, tmp: scratch("whittle-tmproot-") };
}

const INPUT = "one\nctx\ntwo\nBUG\nthree\nfour\n";

/** Counts its runs in $COUNTER: shows the bug (exit 0) on every third run only. */
const ONE_IN_THREE = [
  'n=$(( $(cat "$COUNTER" 2>/dev/null || echo 0) + 1 ))',
  'echo "$n" > "$COUNTER"',
  'grep -q BUG "$1" || exit 1',
  "(( n % 3 == 0 ))",
].join("\n");

test("a test that shows the failure on one run in three reduces to the right result with --repeat 6 --need 1", async () => {
  const { dir, input, script, tmp } = setup(INPUT, ONE_IN_THREE);
  const counter = join(dir, "counter");
  const run = await runWhittle(
    [
      input,
      "--atom=line",
      "-j",
      "1",
      "--repeat",
      "6",
      "--need",
      "1",
      "--stats",
      join(dir, "stats.json"),
      "--test",
      script,
    ],
    {
      env: { TMPDIR: tmp, COUNTER: counter },
    },
  );
  assert.equal(run.code, 0, run.stderr);
  assert.equal(readFileSync(join(dir, "in.reduced.txt"), "utf8"), "BUG\n");
  assert.match(run.stderr, /each candidate interesting when 1 of up to 6 runs are/);
  // Every candidate with BUG that was not interesting at its first run disagreed with itself.
  const disagreed =
    /--repeat 6 --need 1: (\d+) extra runs; the runs of (\d+) candidates? disagreed \(the test is flaky\)/.exec(
      run.stderr,
    );
  assert.ok(disagreed, run.stderr);
  assert.ok(Number(disagreed[2]) >= 1);
  assert.doesNotMatch(run.stderr, /NOT REPEATABLE/);
  // --stats records the same figures, and the final re-test that confirmed the result.
  const stats = readStats(dir);
  assert.deepEqual(
    [stats.repeat, stats.need, stats.extraRuns, stats.disagreements],
    [6, 1, Number(disagreed[1]), Number(disagreed[2])],
  );
  assert.deepEqual(stats.finalCheck, { repeatable: true, delivered: "result", bytes: 4, early: false });
  assert.deepEqual(readdirSync(tmp), []);
});

test("the same flaky test without --repeat: the original is checked once and found not interesting", async () => {
  const { dir, input, script } = setup(INPUT, ONE_IN_THREE);
  const run = await runWhittle([input, "--atom=line", "--test", script], {
    env: { COUNTER: join(dir, "counter") },
  });
  assert.equal(run.code, 3, run.stderr);
  assert.equal(readFileSync(join(dir, "counter"), "utf8"), "1\n");
});

/** The --stats file a test wrote to stats.json in `dir`. */
function readStats(dir: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(dir, "stats.json"), "utf8")) as Record<string, unknown>;
}

test("--need K > --repeat M is a usage error", async () => {
  const { input, script } = setup(INPUT, "exit 0");
  const run = await runWhittle([input, "--repeat", "2", "--need", "3", "--test", script]);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /--need 3 is more than --repeat 2/);
});

/** Interesting (when it has BUG) only the first time it sees a content: not repeatable at all. */
function firstTimeOnly(seen: string, smallerThan = Infinity): string {
  return [
    `size=$(wc -c < "$1")`,
    `h=$(sha256sum < "$1" | cut -c1-16)`,
    // Below the size, a content seen before is not interesting any more.
    `if (( size < ${Number.isFinite(smallerThan) ? smallerThan : 1_000_000_000} )) && [ -e "${seen}/$h" ]; then exit 1; fi`,
    `touch "${seen}/$h"`,
    'grep -q BUG "$1"',
  ].join("\n");
}

test("without --repeat, a test that is not repeatable is reported at the final re-test, and the output holds the original", async () => {
  const dir0 = scratch();
  const seen = join(dir0, "seen");
  mkdirSync(seen);
  const { dir, input, script } = setup(INPUT, firstTimeOnly(seen));
  const run = await runWhittle([input, "--atom=line", "--stats", join(dir, "stats.json"), "--test", script]);
  assert.equal(run.code, 1, run.stderr);
  assert.match(
    run.stderr,
    /WARNING: THE TEST IS NOT REPEATABLE: the result \(4 B\) was interesting when it was found, but not/,
  );
  assert.ok(
    run.stderr.includes(
      `no earlier result was interesting again: the output holds the original (${INPUT.length} B)`,
    ),
    run.stderr,
  );
  assert.match(run.stderr, /--repeat M --need K/);
  // The last result that was confirmed: the original, checked at the start.
  assert.equal(readFileSync(join(dir, "in.reduced.txt"), "utf8"), INPUT);
  assert.equal(readFileSync(input, "utf8"), INPUT);
  const stats = readStats(dir);
  // Made alone after the reduction: an early re-test that was not interesting is not taken.
  assert.deepEqual(stats.finalCheck, {
    repeatable: false,
    delivered: "original",
    bytes: INPUT.length,
    early: false,
  });
  assert.deepEqual([stats.repeat, stats.need, stats.outputBytes], [1, 1, INPUT.length]);
});

test("when only the smallest results are not repeatable, the output holds the newest earlier result that is", async () => {
  const dir0 = scratch();
  const seen = join(dir0, "seen");
  mkdirSync(seen);
  const { dir, input, script } = setup(INPUT, firstTimeOnly(seen, 12));
  const run = await runWhittle([input, "--atom=line", "--stats", join(dir, "stats.json"), "--test", script]);
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stderr, /THE TEST IS NOT REPEATABLE/);
  const match = /an earlier result \((\d+) B\) was interesting again: the output holds it/.exec(run.stderr);
  assert.ok(match, run.stderr);
  const output = readFileSync(join(dir, "in.reduced.txt"), "utf8");
  assert.equal(output.length, Number(match[1]));
  assert.ok(output.length >= 12 && output.length < INPUT.length, output);
  assert.match(output, /BUG/);
  assert.deepEqual(readStats(dir).finalCheck, {
    repeatable: false,
    delivered: "earlier",
    bytes: output.length,
    early: false,
  });
});

test("with -j 8 the final re-test is made during the reduction, in a slot no test wants", async () => {
  // Each run is logged by its content's hash; a run takes 0.2 s, so the char pass's rounds after the
  // last improvement leave slots idle long enough.
  const { dir, input, script } = setup(
    INPUT,
    ['echo "$(sha256sum < "$1" | cut -c1-16)" >> "$LOG"', "sleep 0.2", 'grep -q BUG "$1"'].join("\n"),
  );
  const log = join(dir, "runs.log");
  const run = await runWhittle([input, "-j", "8", "--stats", join(dir, "stats.json"), "--test", script], {
    env: { LOG: log },
  });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(readFileSync(join(dir, "in.reduced.txt"), "utf8"), "BUG");
  assert.deepEqual(readStats(dir).finalCheck, {
    repeatable: true,
    delivered: "result",
    bytes: 3,
    early: true,
  });
  // The result ran at least twice: when it was found, and its re-test.
  const hash = createHash("sha256").update("BUG").digest("hex").slice(0, 16);
  const runs = readFileSync(log, "utf8")
    .split("\n")
    .filter((line) => line === hash).length;
  assert.ok(runs >= 2, readFileSync(log, "utf8"));
});

/** Crashes on BUG: with the message of the original when ctx is there too, with another one when not. */
const CRASHES = [
  'if grep -q BUG "$1"; then',
  '  if grep -q ctx "$1"; then',
  '    echo "==$$==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x60200000$RANDOM at pc 0x55$RANDOM" >&2',
  "  else",
  '    echo "==$$==ERROR: AddressSanitizer: stack-overflow on address 0x7ffc$RANDOM" >&2',
  "  fi",
  '  echo "    #0 0x4f$RANDOM in parse $PWD/parser.c:$RANDOM:7" >&2',
  "  kill -SEGV $$",
  "fi",
  'echo "Error: nothing to parse" >&2',
  "exit 1",
].join("\n");

test("--same-failure records the original's crash and rejects a candidate that crashes differently", async () => {
  const { dir, input, script } = setup(INPUT, CRASHES);
  const run = await runWhittle([input, "--atom=line", "--same-failure", "--test", script]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stderr,
    /recorded the original's failure: signal SIGSEGV \(status 139\), first error line "==N==ERROR: AddressSanitizer: heap-buffer-overflow on address <hex> at pc <hex>"/,
  );
  // "BUG" alone crashes too, but with a stack overflow: not the same failure, so ctx stays.
  assert.equal(readFileSync(join(dir, "in.reduced.txt"), "utf8"), "ctx\nBUG\n");
});

test("--same-failure on an original that does not fail: not interesting, and why", async () => {
  const { input, script } = setup(INPUT, "exit 0");
  const run = await runWhittle([input, "--same-failure", "--test", script]);
  assert.equal(run.code, 3, run.stderr);
  assert.match(run.stderr, /--same-failure needs the test to fail on the original/);
});

test("--expect-exit 3: a test that exits 3 on the failure, 0 or 1 otherwise", async () => {
  const { dir, input, script } = setup(
    INPUT,
    'grep -q BUG "$1" && exit 3\ngrep -q one "$1" && exit 0\nexit 1',
  );
  const run = await runWhittle([input, "--atom=line", "--expect-exit", "3", "--test", script]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(readFileSync(join(dir, "in.reduced.txt"), "utf8"), "BUG\n");
  assert.match(run.stderr, /interesting: exit 3/);
});

test("--expect-exit on an original that exits otherwise names what was expected", async () => {
  const { input, script } = setup(INPUT, "exit 0");
  const run = await runWhittle([input, "--expect-exit", "3", "--test", script]);
  assert.equal(run.code, 3, run.stderr);
  assert.match(run.stderr, /the test exited with code 0; expected exit 3\./);
});

test("--expect-stderr: the command's exit status is no longer the verdict, its stderr is", async () => {
  const { dir, input, script } = setup(
    INPUT,
    'grep -q BUG "$1" && echo "fatal: widget overflow at line $RANDOM" >&2\necho "fatal: widget overflow" \nexit 0',
  );
  const run = await runWhittle([
    input,
    "--atom=line",
    "--expect-stderr",
    "^fatal: widget overflow at line \\d+$",
    "--test",
    script,
  ]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(readFileSync(join(dir, "in.reduced.txt"), "utf8"), "BUG\n");
});

test("--expect-signal by number and --expect-stdout together: both must hold", async () => {
  const { dir, input, script } = setup(
    INPUT,
    'grep -q ctx "$1" && echo "parsing ctx"\ngrep -q BUG "$1" && kill -SEGV $$\nexit 0',
  );
  const run = await runWhittle([
    input,
    "--atom=line",
    "--expect-signal",
    "11",
    "--expect-stdout",
    "ctx",
    "--test",
    script,
  ]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(readFileSync(join(dir, "in.reduced.txt"), "utf8"), "ctx\nBUG\n");
  assert.match(run.stderr, /interesting: signal SIGSEGV, stdout matching \/ctx\/m/);
});

test("a bad regular expression, signal or exit status is a usage error (exit 2)", async () => {
  const { input, script } = setup(INPUT, "exit 0");
  for (const [args, message] of [
    [["--expect-stderr", "(unclosed"], /--expect-stderr.*is not a valid regular expression/],
    [["--expect-stdout", "a**"], /--expect-stdout.*is not a valid regular expression/],
    [["--expect-signal", "SIGNOPE"], /--expect-signal.*must be a signal name/],
    [["--expect-exit", "256"], /--expect-exit.*must be a whole number from 0 to 255/],
    [["--repeat", "0"], /--repeat.*must be a whole number from 1/],
  ] as const) {
    const run = await runWhittle([input, ...args, "--test", script]);
    assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
    assert.match(run.stderr, message);
  }
});
