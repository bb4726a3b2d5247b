/**
 * Declarative verdicts (expect.ts), repeated runs (repeat.ts), and the command oracle's capture of
 * stdout and stderr apart (captureStreams) that they read, with both runners.
 */
import assert from "node:assert/strict";
import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { CommandOracle } from "../../src/oracle/command.js";
import {
  failureLine,
  judgeRun,
  parseSignal,
  recordFailure,
  statusOf,
  type RunFacts,
} from "../../src/oracle/expect.js";
import { decide, repeatedTest, type RepeatCounters } from "../../src/oracle/repeat.js";
import { findBash } from "../../src/oracle/shell.js";
import type { Outcome } from "../../src/outcome.js";

function facts(partial: Partial<RunFacts>): RunFacts {
  return { outcome: "not-interesting", exitCode: 1, signal: null, stdout: "", stderr: "", ...partial };
}

test("signals by name, short name or number; unknown ones are undefined", () => {
  assert.equal(parseSignal("SIGSEGV"), "SIGSEGV");
  assert.equal(parseSignal("segv"), "SIGSEGV");
  assert.equal(parseSignal("11"), "SIGSEGV");
  assert.equal(parseSignal("6"), "SIGABRT");
  assert.equal(parseSignal("SIGNOPE"), undefined);
  assert.equal(parseSignal("99"), undefined);
});

test("a death by signal N and an exit with 128 + N are one status", () => {
  assert.equal(statusOf(facts({ outcome: "killed", exitCode: null, signal: "SIGSEGV" })), 139);
  assert.equal(statusOf(facts({ exitCode: 139 })), 139);
  assert.equal(statusOf(facts({ outcome: "timeout", exitCode: null, signal: "SIGTERM" })), undefined);
  const segv = { signal: "SIGSEGV" as const };
  assert.equal(judgeRun(facts({ exitCode: 139 }), segv), "interesting");
  assert.equal(
    judgeRun(facts({ outcome: "killed", exitCode: null, signal: "SIGSEGV" }), segv),
    "interesting",
  );
  assert.equal(
    judgeRun(facts({ outcome: "killed", exitCode: null, signal: "SIGABRT" }), segv),
    "not-interesting",
  );
  // Killed from outside: not a verdict on the candidate, so not cached.
  assert.equal(judgeRun(facts({ outcome: "killed", exitCode: null, signal: "SIGKILL" }), segv), "killed");
  assert.equal(judgeRun(facts({ outcome: "timeout", exitCode: null }), { exit: 1 }), "timeout");
});

test("every expectation given must hold", () => {
  const e = { exit: 3, stdout: /ok/m, stderr: /^bad \d+$/m };
  assert.equal(judgeRun(facts({ exitCode: 3, stdout: "it is ok", stderr: "x\nbad 12\n" }), e), "interesting");
  assert.equal(judgeRun(facts({ exitCode: 0, stdout: "it is ok", stderr: "bad 12" }), e), "not-interesting");
  assert.equal(judgeRun(facts({ exitCode: 3, stdout: "no", stderr: "bad 12" }), e), "not-interesting");
  assert.equal(judgeRun(facts({ exitCode: 3, stdout: "ok", stderr: "bad twelve" }), e), "not-interesting");
});

test("the failure line: the first sanitizer, assertion or error line, with addresses, paths and numbers masked", () => {
  assert.equal(
    failureLine(
      "compiling\n==4242==ERROR: AddressSanitizer: heap-use-after-free on address 0x6020000000f0 at /tmp/w-1/crash.c:12\n",
    ),
    "==N==ERROR: AddressSanitizer: heap-use-after-free on address <hex> at <path>:N",
  );
  assert.equal(
    failureLine("a.out: x.c:7: main: Assertion `n > 0' failed.\n"),
    "a.out: x.c:N: main: Assertion `n > N' failed.",
  );
  assert.equal(
    failureLine("thread 'main' panicked at src/main.rs:3:5:\n"),
    "thread 'main' panicked at <path>:N:N:",
  );
  // A traceback's first line only when nothing names the error itself.
  assert.equal(failureLine("Traceback (most recent call last):\n  File x\nKeyError: 'k'\n"), "KeyError: 'k'");
  assert.equal(failureLine("Traceback (most recent call last):\n"), "Traceback (most recent call last):");
  assert.equal(failureLine("all fine\n"), undefined);
});

test("a failure is recorded only for a run that failed; two runs of one failure are the same", () => {
  assert.equal(recordFailure(facts({ outcome: "interesting", exitCode: 0 })), undefined);
  const a = recordFailure(facts({ exitCode: 134, stderr: "==1==ERROR: AddressSanitizer: SEGV on 0xdead\n" }));
  const b = recordFailure(
    facts({ exitCode: 134, stderr: "==77==ERROR: AddressSanitizer: SEGV on 0xbeef\n" }),
  );
  assert.deepEqual(a, b);
  const e = { sameFailure: a! };
  assert.equal(
    judgeRun(facts({ exitCode: 134, stderr: "==9==ERROR: AddressSanitizer: SEGV on 0x1\n" }), e),
    "interesting",
  );
  assert.equal(
    judgeRun(facts({ exitCode: 134, stderr: "==9==ERROR: AddressSanitizer: FPE on 0x1\n" }), e),
    "not-interesting",
  );
  assert.equal(
    judgeRun(facts({ exitCode: 1, stderr: "==9==ERROR: AddressSanitizer: SEGV on 0x1\n" }), e),
    "not-interesting",
  );
});

/** A test that answers from a list, counting its calls. */
function scripted(answers: Outcome[]): { run: () => Promise<Outcome>; calls: () => number } {
  let i = 0;
  return { run: () => Promise.resolve(answers[i++] ?? "not-interesting"), calls: () => i };
}

test("K of up to M runs: the runs stop as soon as the verdict is known", async () => {
  const policy = { repeat: 6, need: 2 };
  let t = scripted(["not-interesting", "interesting", "not-interesting", "interesting", "interesting"]);
  let d = await decide(t.run, (o) => o, policy);
  assert.deepEqual([d.outcome, t.calls(), d.disagreed], ["interesting", 4, true]);
  // After 5 misses, 2 cannot be reached in the one run left.
  t = scripted([
    "not-interesting",
    "not-interesting",
    "not-interesting",
    "not-interesting",
    "not-interesting",
  ]);
  d = await decide(t.run, (o) => o, policy);
  assert.deepEqual([d.outcome, t.calls(), d.disagreed], ["not-interesting", 5, false]);
  t = scripted(["interesting", "interesting"]);
  d = await decide(t.run, (o) => o, policy);
  assert.deepEqual([d.outcome, t.calls(), d.disagreed], ["interesting", 2, false]);
  // A timeout among the misses makes the verdict a timeout (not cached).
  t = scripted(["timeout", "not-interesting", "not-interesting", "not-interesting", "not-interesting"]);
  d = await decide(t.run, (o) => o, policy);
  assert.equal(d.outcome, "timeout");
  // One run: that run's outcome, whatever it is.
  t = scripted(["killed"]);
  d = await decide(t.run, (o) => o, { repeat: 1, need: 1 });
  assert.deepEqual([d.outcome, t.calls()], ["killed", 1]);
});

test("a repeated test counts the candidates whose runs disagreed, and passes hints on without nextIf", async () => {
  const answers: Outcome[] = [
    "not-interesting",
    "interesting",
    "not-interesting",
    "not-interesting",
    "not-interesting",
  ];
  let i = 0;
  const hints: unknown[][] = [];
  const inner = Object.assign(() => Promise.resolve(answers[i++] ?? "not-interesting"), {
    prepare: (...args: unknown[]) => void hints.push(args),
  });
  const counters: RepeatCounters = { disagreements: 0, extraRuns: 0 };
  const test2 = repeatedTest(inner, { repeat: 3, need: 1 }, counters);
  const signal = new AbortController().signal;
  assert.equal(await test2(new Uint8Array([1]), signal), "interesting");
  assert.equal(await test2(new Uint8Array([2]), signal), "not-interesting");
  assert.deepEqual(counters, { disagreements: 1, extraRuns: 1 + 2 });
  const candidate = new Uint8Array([3]);
  test2.prepare!(candidate, "not-interesting");
  assert.deepEqual(hints, [[candidate]]);
});

for (const runner of findBash() === null ? (["spawn"] as const) : (["shell", "spawn"] as const)) {
  test(`captureStreams keeps the first bytes of stdout and stderr apart, and leaves no file behind [${runner}]`, async (t) => {
    const base = await mkdtemp(join(tmpdir(), "whittle-verdict-test-"));
    t.after(() => rm(base, { recursive: true, force: true }));
    const script = join(base, "t.sh");
    await writeFile(
      script,
      '#!/usr/bin/env bash\necho out-1\necho err-1 >&2\nhead -c 5000 /dev/zero | tr "\\0" x\nsleep 0.3\necho tail >&2\nexit 3\n',
    );
    await chmod(script, 0o755);
    const root = join(base, "root");
    await mkdir(root);
    const oracle = new CommandOracle({
      command: [script],
      fileName: "c.txt",
      tmpRoot: root,
      runner,
      captureOutput: false,
      captureStreams: 100,
      recycleDirectories: true,
    });
    try {
      const run = await oracle.run(new TextEncoder().encode("x"));
      assert.equal(run.exitCode, 3);
      assert.equal(run.stdout, "out-1\n" + "x".repeat(94));
      assert.equal(run.stderr, "err-1\ntail\n");
      // The tail holds the end of both streams. The script pauses before its last stderr line so
      // that stdout's 5,000 x's have been read by then: without it, the event loop may read the
      // two pipes in either order and the x's can push `tail` out of the tail.
      assert.match(run.outputTail, /tail\n/);
      assert.match(run.outputTail, /x{100}/);
    } finally {
      await oracle.close();
    }
    assert.deepEqual(await readdir(root), []);
  });
}
