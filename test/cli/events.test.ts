/**
 * --events (issue 24): every event of a run as JSON lines, through the real command. Each line
 * parses, the start comes first and the end last, the tests are those --stats counts, the file
 * follows the run live, and the files whittle keeps are never its target.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { EventRecord } from "../../src/cli/events-file.js";
import { FIXTURES, runWhittle, scratch } from "../helpers/cli.js";

/** Every line of an events file (or stdout), parsed; each must be a JSON object with v and t. */
function parseEvents(text: string): EventRecord[] {
  assert.ok(text.endsWith("\n"), "the last line is complete");
  return text
    .slice(0, -1)
    .split("\n")
    .map((line) => {
      const record = JSON.parse(line) as EventRecord;
      assert.equal(record.v, 1, line);
      assert.equal(typeof record.t, "number", line);
      return record;
    });
}

function ofType<T extends EventRecord["type"]>(
  events: EventRecord[],
  type: T,
): Extract<EventRecord, { type: T }>[] {
  return events.filter((e): e is Extract<EventRecord, { type: T }> => e.type === type);
}

/** The common checks: start first, end last, times in order, each test's start before its end. */
function checkShape(events: EventRecord[]): void {
  assert.equal(events[0]!.type, "start");
  assert.equal(events.at(-1)!.type, "end");
  assert.equal(ofType(events, "start").length, 1);
  assert.equal(ofType(events, "end").length, 1);
  for (let i = 1; i < events.length; i++) assert.ok(events[i]!.t >= events[i - 1]!.t, "times never go back");
  const open = new Set<number>();
  for (const e of events) {
    if (e.type === "test-start") open.add(e.id);
    if (e.type === "test-end") {
      assert.ok(open.delete(e.id), `test ${e.id} ended after it started`);
      assert.ok(e.ms >= 0);
    }
  }
  assert.equal(open.size, 0, "every test that started ended");
}

function mockArgs(dir: string): string[] {
  return [
    join(FIXTURES, "mock", "input-8.txt"),
    "--atom=line",
    "-j1",
    "--timeout=60",
    "-o",
    join(dir, "out.txt"),
    "--stats",
    join(dir, "stats.json"),
    "--test",
    join(FIXTURES, "mock", "oracle-a.sh"),
  ];
}

test("--events FILE: one JSON line per event, start first and end last, as many tests as --stats counts, improvements ever smaller", async () => {
  const dir = scratch();
  const file = join(dir, "events.jsonl");
  const run = await runWhittle([...mockArgs(dir), "--events", file]);
  assert.equal(run.code, 0, run.stderr);
  const events = parseEvents(readFileSync(file, "utf8"));
  checkShape(events);
  const stats = JSON.parse(readFileSync(join(dir, "stats.json"), "utf8")) as {
    tests: number;
    cacheHits: number;
    outputBytes: number;
  };
  const start = ofType(events, "start")[0]!;
  assert.equal(start.input, join(FIXTURES, "mock", "input-8.txt"));
  assert.equal(start.size, readFileSync(join(FIXTURES, "mock", "input-8.txt")).length);
  assert.deepEqual(start.options["pipeline"], ["ddmin:line"]);
  assert.equal((start.options["reduce"] as Record<string, unknown>)["jobs"], 1);
  assert.ok(stats.tests > 0);
  assert.equal(ofType(events, "test-start").length, stats.tests);
  assert.equal(ofType(events, "test-end").length, stats.tests);
  assert.equal(ofType(events, "cache-hit").length, stats.cacheHits);
  const check = ofType(events, "check");
  assert.deepEqual(
    check.map((c) => [c.what, c.outcome]),
    [
      ["original", "interesting"],
      ["empty", "not-interesting"],
    ],
  );
  const sizes = ofType(events, "improved").map((e) => e.size);
  assert.ok(sizes.length > 0);
  for (let i = 1; i < sizes.length; i++)
    assert.ok(sizes[i]! < sizes[i - 1]!, `improvements shrink: ${sizes.join(", ")}`);
  assert.equal(sizes.at(-1), stats.outputBytes);
  assert.ok(!("content" in ofType(events, "improved")[0]!), "no content in the file");
  assert.deepEqual(
    ofType(events, "pass").map((p) => p.pass),
    ofType(events, "pass-end").map((p) => p.pass),
  );
  const end = ofType(events, "end")[0]!;
  assert.deepEqual(
    { outcome: end.outcome, exit: end.exit, size: end.size, tests: end.tests },
    { outcome: "done", exit: 0, size: stats.outputBytes, tests: stats.tests },
  );
  // An events file from an earlier run is written over.
  const again = await runWhittle([...mockArgs(dir), "--events", file]);
  assert.equal(again.code, 0, again.stderr);
  checkShape(parseEvents(readFileSync(file, "utf8")));
});

test("--events -: stdout carries the events and nothing else, the messages stay on stderr", async () => {
  const dir = scratch();
  const run = await runWhittle([...mockArgs(dir), "--events", "-", "--verbose"]);
  assert.equal(run.code, 0, run.stderr);
  const events = parseEvents(run.stdout.toString("utf8"));
  checkShape(events);
  assert.match(run.stderr, /done: /);
  const stats = JSON.parse(readFileSync(join(dir, "stats.json"), "utf8")) as { tests: number };
  assert.equal(ofType(events, "test-start").length, stats.tests);
});

test("--events with a language: tree levels and the syntax filter's counters", async () => {
  const dir = scratch();
  const input = join(dir, "in.js");
  writeFileSync(input, "function f(a, b) {\n  let x = a + b;\n  return g(x);\n}\nf(1, 2);\n");
  const oracle = join(dir, "t.sh");
  writeFileSync(oracle, '#!/bin/sh\ngrep -q "g(" "$1"\n');
  chmodSync(oracle, 0o755);
  const file = join(dir, "e.jsonl");
  const run = await runWhittle([input, "-j1", "--timeout=60", "-q", "--events", file, "--test", oracle]);
  assert.equal(run.code, 0, run.stderr);
  const events = parseEvents(readFileSync(file, "utf8"));
  checkShape(events);
  assert.equal(ofType(events, "start")[0]!.options["language"], "javascript");
  assert.ok(ofType(events, "level").length > 0, "tree levels are events");
  const syntax = ofType(events, "syntax-stats");
  assert.equal(syntax.length, 1);
  assert.equal(syntax[0]!.skips, ofType(events, "syntax-skip").length);
  assert.ok(syntax[0]!.checks >= syntax[0]!.skips);
});

test("--events is written as the run goes: read while it runs, then an end line after Ctrl-C", async () => {
  const dir = scratch();
  const input = join(dir, "in.txt");
  writeFileSync(input, Array.from({ length: 40 }, (_, i) => (i === 17 ? "KEEP\n" : `line ${i}\n`)).join(""));
  const oracle = join(dir, "slow.sh");
  writeFileSync(oracle, '#!/bin/sh\nsleep 0.1\ngrep -q KEEP "$1"\n');
  chmodSync(oracle, 0o755);
  const file = join(dir, "e.jsonl");
  let pid = 0;
  const running = runWhittle(
    [input, "-j1", "--timeout=60", "-o", join(dir, "out.txt"), "--events", file, "--test", oracle],
    {
      onSpawn: (p) => (pid = p),
    },
  );
  let seen: EventRecord[] = [];
  for (let i = 0; i < 200 && !seen.some((e) => e.type === "test-end"); i++) {
    await sleep(50);
    if (!existsSync(file)) continue;
    const text = readFileSync(file, "utf8");
    const complete = text.slice(0, text.lastIndexOf("\n") + 1);
    if (complete !== "") seen = parseEvents(complete);
  }
  assert.ok(
    seen.some((e) => e.type === "test-end"),
    "a finished test is in the file while the run goes on",
  );
  assert.ok(!seen.some((e) => e.type === "end"), "the run had not ended");
  process.kill(pid, "SIGINT");
  const run = await running;
  assert.equal(run.code, 130, run.stderr);
  const events = parseEvents(readFileSync(file, "utf8"));
  checkShape(events);
  const end = ofType(events, "end")[0]!;
  assert.equal(end.outcome, "interrupted");
  assert.equal(end.exit, 130);
  assert.equal(end.size, readFileSync(join(dir, "out.txt")).length);
});

test("--events after a crash: the end line still comes, with exit 1", async () => {
  const dir = scratch();
  const input = join(dir, "in.txt");
  writeFileSync(input, "a\nKEEP\nb\n");
  const oracle = join(dir, "slow.sh");
  writeFileSync(oracle, '#!/bin/sh\nsleep 0.2\ngrep -q KEEP "$1"\n');
  chmodSync(oracle, 0o755);
  const file = join(dir, "e.jsonl");
  const run = await runWhittle([input, "-j1", "--timeout=60", "--events", file, "--test", oracle], {
    env: { WHITTLE_TEST_CRASH: "throw:300" },
  });
  assert.equal(run.code, 1, run.stderr);
  const events = parseEvents(readFileSync(file, "utf8"));
  assert.equal(events[0]!.type, "start");
  const end = events.at(-1)!;
  assert.equal(end.type, "end");
  assert.equal(end.type === "end" && end.exit, 1);
  assert.equal(end.type === "end" && end.outcome, "failed");
});

test("--events never names a file whittle keeps: the input, the output, a backup, the statistics, another file; nor stdout twice", async () => {
  const dir = scratch();
  const input = join(dir, "in.txt");
  writeFileSync(input, "a\nKEEP\nb\n");
  const oracle = join(dir, "t.sh");
  writeFileSync(oracle, '#!/bin/sh\ngrep -q KEEP "$1"\n');
  chmodSync(oracle, 0o755);
  const output = join(dir, "out.txt");
  const stats = join(dir, "s.json");
  writeFileSync(join(dir, "in.txt.orig"), "an earlier backup\n");
  writeFileSync(join(dir, "notes.txt"), "someone's notes\n");
  const cases: [string[], RegExp][] = [
    [["--events", input], /--events .* would overwrite the input/],
    [["-o", output, "--events", output], /would overwrite the output/],
    [["--stats", stats, "--events", stats], /would overwrite the statistics file/],
    [["--events", join(dir, "in.txt.orig")], /a backup of the input/],
    [["--events", join(dir, "notes.txt")], /not an events file of whittle/],
    [["-o", "-", "--events", "-"], /both write to stdout/],
    [["--events", dir], /it is a directory/],
  ];
  for (const [args, message] of cases) {
    const run = await runWhittle([input, ...args, "--test", oracle]);
    assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
    assert.match(run.stderr, message);
  }
  assert.equal(readFileSync(input, "utf8"), "a\nKEEP\nb\n");
  assert.equal(readFileSync(join(dir, "in.txt.orig"), "utf8"), "an earlier backup\n");
  assert.equal(readFileSync(join(dir, "notes.txt"), "utf8"), "someone's notes\n");
  assert.ok(!existsSync(output));
});

test("--events when the original is not interesting: start, the check, and an end with exit 3", async () => {
  const dir = scratch();
  const input = join(dir, "in.txt");
  writeFileSync(input, "nothing here\n");
  const oracle = join(dir, "t.sh");
  writeFileSync(oracle, '#!/bin/sh\ngrep -q KEEP "$1"\n');
  chmodSync(oracle, 0o755);
  const file = join(dir, "e.jsonl");
  const run = await runWhittle([input, "--events", file, "--test", oracle]);
  assert.equal(run.code, 3, run.stderr);
  const events = parseEvents(readFileSync(file, "utf8"));
  assert.deepEqual(
    events.map((e) => e.type),
    ["start", "check", "end"],
  );
  const end = events[2]!;
  assert.ok(end.type === "end");
  assert.deepEqual([end.outcome, end.exit, end.tests], ["not-interesting", 3, 0]);
});

test("--events into a FIFO nobody reads: exit 2 at once instead of a run that hangs", async () => {
  const dir = scratch();
  const input = join(dir, "in.txt");
  writeFileSync(input, "KEEP\n");
  const fifo = join(dir, "events.fifo");
  execFileSync("mkfifo", [fifo]);
  const run = await runWhittle([input, "--events", fifo, "--", "true"]);
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /cannot write the events to the FIFO .*: nothing reads from it/);
});
