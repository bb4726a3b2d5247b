/**
 * Nothing is left behind (issue 21): not a run directory holding directories a test made read-only,
 * not a process that daemonized itself out of its test's process group, session, directory and
 * environment, not the temporary file of an output write cut short by kill -9.
 *
 * Permission bits do not bind root, so the read-only cases run whittle as nobody (setpriv) when this
 * process is root; the daemon cases do too, to show that what catches them needs no privilege.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough, Writable } from "node:stream";
import { test, type TestContext } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { runCli, type CliIo } from "../../src/cli/run.js";
import { MAIN, scratch } from "../helpers/cli.js";
import {
  bigInput,
  killByCommandLine,
  killDuringOutputWrite,
  processesWithCommandLine,
  uniqueDigits,
  unprivileged,
} from "../helpers/survivors.js";

const LIMIT_MS = 2000;

type User = NonNullable<ReturnType<typeof unprivileged>>;

/** A case: its directory, readable by `user`, with TMPDIR and the output's directory writable by it. */
interface Case {
  dir: string;
  tmp: string;
  input: string;
  output: string;
}

function makeCase(testBody: string): Case & { test: string } {
  const dir = scratch("whittle-leftovers-");
  chmodSync(dir, 0o755);
  const tmp = join(dir, "tmp");
  const out = join(dir, "out");
  for (const d of [tmp, out]) {
    mkdirSync(d);
    chmodSync(d, 0o1777);
  }
  const input = join(dir, "in.txt");
  writeFileSync(input, Array.from({ length: 30 }, (_, i) => (i === 16 ? "BUG\n" : `line ${i}\n`)).join(""));
  chmodSync(input, 0o644);
  const testPath = join(dir, "t.sh");
  writeFileSync(testPath, `#!/usr/bin/env bash\n${testBody}\n`);
  chmodSync(testPath, 0o755);
  return { dir, tmp, input, output: join(out, "out.txt"), test: testPath };
}

/** whittle started as `user` on the case, with TMPDIR=<case>/tmp. */
function startWhittle(
  user: User,
  c: Case & { test: string },
): {
  pid: number;
  ended: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
} {
  const argv = [process.execPath, MAIN, c.input, "--atom=line", "-j", "2", "-o", c.output, "--test", c.test];
  const [program, ...args] = [...user.prefix, ...argv];
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: c.tmp };
  delete env["WHITTLE_DEBUG"];
  const child = spawn(program!, args, { cwd: c.dir, env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return {
    pid: child.pid!,
    ended: new Promise((done) => child.on("close", (code, signal) => done({ code, signal, stderr }))),
  };
}

/** Polls until `condition` holds or `limitMs` passed; returns whether it held. */
async function within(limitMs: number, condition: () => boolean): Promise<boolean> {
  const deadline = performance.now() + limitMs;
  for (;;) {
    if (condition()) return true;
    if (performance.now() >= deadline) return false;
    await sleep(20);
  }
}

function userOrSkip(t: TestContext): User | undefined {
  const user = unprivileged();
  if (user === undefined) {
    t.skip(
      "running as root and cannot switch to an unprivileged user (setpriv, nobody) who can run this checkout: cannot be shown here",
    );
  }
  return user;
}

const READ_ONLY_TESTS = {
  "a directory made read-only (mkdir d; touch d/f; chmod 500 d)": "mkdir d; touch d/f; chmod 500 d",
  "its own directory made read-only (chmod 500 ., as Go's module cache does)": "touch f; chmod 500 .",
  "a nested directory with no permissions at all (chmod 000 a/b; chmod 500 a)":
    "mkdir -p a/b; touch a/b/f; chmod 000 a/b; chmod 500 a",
};

for (const [what, body] of Object.entries(READ_ONLY_TESTS)) {
  test(`a test that leaves ${what}: whittle, not root, leaves nothing in TMPDIR`, async (t) => {
    const user = userOrSkip(t);
    if (!user) return;
    const c = makeCase(`${body}\ngrep -q BUG "$1"`);
    const run = await startWhittle(user, c).ended;
    assert.equal(run.code, 0, run.stderr);
    assert.equal(readFileSync(c.output, "utf8"), "BUG\n");
    assert.deepEqual(readdirSync(c.tmp), [], "TMPDIR is empty after the run");
    assert.doesNotMatch(run.stderr, /could not remove/);
  });
}

test("whittle, not root, killed by SIGKILL while tests leave read-only directories: the watchdog still removes the run directory within 2 s", async (t) => {
  const user = userOrSkip(t);
  if (!user) return;
  const c = makeCase(`mkdir d; touch d/f; chmod 500 d; chmod 500 .\nsleep 0.3\ngrep -q BUG "$1"`);
  const whittle = startWhittle(user, c);
  // Wait for a test directory that is read-only (at most 20 s on a loaded machine).
  const readOnlyTestDir = (): boolean =>
    readdirSync(c.tmp).some((run) => {
      try {
        return readdirSync(join(c.tmp, run)).some((dir) => existsSync(join(c.tmp, run, dir, "d", "f")));
      } catch {
        return false; // not there yet, or already gone
      }
    });
  assert.ok(await within(20_000, readOnlyTestDir), "a test made its directory read-only");
  process.kill(whittle.pid, "SIGKILL");
  await whittle.ended;
  const clean = await within(LIMIT_MS, () => readdirSync(c.tmp).length === 0);
  assert.ok(clean, `TMPDIR still holds ${readdirSync(c.tmp).join(" ")} ${LIMIT_MS} ms after the kill`);
});

test("a test that leaves something whittle cannot remove even after making it writable: a warning names it, and whittle does not hang", async (t) => {
  const user = userOrSkip(t);
  if (!user) return;
  if (user.prefix.length === 0) {
    return t.skip("needs root to make a directory the unprivileged user cannot remove");
  }
  const c = makeCase("");
  // A directory of root's (mode 755, holding a file) inside one the test may move: the test moves
  // it into its own directory, where whittle (nobody) can neither empty it nor change its mode.
  const source = join(c.dir, "source");
  const blocker = join(source, "blocker");
  mkdirSync(join(blocker, "inner"), { recursive: true });
  writeFileSync(join(blocker, "inner", "f"), "");
  chmodSync(source, 0o777);
  chmodSync(blocker, 0o777);
  chmodSync(join(blocker, "inner"), 0o755);
  writeFileSync(c.test, `#!/usr/bin/env bash\nmv ${blocker} . 2>/dev/null\ngrep -q BUG "$1"\n`);
  t.after(() => rmSync(c.tmp, { recursive: true, force: true }));
  const started = performance.now();
  const run = await startWhittle(user, c).ended;
  assert.ok(performance.now() - started < 60_000);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /whittle: warning: could not remove \S+\/blocker\/inner\/f \(EACCES\)/);
  const left = readdirSync(c.tmp);
  assert.equal(left.length, 1, "the run directory stays, as the warning says");
  assert.match(run.stderr, new RegExp(`${c.tmp}/${left[0]}/`));
});

/** The daemonizing tests: each start one `sleep 1000.<marker>` that leaves the test behind. */
const DAEMONS = {
  "setsid, no WHITTLE_ variables, cwd /": (marker: string) =>
    `cd / && setsid env -u WHITTLE_TMPDIR -u WHITTLE_CANDIDATE sleep ${marker} &`,
  "double fork, setsid, stdin/stdout/stderr closed, no WHITTLE_ variables, cwd /": (marker: string) =>
    `( cd / && setsid bash -c 'env -u WHITTLE_TMPDIR -u WHITTLE_CANDIDATE sleep ${marker} & exit 0' <&- >&- 2>&- & )`,
};

for (const [what, daemon] of Object.entries(DAEMONS)) {
  for (const ending of ["normal end", "SIGKILL"] as const) {
    test(`a daemonizing test (${what}), whittle not root, ${ending}: no process of the run is alive 2 s later`, async (t) => {
      const user = userOrSkip(t);
      if (!user) return;
      const marker = `1000.${uniqueDigits()}`;
      t.after(() => killByCommandLine(marker));
      const body = `${daemon(marker)}\n${ending === "SIGKILL" ? "sleep 0.2\n" : ""}grep -q BUG "$1"`;
      const c = makeCase(body);
      const whittle = startWhittle(user, c);
      let seen = 0;
      let exited = false;
      const ended = whittle.ended.then((run) => {
        exited = true;
        return run;
      });
      if (ending === "SIGKILL") {
        assert.ok(
          await within(20_000, () => processesWithCommandLine(marker).length >= 2),
          "tests daemonized",
        );
        seen = processesWithCommandLine(marker).length;
        process.kill(whittle.pid, "SIGKILL");
      } else {
        while (!exited) {
          seen = Math.max(seen, processesWithCommandLine(marker).length);
          await sleep(20);
        }
        const run = await ended;
        assert.equal(run.code, 0, run.stderr);
      }
      await ended;
      assert.ok(seen > 0, "daemons were running during the run");
      const clean = await within(LIMIT_MS, () => processesWithCommandLine(marker).length === 0);
      assert.ok(
        clean,
        `${processesWithCommandLine(marker).length} of the daemons (${seen} seen) alive ${LIMIT_MS} ms after whittle ended`,
      );
    });
  }
}

test("whittle SIGKILLed while it writes a big output: no temporary file stays beside the output 2 s later, and the output is a complete result or absent", async (t) => {
  const input = bigInput(40);
  let caught = 0;
  let replaced = 0;
  // The first write (no output yet) at three moments, and a later one (over an earlier result).
  for (const [afterMs, later] of [
    [0, false],
    [20, false],
    [60, false],
    [5, true],
  ] as const) {
    const what = `${afterMs} ms into ${later ? "a later" : "the first"} write`;
    let run;
    // The write must be under way at the kill; on a fast machine it may be over first: try again.
    for (let attempt = 0; attempt < 5; attempt++) {
      run = await killDuringOutputWrite(input, { afterMs, later, limitMs: LIMIT_MS });
      if (run.caught) break;
    }
    assert.ok(run);
    if (!run.caught) continue;
    caught++;
    if (later) replaced++;
    t.diagnostic(`${what}: temporary file ${run.tempBytes} bytes; output ${run.output}`);
    assert.deepEqual(run.leftovers, [], `killed ${what}: temporary files left`);
    assert.notEqual(run.output, "broken", `killed ${what}: the output holds a complete, interesting result`);
    if (later) assert.notEqual(run.output, "absent", `killed ${what}: the earlier result stays`);
  }
  assert.ok(caught > 0, "whittle was killed while a temporary output file existed");
  assert.ok(replaced > 0, "whittle was killed while it replaced an earlier result");
});

test("without a watchdog (runCli in-process), whittle itself asks a daemonizing test's processes to stop when it ends", async (t) => {
  const marker = `1000.${uniqueDigits()}`;
  t.after(() => killByCommandLine(marker));
  const c = makeCase(`${DAEMONS["setsid, no WHITTLE_ variables, cwd /"](marker)}\ngrep -q BUG "$1"`);
  let stderr = "";
  const io: CliIo = {
    stdout: new PassThrough(),
    stderr: new Writable({
      write(chunk: Buffer, _encoding, done) {
        stderr += chunk.toString();
        done();
      },
    }),
    onInterrupt: () => () => undefined,
    processWide: false,
  };
  const code = await runCli([c.input, "--atom=line", "-o", c.output, "--test", c.test], "test", io);
  assert.equal(code, 0, stderr);
  const clean = await within(LIMIT_MS, () => processesWithCommandLine(marker).length === 0);
  assert.ok(
    clean,
    `${processesWithCommandLine(marker).length} daemons alive ${LIMIT_MS} ms after runCli resolved`,
  );
});
