/**
 * --resume (issue 24): a run killed with SIGKILL at a random moment and resumed gives the same
 * result, byte for byte, as an uninterrupted run, and runs none of the tests its journal records
 * again; journals of another run, corrupt ones and torn last lines are handled as documented.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import { chmodSync, copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWhittle, scratch, type CliRun } from "../helpers/cli.js";

interface Case {
  dir: string;
  input: string;
  test: string;
  counter: string;
  output: string;
  journal: string;
  stats: string;
}

/** 60 lines, two of which the test needs; the test logs the SHA-256 of every candidate it runs. */
function makeCase(): Case {
  const dir = scratch("whittle-resume-");
  const input = join(dir, "in.txt");
  const lines = Array.from({ length: 60 }, (_, i) => `line ${i} filler ${(i * 7919) % 1000}`);
  lines[17] += " foo";
  lines[41] += " bar";
  writeFileSync(input, `${lines.join("\n")}\n`);
  const counter = join(dir, "count");
  const t = join(dir, "t.sh");
  writeFileSync(
    t,
    `#!/bin/sh\nsha256sum "$1" | cut -c1-64 >> '${counter}'\nsleep 0.01\ngrep -q foo "$1" && grep -q bar "$1"\n`,
  );
  chmodSync(t, 0o755);
  const output = join(dir, "out.txt");
  return {
    dir,
    input,
    test: t,
    counter,
    output,
    journal: `${output}.journal`,
    stats: join(dir, "stats.json"),
  };
}

/** The arguments of every run: one job, so that test counts are exact; a fixed timeout. */
function args(c: Case, ...more: string[]): string[] {
  return [
    c.input,
    "-o",
    c.output,
    "-j",
    "1",
    "--timeout",
    "20",
    "-q",
    "--stats",
    c.stats,
    ...more,
    "--test",
    c.test,
  ];
}

function sha256(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function lines(path: string): string[] {
  return existsSync(path) ? readFileSync(path, "utf8").split("\n").filter(Boolean) : [];
}

function testsOf(c: Case): number {
  return (JSON.parse(readFileSync(c.stats, "utf8")) as { tests: number }).tests;
}

/** The candidates' hashes a journal records (its header left out; a torn last line too). */
function journalled(path: string): string[] {
  if (!existsSync(path)) return [];
  const text = readFileSync(path, "utf8");
  return text
    .slice(0, text.lastIndexOf("\n"))
    .split("\n")
    .slice(1)
    .map((line) => line.split(" ")[0]!);
}

/**
 * Runs whittle and kills it with SIGKILL `thenMs` after the test ran `afterTests` times: a moment
 * counted in tests rather than in time from the start, so that a run faster than the uninterrupted
 * one (a machine getting quieter) is still killed before it ends.
 */
async function killed(c: Case, when: { afterTests: number; thenMs?: number }): Promise<CliRun> {
  let timer: NodeJS.Timeout | undefined;
  const run = await runWhittle(args(c), {
    onSpawn: (pid) => {
      timer = setInterval(() => {
        if (lines(c.counter).length < when.afterTests) return;
        clearInterval(timer);
        timer = setTimeout(() => process.kill(pid, "SIGKILL"), when.thenMs ?? 0);
      }, 5);
    },
  });
  clearInterval(timer);
  clearTimeout(timer);
  return run;
}

/** A small seeded generator (mulberry32), for reproducible random moments. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let once: Promise<{ result: Buffer; tests: number }> | undefined;

/** The uninterrupted run (made once): its result, its test count and how long it took. */
function uninterrupted(): Promise<{ result: Buffer; tests: number }> {
  once ??= runUninterrupted();
  return once;
}

async function runUninterrupted(): Promise<{ result: Buffer; tests: number }> {
  const c = makeCase();
  const run = await runWhittle(args(c));
  assert.equal(run.code, 0, run.stderr);
  assert.ok(!existsSync(c.journal), "a finished run leaves no journal");
  return { result: readFileSync(c.output), tests: testsOf(c) };
}

test("SIGKILL at 5 seeded random moments, then --resume: the result of an uninterrupted run, byte for byte, and no journalled candidate tested again", async () => {
  const full = await uninterrupted();
  assert.ok(full.tests > 40, `the mock reduction makes enough tests to be interrupted (${full.tests})`);
  const random = seeded(24);
  let withAnswers = 0;
  for (let trial = 0; trial < 5; trial++) {
    const c = makeCase();
    // A random moment: after a random share of the tests, and a random few milliseconds into the next.
    const afterTests = 1 + Math.floor((0.1 + 0.75 * random()) * full.tests);
    const thenMs = Math.floor(25 * random());
    const first = await killed(c, { afterTests, thenMs });
    const what = `trial ${trial}, SIGKILL ${thenMs} ms after test ${afterTests} of ${full.tests}`;
    assert.equal(first.signal, "SIGKILL", `${what}: killed before it ended (${first.stderr})`);
    const recorded = journalled(c.journal);
    if (recorded.length > 0) withAnswers++;
    // The result on disk is an interesting one: the input or an improvement.
    if (existsSync(c.output)) assert.match(readFileSync(c.output, "utf8"), /foo[^]*bar/, what);
    rmSync(c.counter, { force: true });

    const resumed = await runWhittle(args(c, "--resume"));
    assert.equal(resumed.code, 0, `${what}: ${resumed.stderr}`);
    assert.deepEqual(readFileSync(c.output), full.result, `${what}: the same result`);
    assert.equal(
      testsOf(c),
      full.tests - recorded.length,
      `${what}: the resumed run's tests and the ${recorded.length} journalled make the uninterrupted run's`,
    );
    // The final re-test runs the result once more on purpose, whatever the journal holds: it is the
    // last test, and the only one allowed to repeat a journalled candidate.
    const ran = lines(c.counter);
    assert.equal(
      ran.at(-1),
      sha256(full.result),
      `${what}: the last test is the final re-test of the result`,
    );
    const ranAgain = ran.slice(0, -1).filter((hash) => recorded.includes(hash));
    assert.deepEqual(ranAgain, [], `${what}: no journalled candidate ran again`);
    assert.ok(!existsSync(c.journal), `${what}: the finished run removed its journal`);
  }
  assert.ok(withAnswers >= 3, `at least 3 of the 5 kills came after tests were journalled (${withAnswers})`);
});

test("a resumed run killed again, and resumed once more, still ends with the uninterrupted result", async () => {
  const full = await uninterrupted();
  const c = makeCase();
  await killed(c, { afterTests: 12 });
  const once = journalled(c.journal).length;
  assert.ok(once >= 8, `answers journalled before the first kill (${once})`);
  rmSync(c.counter);
  const second = await runWhittle(args(c, "--resume"), {
    onSpawn: (pid) => {
      const timer = setInterval(() => {
        if (lines(c.counter).length >= 15) {
          clearInterval(timer);
          process.kill(pid, "SIGKILL");
        }
      }, 5);
    },
  });
  assert.equal(second.signal, "SIGKILL", second.stderr);
  const twice = journalled(c.journal);
  assert.ok(twice.length > once + 8, `the resumed run appended its answers (${once} → ${twice.length})`);
  rmSync(c.counter);
  const third = await runWhittle(args(c, "--resume"));
  assert.equal(third.code, 0, third.stderr);
  assert.deepEqual(readFileSync(c.output), full.result);
  assert.equal(testsOf(c), full.tests - twice.length);
});

/** A case with a journal of 10 or more answers, left by a run killed after its 12th test. */
async function caseWithJournal(): Promise<Case> {
  const c = makeCase();
  await killed(c, { afterTests: 12 });
  assert.ok(journalled(c.journal).length >= 8, "answers were journalled");
  return c;
}

test("a journal of another test command, input or options is refused with exit 2, naming what differs, and left as it is", async () => {
  const c = await caseWithJournal();
  const before = readFileSync(c.journal);
  const other = join(c.dir, "t2.sh");
  copyFileSync(c.test, other);
  chmodSync(other, 0o755);
  const command = await runWhittle([...args(c, "--resume").slice(0, -2), "--test", other]);
  assert.equal(command.code, 2);
  assert.match(
    command.stderr,
    /cannot resume: the journal .*out\.txt\.journal was written for another test command \(the journal's: .*t\.sh; now: .*t2\.sh\)/,
  );

  const option = await runWhittle(args(c, "--resume", "--split-factor", "3"));
  assert.equal(option.code, 2);
  assert.match(option.stderr, /other options: --split-factor \(the journal's: 2; now: 3\)/);

  const timeout = await runWhittle(args(c, "--resume", "--timeout", "30"));
  assert.equal(timeout.code, 2);
  assert.match(timeout.stderr, /another --timeout \(the journal's: 20000 ms; now: 30000 ms\)/);

  writeFileSync(c.input, `${readFileSync(c.input, "utf8")}one more line\n`);
  const input = await runWhittle(args(c, "--resume"));
  assert.equal(input.code, 2);
  assert.match(
    input.stderr,
    /was written for another input: the bytes of the input are not those it was written for/,
  );
  assert.deepEqual(readFileSync(c.journal), before, "the journal is untouched");
});

test("a corrupt journal is refused with exit 2 and the line that is wrong; a bad header too", async () => {
  const c = await caseWithJournal();
  const text = readFileSync(c.journal, "utf8").split("\n");
  text[2] = "this is not an answer";
  writeFileSync(c.journal, text.join("\n"));
  const middle = await runWhittle(args(c, "--resume"));
  assert.equal(middle.code, 2);
  assert.match(
    middle.stderr,
    /the journal .* is corrupt at line 3: expected a SHA-256 in hex, a space and an outcome .*, found "this is not an answer"/,
  );

  writeFileSync(c.journal, "hello\n");
  const header = await runWhittle(args(c, "--resume"));
  assert.equal(header.code, 2);
  assert.match(header.stderr, /does not start with a journal header \(not a journal of whittle\)/);
  // Without --resume, a file there that is no journal is not overwritten either.
  const fresh = await runWhittle(args(c));
  assert.equal(fresh.code, 2);
  assert.match(fresh.stderr, /exists and is not a journal of whittle/);
  assert.equal(readFileSync(c.journal, "utf8"), "hello\n");
});

test("a torn last line is ignored: the resumed run tests its candidate and ends with the uninterrupted result", async () => {
  const full = await uninterrupted();
  const c = await caseWithJournal();
  const recorded = journalled(c.journal);
  const text = readFileSync(c.journal, "utf8");
  const [last] = text.slice(0, -1).split("\n").slice(-1);
  // The last answer, cut in the middle of its hash: as if the kill came while it was written.
  writeFileSync(c.journal, `${text.slice(0, text.length - last!.length - 1)}${last!.slice(0, 30)}`);
  rmSync(c.counter);
  const resumed = await runWhittle(args(c, "--resume").filter((a) => a !== "-q"));
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.match(
    resumed.stderr,
    /resuming from the journal .*: \d+ answers of earlier tests \(its torn last line is ignored\)/,
  );
  assert.deepEqual(readFileSync(c.output), full.result);
  assert.equal(testsOf(c), full.tests - (recorded.length - 1));
  assert.ok(lines(c.counter).includes(recorded.at(-1)!), "the torn answer's candidate was tested");
});

test("without --resume an earlier journal is overwritten (said), and --resume without a journal starts from the beginning", async () => {
  const full = await uninterrupted();
  const c = await caseWithJournal();
  const fresh = await runWhittle(args(c).filter((a) => a !== "-q"));
  assert.equal(fresh.code, 0, fresh.stderr);
  assert.match(
    fresh.stderr,
    /overwriting the journal .*out\.txt\.journal of an earlier run \(--resume would have continued it\)/,
  );
  assert.equal(testsOf(c), full.tests);
  assert.ok(!existsSync(c.journal));
  const again = await runWhittle(args(c, "--resume").filter((a) => a !== "-q"));
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stderr, /no journal .*: nothing to resume, reducing from the start/);
  assert.deepEqual(readFileSync(c.output), full.result);
});

test("--resume needs a result file: refused with stdout or --in-place (exit 2)", async () => {
  const c = makeCase();
  const stdout = await runWhittle([c.input, "-o", "-", "--resume", "--test", c.test]);
  assert.equal(stdout.code, 2);
  assert.match(stdout.stderr, /--resume needs the result in a regular file \(-o FILE\)/);
  const inPlace = await runWhittle([c.input, "--in-place", "--resume", "--test", c.test]);
  assert.equal(inPlace.code, 2);
  assert.match(inPlace.stderr, /--resume cannot be combined with --in-place/);
  assert.ok(!existsSync(`${c.input}.orig`), "no backup was made");
});

test("the default JSON pipeline with -j 2, killed and resumed: the uninterrupted result, no journalled candidate tested again", async () => {
  const dir = scratch("whittle-resume-json-");
  const input = join(dir, "in.json");
  writeFileSync(
    input,
    '{"name": "whittle", "items": [1, 2, 3, {"deep": [4, 5, 6, "needle", 7]}, 8, 9],\n' +
      ' "other": {"a": [10, 11, 12], "b": "text here", "c": [true, false, null]},\n' +
      ' "more": [{"x": 1, "y": 2}, {"x": 3, "y": 4, "z": "needle2"}], "tail": "end"}\n',
  );
  const counter = join(dir, "count");
  const t = join(dir, "t.sh");
  writeFileSync(
    t,
    `#!/bin/sh\nsha256sum "$1" | cut -c1-64 >> '${counter}'\ngrep -q '"needle"' "$1" && grep -q needle2 "$1"\n`,
  );
  chmodSync(t, 0o755);
  const output = join(dir, "out.json");
  const c: Case = {
    dir,
    input,
    test: t,
    counter,
    output,
    journal: `${output}.journal`,
    stats: join(dir, "stats.json"),
  };
  const json = (...more: string[]): string[] =>
    args(c, ...more).map((a, i, all) => (all[i - 1] === "-j" ? "2" : a));

  const full = await runWhittle(json());
  assert.equal(full.code, 0, full.stderr);
  const expected = readFileSync(output);
  rmSync(output);
  rmSync(counter);
  let timer: NodeJS.Timeout | undefined;
  const first = await runWhittle(json(), {
    onSpawn: (pid) => {
      timer = setInterval(() => {
        if (lines(counter).length >= 30) {
          clearInterval(timer);
          process.kill(pid, "SIGKILL");
        }
      }, 5);
    },
  });
  clearInterval(timer);
  assert.equal(first.signal, "SIGKILL", first.stderr);
  const recorded = journalled(c.journal);
  assert.ok(recorded.length >= 20, `answers journalled (${recorded.length})`);
  rmSync(counter);
  const resumed = await runWhittle(json("--resume"));
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.deepEqual(readFileSync(output), expected);
  const ran = lines(counter);
  assert.equal(ran.at(-1), sha256(expected), "the last test is the final re-test of the result");
  assert.deepEqual(
    ran.slice(0, -1).filter((hash) => recorded.includes(hash)),
    [],
  );
});
