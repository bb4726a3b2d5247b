import { readFileSync } from "node:fs";
import { test } from "node:test";
import assert from "node:assert/strict";
import { isCacheable } from "../../src/cache/cache.js";
import { isInteresting } from "../../src/outcome.js";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative } from "node:path";

import { groupAlive } from "../../src/oracle/sandbox.js";
import { CommandOracle, type CommandOracleOptions } from "../../src/oracle/command.js";
import { WhittleError } from "../../src/errors.js";

/** A scratch area for one test: `bin` for scripts, `out` for what they report, `root` as tmpRoot. */
interface Scratch {
  readonly bin: string;
  readonly out: string;
  readonly root: string;
  /** Writes an executable bash script into `bin` and returns its path. */
  script(name: string, body: string): Promise<string>;
  oracle(options: Partial<CommandOracleOptions> & { command: readonly string[] }): CommandOracle;
}

async function scratch(t: { after(fn: () => Promise<void>): void }): Promise<Scratch> {
  const base = await mkdtemp(join(tmpdir(), "whittle-oracle-test-"));
  t.after(() => rm(base, { recursive: true, force: true }));
  const [bin, out, root] = ["bin", "out", "root"].map((name) => join(base, name)) as [string, string, string];
  await Promise.all([mkdir(bin), mkdir(out), mkdir(root)]);
  return {
    bin,
    out,
    root,
    async script(name, body) {
      const path = join(bin, name);
      await writeFile(path, `#!/bin/bash\n${body}\n`, { mode: 0o755 });
      return path;
    },
    oracle(options) {
      return new CommandOracle({ fileName: "input.txt", tmpRoot: root, env: { OUT: out }, ...options });
    },
  };
}

const text = (s: string): Uint8Array => new TextEncoder().encode(s);

/** Dead means not running: gone, or a zombie waiting for init to reap it. */
function isDead(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    assert.equal((error as NodeJS.ErrnoException).code, "ESRCH");
    return true;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    return /^[ZX]/.test(stat.slice(stat.lastIndexOf(")") + 2));
  } catch {
    return true;
  }
}

function groupIsDead(pgid: number): boolean {
  return !groupAlive(pgid);
}

async function readPid(path: string): Promise<number> {
  for (let i = 0; i < 500; i++) {
    const pid = Number.parseInt(await readFile(path, "utf8").catch(() => ""), 10);
    if (pid > 0) return pid;
    await new Promise((done) => setTimeout(done, 10));
  }
  throw new Error(`no pid appeared in ${path}`);
}

async function assertEmpty(dir: string): Promise<void> {
  assert.deepEqual(await readdir(dir), [], `${dir} should be empty`);
}

test("exit 0 is interesting", async (t) => {
  const s = await scratch(t);
  const run = await s.oracle({ command: [await s.script("ok.sh", "exit 0")] }).run(text("x"));
  assert.equal(run.outcome, "interesting");
  assert.equal(run.exitCode, 0);
  assert.equal(run.signal, null);
  assert.equal(run.cancelled, false);
  // The run took the time of a real spawn: more than nothing, far less than the default timeouts.
  assert.ok(run.durationMs > 0 && run.durationMs < 5000, `durationMs ${run.durationMs}`);
});

test("exit 1 is not interesting", async (t) => {
  const s = await scratch(t);
  const run = await s.oracle({ command: [await s.script("no.sh", "echo nope; exit 1")] }).run(text("x"));
  assert.equal(run.outcome, "not-interesting");
  assert.equal(run.exitCode, 1);
  assert.equal(run.outputTail, "nope\n");
});

test("death by a signal is its own outcome, killed: not interesting and never cached", async (t) => {
  const s = await scratch(t);
  const run = await s.oracle({ command: [await s.script("die.sh", "kill -KILL $$")] }).run(text("x"));
  assert.equal(run.outcome, "killed");
  assert.equal(isInteresting(run.outcome), false);
  assert.equal(isCacheable(run.outcome, { cacheFail: true, evict: true }), false);
  assert.equal(run.exitCode, null);
  assert.equal(run.signal, "SIGKILL");
});

test("test() returns just the outcome", async (t) => {
  const s = await scratch(t);
  const oracle = s.oracle({ command: [await s.script("grep.sh", 'grep -q yes "$1"')] });
  assert.equal(await oracle.test(text("yes")), "interesting");
  assert.equal(await oracle.test(text("no")), "not-interesting");
});

test('"{}" is replaced by the candidate path, everywhere it appears, inside arguments too', async (t) => {
  const s = await scratch(t);
  const args = await s.script("args.sh", 'printf "%s\\n" "$@" > "$OUT/args"');
  await s.oracle({ command: [args, "-o", "{}", "x{}", "{}"], fileName: "crash.c" }).run(text("x"));
  const [a, b, c, d, ...rest] = (await readFile(join(s.out, "args"), "utf8")).split("\n");
  assert.equal(a, "-o");
  assert.equal(c, `x${b}`);
  assert.equal(b, d);
  assert.deepEqual(rest, [""]);
  assert.equal(basename(b ?? ""), "crash.c");
  assert.equal(dirname(dirname(b ?? "")), s.root, "the candidate is in a fresh dir directly below tmpRoot");
});

test('"{}" only inside an argument (--file={}) is substituted, and nothing is appended', async (t) => {
  const s = await scratch(t);
  const args = await s.script("args.sh", 'printf "%s\\n" "$@" > "$OUT/args"');
  await s.oracle({ command: [args, "--file={}"], fileName: "crash.c" }).run(text("x"));
  const lines = (await readFile(join(s.out, "args"), "utf8")).split("\n");
  assert.equal(lines.length, 2, "one argument");
  assert.match(lines[0]!, /^--file=\/.*\/crash\.c$/);
});

test("without {} the candidate path is appended", async (t) => {
  const s = await scratch(t);
  const args = await s.script("args.sh", 'printf "%s\\n" "$@" > "$OUT/args"');
  await s.oracle({ command: [args, "--flag", "value"], fileName: "crash.c" }).run(text("x"));
  const lines = (await readFile(join(s.out, "args"), "utf8")).split("\n");
  assert.equal(lines.length, 4);
  assert.deepEqual(lines.slice(0, 2), ["--flag", "value"]);
  assert.match(lines[2] ?? "", /^\/.*\/crash\.c$/);
});

test("the cwd is a fresh dir holding exactly the candidate, byte for byte", async (t) => {
  const s = await scratch(t);
  const bytes = new Uint8Array([0x00, 0xff, 0x0d, 0x0a, 0x41, 0x00, 0x0d, 0x0a, 0xfe, 0x80, 0x0a, 0x0d]);
  await writeFile(join(s.out, "expected"), bytes);
  const check = await s.script(
    "check.sh",
    [
      'pwd > "$OUT/pwd.$$"',
      'ls -A > "$OUT/ls.$$"',
      'cp -- "$1" "$OUT/copy.$$"',
      'cmp -s -- "$OUT/expected" ./crash.c',
    ].join("\n"),
  );
  const oracle = s.oracle({ command: [check], fileName: "crash.c" });
  const runs = await Promise.all([oracle.run(bytes), oracle.run(bytes)]);
  assert.deepEqual(
    runs.map((r) => r.outcome),
    ["interesting", "interesting"],
  );
  const out = await readdir(s.out);
  const pwds = await Promise.all(
    out.filter((f) => f.startsWith("pwd.")).map((f) => readFile(join(s.out, f), "utf8")),
  );
  assert.equal(pwds.length, 2);
  assert.notEqual(pwds[0], pwds[1], "each run gets its own directory");
  for (const pwd of pwds) assert.equal(dirname(pwd.trim()), s.root);
  for (const f of out.filter((f) => f.startsWith("ls."))) {
    assert.equal(await readFile(join(s.out, f), "utf8"), "crash.c\n");
  }
  for (const f of out.filter((f) => f.startsWith("copy."))) {
    assert.deepEqual(new Uint8Array(await readFile(join(s.out, f))), bytes);
  }
  await assertEmpty(s.root);
});

test("WHITTLE_CANDIDATE, WHITTLE_TMPDIR and extra env reach the test", async (t) => {
  const s = await scratch(t);
  const env = await s.script(
    "env.sh",
    'printf "%s\\n" "$WHITTLE_CANDIDATE" "$WHITTLE_TMPDIR" "$EXTRA" "$PWD" "$1" > "$OUT/env"',
  );
  await s.oracle({ command: [env], env: { OUT: s.out, EXTRA: "extra value" } }).run(text("x"));
  const [candidate, dir, extra, pwd, arg] = (await readFile(join(s.out, "env"), "utf8")).split("\n");
  assert.equal(candidate, arg);
  assert.equal(candidate, join(dir ?? "", "input.txt"));
  assert.equal(dir, pwd);
  assert.equal(extra, "extra value");
});

test("the temp dir is removed after success, failure, and output", async (t) => {
  const s = await scratch(t);
  const ok = await s.script("ok.sh", "echo hi > other-file; mkdir sub; touch sub/x; exit 0");
  const no = await s.script("no.sh", "echo hi > other-file; exit 3");
  assert.equal(await s.oracle({ command: [ok] }).test(text("x")), "interesting");
  await assertEmpty(s.root);
  assert.equal(await s.oracle({ command: [no] }).test(text("x")), "not-interesting");
  await assertEmpty(s.root);
});

test("a timeout kills the whole group, including a grandchild that ignores SIGTERM", async (t) => {
  const s = await scratch(t);
  const pidFile = join(s.out, "grandchild.pid");
  const hang = await s.script(
    "hang.sh",
    [
      `bash -c 'trap "" TERM; echo $$ > "$PIDFILE"; sleep 1000' &`,
      'while [ ! -s "$PIDFILE" ]; do sleep 0.01; done',
      'echo $$ > "$OUT/child.pid"',
      "sleep 1000",
    ].join("\n"),
  );
  const started = performance.now();
  const run = await s
    .oracle({ command: [hang], timeoutMs: 300, env: { OUT: s.out, PIDFILE: pidFile } })
    .run(text("x"));
  const elapsed = performance.now() - started;
  assert.equal(run.outcome, "timeout");
  assert.equal(run.cancelled, false);
  assert.ok(elapsed < 6000, `took ${elapsed} ms`);
  assert.ok(elapsed >= 300, `took ${elapsed} ms`);
  const grandchild = await readPid(pidFile);
  const child = await readPid(join(s.out, "child.pid"));
  assert.ok(isDead(grandchild), "the SIGTERM-ignoring grandchild is dead");
  assert.ok(groupIsDead(child), "the process group is gone");
  await assertEmpty(s.root);
});

test("aborting mid-run rejects with the reason after the group is dead and the dir is gone", async (t) => {
  const s = await scratch(t);
  const hang = await s.script(
    "hang.sh",
    ["sleep 1000 &", 'echo $! > "$OUT/grandchild.pid"', 'echo $$ > "$OUT/child.pid"', "sleep 1000"].join(
      "\n",
    ),
  );
  const controller = new AbortController();
  const running = s.oracle({ command: [hang], killGraceMs: 5000 }).run(text("x"), controller.signal);
  const child = await readPid(join(s.out, "child.pid"));
  const grandchild = await readPid(join(s.out, "grandchild.pid"));
  assert.ok(!isDead(child));
  const reason = new Error("stop it");
  controller.abort(reason);
  await assert.rejects(running, (error) => error === reason);
  assert.ok(groupIsDead(child), "the process group is gone");
  assert.ok(isDead(grandchild));
  await assertEmpty(s.root);
});

test("an abort with the default reason rejects with an AbortError", async (t) => {
  const s = await scratch(t);
  const hang = await s.script("hang.sh", 'echo $$ > "$OUT/child.pid"; exec sleep 1000');
  const controller = new AbortController();
  const running = s.oracle({ command: [hang] }).run(text("x"), controller.signal);
  const child = await readPid(join(s.out, "child.pid"));
  controller.abort();
  await assert.rejects(running, { name: "AbortError" });
  assert.ok(groupIsDead(child));
  await assertEmpty(s.root);
});

test("an already aborted signal rejects without running anything", async (t) => {
  const s = await scratch(t);
  const ok = await s.script("ok.sh", 'touch "$OUT/ran"');
  await assert.rejects(s.oracle({ command: [ok] }).run(text("x"), AbortSignal.abort()), {
    name: "AbortError",
  });
  await assertEmpty(s.out);
  await assertEmpty(s.root);
});

test("a background process left behind by a normal exit is killed", async (t) => {
  const s = await scratch(t);
  // The background sleep also keeps the stdout pipe open: the run must not wait for it to close.
  const leave = await s.script("leave.sh", 'sleep 1000 &\necho $! > "$OUT/bg.pid"\necho done\nexit 0');
  const started = performance.now();
  const run = await s.oracle({ command: [leave] }).run(text("x"));
  assert.equal(run.outcome, "interesting");
  assert.equal(run.outputTail, "done\n");
  assert.ok(performance.now() - started < 5000);
  assert.ok(isDead(await readPid(join(s.out, "bg.pid"))), "the background sleep is dead");
});

test("spawn errors reject with test-not-executable and leave no temp dir", async (t) => {
  const s = await scratch(t);
  const plain = join(s.bin, "plain.sh");
  await writeFile(plain, "#!/bin/bash\nexit 0\n", { mode: 0o644 });
  const missing = join(s.bin, "missing.sh");
  const badInterpreter = await s.script("bad.sh", "");
  await writeFile(badInterpreter, "#!/nonexistent/interpreter\n");
  for (const program of [missing, plain, badInterpreter, "whittle-no-such-command-xyz"]) {
    await assert.rejects(
      s.oracle({ command: [program] }).run(text("x")),
      (error) => error instanceof WhittleError && error.code === "test-not-executable",
      program,
    );
    await assertEmpty(s.root);
  }
});

test("a relative program path is resolved against process.cwd(), not the temp dir", async (t) => {
  const s = await scratch(t);
  const ok = await s.script("ok.sh", "exit 0");
  const rel = relative(process.cwd(), ok);
  assert.ok(!rel.startsWith("/"));
  await CommandOracle.checkExecutable(rel);
  assert.equal(await s.oracle({ command: [rel] }).test(text("x")), "interesting");
});

test("checkExecutable accepts executables and rejects missing or non-executable ones", async (t) => {
  const s = await scratch(t);
  await CommandOracle.checkExecutable(await s.script("ok.sh", "exit 0"));
  await CommandOracle.checkExecutable("bash");

  const plain = join(s.bin, "plain.sh");
  await writeFile(plain, "#!/bin/bash\n");
  await chmod(plain, 0o644);
  const cases: [string, RegExp][] = [
    [join(s.bin, "missing.sh"), /missing\.sh.*does not exist/],
    [plain, /plain\.sh.*is not executable/],
    [s.bin, /is not executable/],
    ["whittle-no-such-command-xyz", /whittle-no-such-command-xyz.*not found in PATH/],
    ["", /empty/],
  ];
  for (const [program, message] of cases) {
    await assert.rejects(
      CommandOracle.checkExecutable(program),
      (error) =>
        error instanceof WhittleError && error.code === "test-not-executable" && message.test(error.message),
      program,
    );
  }
});

test("checkExecutable finds a non-executable file in PATH and says so", async (t) => {
  const s = await scratch(t);
  await writeFile(join(s.bin, "whittle-plain-cmd"), "#!/bin/bash\n", { mode: 0o644 });
  const saved = process.env["PATH"];
  process.env["PATH"] = `${s.bin}:${saved ?? ""}`;
  try {
    await assert.rejects(CommandOracle.checkExecutable("whittle-plain-cmd"), /is not executable/);
  } finally {
    process.env["PATH"] = saved;
  }
});

test("big output is fine and only a bounded tail is kept", async (t) => {
  const s = await scratch(t);
  const loud = await s.script(
    "loud.sh",
    "head -c 50000000 /dev/zero\nhead -c 1000000 /dev/zero >&2\necho END",
  );
  const run = await s.oracle({ command: [loud] }).run(text("x"));
  assert.equal(run.outcome, "interesting");
  assert.ok(run.outputTail.length <= 4096, `tail has ${run.outputTail.length} chars`);
  assert.ok(run.outputTail.endsWith("\0END\n"));
});

test("without output capture the test's output is discarded and the outcome is unchanged", async (t) => {
  const s = await scratch(t);
  const loud = await s.script("loud2.sh", 'echo something; grep -q yes "$1"');
  const oracle = s.oracle({ command: [loud], captureOutput: false });
  const run = await oracle.run(text("yes"));
  assert.equal(run.outcome, "interesting");
  assert.equal(run.outputTail, "");
  assert.equal(await oracle.test(text("no")), "not-interesting");
  await assertEmpty(s.root);
});

test("a test that leaves extra files in its directory still gets its directory removed", async (t) => {
  const s = await scratch(t);
  const messy = await s.script("messy.sh", "mkdir -p sub/deeper && touch sub/deeper/x a.out && exit 0");
  assert.equal(await s.oracle({ command: [messy] }).test(text("x")), "interesting");
  await assertEmpty(s.root);
});

test("many concurrent runs do not interfere", async (t) => {
  const s = await scratch(t);
  const grep = await s.script("grep.sh", 'sleep 0.1; grep -q yes "$1"');
  const oracle = s.oracle({ command: [grep] });
  const inputs = Array.from({ length: 16 }, (_, i) => (i % 3 === 0 ? `yes ${i}` : `no ${i}`));
  const outcomes = await Promise.all(inputs.map((input) => oracle.test(text(input))));
  assert.deepEqual(
    outcomes,
    inputs.map((input) => (input.startsWith("yes") ? "interesting" : "not-interesting")),
  );
  await assertEmpty(s.root);
});

test("invalid options are rejected up front", () => {
  assert.throws(() => new CommandOracle({ command: [], fileName: "a" }), { code: "invalid-option" });
  assert.throws(() => new CommandOracle({ command: ["x"], fileName: "a/b" }), { code: "invalid-option" });
  assert.throws(() => new CommandOracle({ command: ["x"], fileName: ".." }), { code: "invalid-option" });
  assert.throws(() => new CommandOracle({ command: ["x"], fileName: "a", timeoutMs: 0 }), {
    code: "invalid-option",
  });
});
