import { existsSync, readFileSync } from "node:fs";
import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { isCacheable } from "../../src/cache/cache.js";
import { isInteresting } from "../../src/outcome.js";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { basename, dirname, join, relative } from "node:path";

import { groupAlive } from "../../src/oracle/sandbox.js";
import { CommandOracle, type CommandOracleOptions } from "../../src/oracle/command.js";
import { findBash, shellWord, ShellRunner, statusToExit } from "../../src/oracle/shell.js";
import { noteSuspended } from "../../src/oracle/clock.js";
import { TimeoutPolicy } from "../../src/oracle/timeout-policy.js";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { WhittleError } from "../../src/errors.js";
import { reduce } from "../../src/reduce/reduce.js";

/** A scratch area for one test: `bin` for scripts, `out` for what they report, `root` as tmpRoot. */
interface Scratch {
  readonly bin: string;
  readonly out: string;
  readonly root: string;
  /** Writes an executable bash script into `bin` and returns its path. */
  script(name: string, body: string): Promise<string>;
  oracle(options: Partial<CommandOracleOptions> & { command: readonly string[] }): CommandOracle;
}

type Runner = "shell" | "spawn";
/** Both ways of starting tests where bash exists (the shell runner needs it), else just spawn. */
const RUNNERS: readonly Runner[] = findBash() === null ? ["spawn"] : ["shell", "spawn"];
if (findBash() === null) console.log("# no bash in PATH: the shell runner's tests are skipped");

/** A test run once per runner, named with it. */
function each(name: string, fn: (t: TestContext, runner: Runner) => Promise<void>): void {
  for (const runner of RUNNERS) test(`${name} [${runner}]`, (t) => fn(t, runner));
}

async function scratch(
  t: { after(fn: () => Promise<void> | void): void },
  runner: Runner = "spawn",
): Promise<Scratch> {
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
      const oracle = new CommandOracle({
        fileName: "input.txt",
        tmpRoot: root,
        env: { OUT: out },
        runner,
        ...options,
      });
      t.after(() => oracle.close());
      return oracle;
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

each("exit 0 is interesting", async (t, runner) => {
  const s = await scratch(t, runner);
  const oracle = s.oracle({ command: [await s.script("ok.sh", "exit 0")] });
  assert.equal(oracle.runner, runner);
  const run = await oracle.run(text("x"));
  assert.equal(run.outcome, "interesting");
  assert.equal(run.exitCode, 0);
  assert.equal(run.signal, null);
  assert.equal(run.cancelled, false);
  // The run took the time of a real spawn: more than nothing, far less than the default timeouts.
  assert.ok(run.durationMs > 0 && run.durationMs < 5000, `durationMs ${run.durationMs}`);
});

each("exit 1 is not interesting", async (t, runner) => {
  const s = await scratch(t, runner);
  const run = await s.oracle({ command: [await s.script("no.sh", "echo nope; exit 1")] }).run(text("x"));
  assert.equal(run.outcome, "not-interesting");
  assert.equal(run.exitCode, 1);
  assert.equal(run.outputTail, "nope\n");
});

each("death by a signal is its own outcome, killed: not interesting and never cached", async (t, runner) => {
  const s = await scratch(t, runner);
  const run = await s.oracle({ command: [await s.script("die.sh", "kill -KILL $$")] }).run(text("x"));
  assert.equal(run.outcome, "killed");
  assert.equal(isInteresting(run.outcome), false);
  assert.equal(isCacheable(run.outcome, { cacheFail: true, evict: true }), false);
  assert.equal(run.exitCode, null);
  assert.equal(run.signal, "SIGKILL");
});

each("test() returns just the outcome", async (t, runner) => {
  const s = await scratch(t, runner);
  const oracle = s.oracle({ command: [await s.script("grep.sh", 'grep -q yes "$1"')] });
  assert.equal(await oracle.test(text("yes")), "interesting");
  assert.equal(await oracle.test(text("no")), "not-interesting");
});

each(
  '"{}" is replaced by the candidate path, everywhere it appears, inside arguments too',
  async (t, runner) => {
    const s = await scratch(t, runner);
    const args = await s.script("args.sh", 'printf "%s\\n" "$@" > "$OUT/args"');
    await s.oracle({ command: [args, "-o", "{}", "x{}", "{}"], fileName: "crash.c" }).run(text("x"));
    const [a, b, c, d, ...rest] = (await readFile(join(s.out, "args"), "utf8")).split("\n");
    assert.equal(a, "-o");
    assert.equal(c, `x${b}`);
    assert.equal(b, d);
    assert.deepEqual(rest, [""]);
    assert.equal(basename(b ?? ""), "crash.c");
    assert.equal(dirname(dirname(b ?? "")), s.root, "the candidate is in a fresh dir directly below tmpRoot");
  },
);

each(
  '"{}" only inside an argument (--file={}) is substituted, and nothing is appended',
  async (t, runner) => {
    const s = await scratch(t, runner);
    const args = await s.script("args.sh", 'printf "%s\\n" "$@" > "$OUT/args"');
    await s.oracle({ command: [args, "--file={}", "a{}b{}"], fileName: "cr ash.c" }).run(text("x"));
    const lines = (await readFile(join(s.out, "args"), "utf8")).split("\n");
    assert.equal(lines.length, 3, "two arguments");
    assert.match(lines[0]!, /^--file=\/.*\/cr ash\.c$/);
    const path = lines[0]!.slice("--file=".length);
    assert.equal(lines[1], `a${path}b${path}`);
  },
);

each("without {} the candidate path is appended", async (t, runner) => {
  const s = await scratch(t, runner);
  const args = await s.script("args.sh", 'printf "%s\\n" "$@" > "$OUT/args"');
  await s.oracle({ command: [args, "--flag", "value"], fileName: "crash.c" }).run(text("x"));
  const lines = (await readFile(join(s.out, "args"), "utf8")).split("\n");
  assert.equal(lines.length, 4);
  assert.deepEqual(lines.slice(0, 2), ["--flag", "value"]);
  assert.match(lines[2] ?? "", /^\/.*\/crash\.c$/);
});

each("the cwd is a fresh dir holding exactly the candidate, byte for byte", async (t, runner) => {
  const s = await scratch(t, runner);
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

each("WHITTLE_CANDIDATE, WHITTLE_TMPDIR and extra env reach the test", async (t, runner) => {
  const s = await scratch(t, runner);
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

each("the temp dir is removed after success, failure, and output", async (t, runner) => {
  const s = await scratch(t, runner);
  const ok = await s.script("ok.sh", "echo hi > other-file; mkdir sub; touch sub/x; exit 0");
  const no = await s.script("no.sh", "echo hi > other-file; exit 3");
  assert.equal(await s.oracle({ command: [ok] }).test(text("x")), "interesting");
  await assertEmpty(s.root);
  assert.equal(await s.oracle({ command: [no] }).test(text("x")), "not-interesting");
  await assertEmpty(s.root);
});

each("a timeout kills the whole group, including a grandchild that ignores SIGTERM", async (t, runner) => {
  const s = await scratch(t, runner);
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

each(
  "a timeout also kills what the test moved to a group of its own, as GNU timeout does",
  async (t, runner) => {
    if (spawnSync("timeout", ["--version"]).status !== 0) return t.skip("no timeout(1) in PATH");
    const s = await scratch(t, runner);
    const pidFile = join(s.out, "inner.pid");
    // timeout(1) makes its own process group: killing the test's group alone left it and its command
    // running until its own limit, here 100 s.
    const hang = await s.script(
      "hang.sh",
      [
        'echo $$ > "$OUT/child.pid"',
        `timeout 100 bash -c 'echo $$ > "$PIDFILE"; while :; do sleep 0.05; done'`,
      ].join("\n"),
    );
    const running = s
      .oracle({ command: [hang], timeoutMs: 500, env: { OUT: s.out, PIDFILE: pidFile } })
      .run(text("x"));
    const child = await readPid(join(s.out, "child.pid"));
    const inner = await readPid(pidFile);
    const innerGroup = Number(readFileSync(`/proc/${inner}/stat`, "latin1").split(") ")[1]!.split(" ")[2]);
    assert.notEqual(innerGroup, child, "timeout(1) moved its command out of the test's process group");
    const run = await running;
    assert.equal(run.outcome, "timeout");
    for (let i = 0; i < 100 && !isDead(inner); i++) await sleep(10);
    assert.ok(isDead(inner), "the command timeout(1) ran is dead, not left to run until its own limit");
    await assertEmpty(s.root);
  },
);

each(
  "aborting mid-run rejects with the reason after the group is dead and the dir is gone",
  async (t, runner) => {
    const s = await scratch(t, runner);
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
  },
);

each("an abort with the default reason rejects with an AbortError", async (t, runner) => {
  const s = await scratch(t, runner);
  const hang = await s.script("hang.sh", 'echo $$ > "$OUT/child.pid"; exec sleep 1000');
  const controller = new AbortController();
  const running = s.oracle({ command: [hang] }).run(text("x"), controller.signal);
  const child = await readPid(join(s.out, "child.pid"));
  controller.abort();
  await assert.rejects(running, { name: "AbortError" });
  assert.ok(groupIsDead(child));
  await assertEmpty(s.root);
});

each("an already aborted signal rejects without running anything", async (t, runner) => {
  const s = await scratch(t, runner);
  const ok = await s.script("ok.sh", 'touch "$OUT/ran"');
  await assert.rejects(s.oracle({ command: [ok] }).run(text("x"), AbortSignal.abort()), {
    name: "AbortError",
  });
  await assertEmpty(s.out);
  await assertEmpty(s.root);
});

each("a background process left behind by a normal exit is killed", async (t, runner) => {
  const s = await scratch(t, runner);
  // The background sleep also keeps the stdout pipe open: the run must not wait for it to close.
  const leave = await s.script("leave.sh", 'sleep 1000 &\necho $! > "$OUT/bg.pid"\necho done\nexit 0');
  const started = performance.now();
  const run = await s.oracle({ command: [leave] }).run(text("x"));
  assert.equal(run.outcome, "interesting");
  assert.equal(run.outputTail, "done\n");
  assert.ok(performance.now() - started < 5000);
  assert.ok(isDead(await readPid(join(s.out, "bg.pid"))), "the background sleep is dead");
});

each("spawn errors reject with test-not-executable and leave no temp dir", async (t, runner) => {
  const s = await scratch(t, runner);
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

each("a relative program path is resolved against process.cwd(), not the temp dir", async (t, runner) => {
  const s = await scratch(t, runner);
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

each("big output is fine and only a bounded tail is kept", async (t, runner) => {
  const s = await scratch(t, runner);
  const loud = await s.script(
    "loud.sh",
    "head -c 50000000 /dev/zero\nhead -c 1000000 /dev/zero >&2\necho END",
  );
  const run = await s.oracle({ command: [loud] }).run(text("x"));
  assert.equal(run.outcome, "interesting");
  assert.ok(run.outputTail.length <= 4096, `tail has ${run.outputTail.length} chars`);
  assert.ok(run.outputTail.endsWith("\0END\n"));
});

each(
  "without output capture the test's output is discarded and the outcome is unchanged",
  async (t, runner) => {
    const s = await scratch(t, runner);
    const loud = await s.script("loud2.sh", 'echo something; grep -q yes "$1"');
    const oracle = s.oracle({ command: [loud], captureOutput: false });
    const run = await oracle.run(text("yes"));
    assert.equal(run.outcome, "interesting");
    assert.equal(run.outputTail, "");
    assert.equal(await oracle.test(text("no")), "not-interesting");
    await assertEmpty(s.root);
  },
);

each(
  "a test that leaves extra files in its directory still gets its directory removed",
  async (t, runner) => {
    const s = await scratch(t, runner);
    const messy = await s.script("messy.sh", "mkdir -p sub/deeper && touch sub/deeper/x a.out && exit 0");
    assert.equal(await s.oracle({ command: [messy] }).test(text("x")), "interesting");
    await assertEmpty(s.root);
  },
);

each("many concurrent runs do not interfere", async (t, runner) => {
  const s = await scratch(t, runner);
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

each(
  "arguments with quotes, newlines, $, backslashes and non-ASCII reach the test unchanged",
  async (t, runner) => {
    const s = await scratch(t, runner);
    const args = await s.script("args.sh", 'for a in "$@"; do printf "%s\\0" "$a"; done > "$OUT/args"');
    const odd = [
      "it's",
      'say "hi"',
      "two\nlines",
      "$HOME `id` $(id)",
      "back\\slash",
      "tab\there",
      "ünï €",
      "",
      " ",
    ];
    await s.oracle({ command: [args, ...odd, "{}"] }).run(text("x"));
    const got = (await readFile(join(s.out, "args"), "utf8")).split("\0");
    assert.deepEqual(got.slice(0, odd.length), odd);
    assert.match(got[odd.length] ?? "", /\/input\.txt$/);
  },
);

each(
  "every test's process group is reported to the tracker when it starts and once it is gone",
  async (t, runner) => {
    const s = await scratch(t, runner);
    const pgrp = await s.script(
      "pgrp.sh",
      'read -r -a f < /proc/$$/stat; echo "${f[4]}" >> "$OUT/pgrp"; exit 1',
    );
    const events: string[] = [];
    const oracle = s.oracle({
      command: [pgrp],
      groups: { started: (g) => events.push(`started ${g}`), ended: (g) => events.push(`ended ${g}`) },
    });
    for (let i = 0; i < 3; i++) assert.equal(await oracle.test(text("x")), "not-interesting");
    const groups = (await readFile(join(s.out, "pgrp"), "utf8")).trim().split("\n");
    assert.equal(new Set(groups).size, 3, "each test has a group of its own");
    assert.deepEqual(
      events,
      groups.flatMap((g) => [`started ${g}`, `ended ${g}`]),
    );
    assert.ok(groups.every((g) => Number(g) !== process.pid && groupIsDead(Number(g))));
  },
);

each(
  "the timeout counts active time: a timer that fires after a suspension is re-armed",
  async (t, runner) => {
    const s = await scratch(t, runner);
    const slow = await s.script("slow.sh", "sleep 0.6; exit 0");
    // Pretend that, as soon as the test started, whittle was suspended for 1 s: the 300 ms limit then
    // ends 1.3 s after the start in wall time, after the test's 0.6 s.
    const oracle = s.oracle({
      command: [slow],
      timeoutMs: 300,
      groups: { started: () => noteSuspended(1000), ended: () => undefined },
    });
    const run = await oracle.run(text("x"));
    assert.equal(run.outcome, "interesting");
    assert.ok(run.durationMs >= 550, `durationMs ${run.durationMs}`);
    // And without the suspension the same test times out.
    assert.equal(await s.oracle({ command: [slow], timeoutMs: 300 }).test(text("x")), "timeout");
  },
);

each(
  "a test that timed out is re-tested once when the adaptive limit has risen since it started",
  async (t, runner) => {
    const s = await scratch(t, runner);
    // The first run takes 0.8 s; later runs are quick.
    const once = await s.script(
      "once.sh",
      'if [ -e "$OUT/ran" ]; then echo again >> "$OUT/ran"; exit 0; fi\necho first > "$OUT/ran"; sleep 0.8; exit 0',
    );
    const policy = new TimeoutPolicy({ floorMs: 200, factorFew: 1, factor: 1 });
    policy.observe("interesting", 10);
    assert.equal(policy.limitMs(), 200);
    // While the first run runs, a slow but finished test raises the limit to 2 s.
    let raised = false;
    const oracle = s.oracle({
      command: [once],
      timeoutPolicy: policy,
      groups: {
        started: () => {
          if (!raised) policy.observe("not-interesting", 2000);
          raised = true;
        },
        ended: () => undefined,
      },
    });
    const run = await oracle.run(text("x"));
    assert.equal(run.outcome, "interesting");
    assert.equal(run.timeoutMs, 2000);
    assert.deepEqual((await readFile(join(s.out, "ran"), "utf8")).split("\n"), ["first", "again", ""]);
    assert.equal(oracle.counters.runs, 2);
    assert.equal(oracle.counters.retests, 1);
    assert.equal(oracle.counters.timeouts, 1);
    assert.ok(oracle.counters.timeoutMs >= 200, `timeoutMs ${oracle.counters.timeoutMs}`);
    await assertEmpty(s.root);
  },
);

each("a test that timed out is not re-tested when the limit has not risen", async (t, runner) => {
  const s = await scratch(t, runner);
  const hang = await s.script("hang.sh", 'echo run >> "$OUT/runs"; exec sleep 1000');
  const policy = new TimeoutPolicy({ floorMs: 150, factorFew: 1, factor: 1 });
  const oracle = s.oracle({ command: [hang], timeoutPolicy: policy });
  const run = await oracle.run(text("x"));
  assert.equal(run.outcome, "timeout");
  assert.equal(run.timeoutMs, 150);
  assert.equal(await readFile(join(s.out, "runs"), "utf8"), "run\n");
  assert.deepEqual(oracle.counters, {
    runs: 1,
    retests: 0,
    timeouts: 1,
    timeoutMs: oracle.counters.timeoutMs,
    followUps: 0,
    unused: 0,
  });
  assert.ok(oracle.counters.timeoutMs >= 150);
  // Timeouts are no observation: the limit is unchanged.
  assert.equal(policy.limitMs(), 150);
});

each(
  "finished tests are observed by the adaptive policy, and a fixed timeout bypasses it",
  async (t, runner) => {
    const s = await scratch(t, runner);
    const nap = await s.script("nap.sh", 'sleep 0.3; grep -q yes "$1"');
    const policy = new TimeoutPolicy({ floorMs: 100, factorFew: 2, factor: 2 });
    const adaptive = s.oracle({ command: [nap], timeoutPolicy: policy });
    assert.equal(adaptive.timeoutLimitMs(), 100);
    // The first test times out at 100 ms; not observed, so the limit stays.
    assert.equal(await adaptive.test(text("no")), "timeout");
    policy.observe("interesting", 300);
    assert.equal(adaptive.timeoutLimitMs(), 600);
    assert.equal(await adaptive.test(text("no")), "not-interesting");
    assert.ok(adaptive.timeoutLimitMs()! >= 600);
    const fixed = s.oracle({
      command: [nap],
      timeoutPolicy: new TimeoutPolicy({ floorMs: 100 }),
      timeoutMs: 5000,
    });
    assert.equal(fixed.timeoutLimitMs(), 5000);
    assert.equal(await fixed.test(text("yes")), "interesting");
  },
);

test(
  "a bash worker that never reports the end of a killed test is killed, and the test ends as a timeout",
  { skip: findBash() === null },
  async (t) => {
    const s = await scratch(t, "shell");
    // The test stops its own worker (its parent), which therefore cannot report anything, then hangs.
    const mute = await s.script(
      "mute.sh",
      'if grep -q mute "$1"; then echo "$PPID" > "$OUT/worker.pid"; kill -STOP "$PPID"; exec sleep 30; fi; exit 0',
    );
    const oracle = s.oracle({ command: [mute], timeoutMs: 300 });
    const started = performance.now();
    assert.equal(await oracle.test(text("mute")), "timeout");
    const waited = performance.now() - started;
    assert.ok(waited < 15_000, `ended after ${Math.round(waited)} ms`);
    const worker = Number(await readFile(join(s.out, "worker.pid"), "utf8"));
    assert.ok(isDead(worker), "the silent worker is killed");
    // Later tests get a new worker.
    assert.equal(await oracle.test(text("fine")), "interesting");
    assert.equal(oracle.runner, "shell");
  },
);

test("the shell runner reads 128 + N as death by signal N (documented ambiguity), other statuses as exit codes", () => {
  assert.deepEqual(statusToExit(0), { kind: "exit", code: 0, signal: null });
  assert.deepEqual(statusToExit(1), { kind: "exit", code: 1, signal: null });
  assert.deepEqual(statusToExit(128), { kind: "exit", code: 128, signal: null });
  assert.deepEqual(statusToExit(137), { kind: "exit", code: null, signal: "SIGKILL" });
  assert.deepEqual(statusToExit(139), { kind: "exit", code: null, signal: "SIGSEGV" });
  assert.deepEqual(statusToExit(255), { kind: "exit", code: 255, signal: null });
});

test("shellWord keeps every word on one line and bash reads it back unchanged", async () => {
  const words = ["plain", "it's", "a\nb", "\\", "$x", "`x`", "\t", "ü€", "", "!"];
  for (const w of words) assert.ok(!shellWord(w).includes("\n"), JSON.stringify(w));
  if (findBash() === null) return;
  const { execFileSync } = await import("node:child_process");
  const out = execFileSync(findBash()!, ["-c", `printf '%s\\0' ${words.map(shellWord).join(" ")}`]);
  assert.deepEqual(out.toString("utf8").split("\0").slice(0, -1), words);
});

/** Runs a Node script (ES module) as a child and returns the child. */
function nodeChild(source: string): ChildProcess {
  return spawn(process.execPath, ["--input-type=module", "-e", source], {
    stdio: ["ignore", "pipe", "inherit"],
  });
}

const oracleModule = JSON.stringify(new URL("../../src/oracle/command.js", import.meta.url).href);

test(
  "the shell runner does not keep Node alive when idle, and close() ends bash",
  { skip: findBash() === null },
  async (t) => {
    const s = await scratch(t);
    // The test's parent is the bash worker that started it.
    const ok = await s.script("ok.sh", 'echo "$PPID" > "$OUT/bash.pid"; exit 0');
    // A process that runs one test and never closes the oracle must still exit by itself.
    const child = nodeChild(
      `import { CommandOracle } from ${oracleModule};
     const o = new CommandOracle({ command: [${JSON.stringify(ok)}], fileName: "f", runner: "shell", env: { OUT: ${JSON.stringify(s.out)} } });
     console.log(await o.test(new Uint8Array([1])));`,
    );
    let out = "";
    child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
    const code = await new Promise((done) => child.once("exit", done));
    assert.equal(code, 0);
    assert.equal(out.trim(), "interesting");
    // Once Node is gone, bash's stdin is closed and it exits.
    const bash = Number((await readFile(join(s.out, "bash.pid"), "utf8")).trim());
    assert.ok(bash > 0 && bash !== child.pid);
    for (let i = 0; i < 200 && !isDead(bash); i++) await new Promise((done) => setTimeout(done, 25));
    assert.ok(isDead(bash), "bash is gone");

    const oracle = new CommandOracle({ command: [ok], fileName: "f", runner: "shell", env: { OUT: s.out } });
    assert.equal(await oracle.test(text("x")), "interesting");
    await oracle[Symbol.asyncDispose]();
    assert.equal(oracle.runner, "spawn", "after close(), tests are spawned");
    assert.equal(await oracle.test(text("x")), "interesting");
  },
);

test(
  "when whittle dies, bash kills the groups of the tests still running",
  { skip: findBash() === null },
  async (t) => {
    const s = await scratch(t);
    const hang = await s.script(
      "hang.sh",
      'sleep 1000 &\necho $! > "$OUT/bg.pid"\necho $$ > "$OUT/test.pid"\nsleep 1000',
    );
    const child = nodeChild(
      `import { CommandOracle } from ${oracleModule};
     const o = new CommandOracle({ command: [${JSON.stringify(hang)}], fileName: "f", runner: "shell", tmpRoot: ${JSON.stringify(s.root)}, env: { OUT: ${JSON.stringify(s.out)} } });
     await o.test(new Uint8Array([1]));`,
    );
    const test = await readPid(join(s.out, "test.pid"));
    const bg = await readPid(join(s.out, "bg.pid"));
    assert.ok(!isDead(test) && !isDead(bg));
    child.kill("SIGKILL");
    await new Promise((done) => child.once("exit", done));
    for (let i = 0; i < 400 && !(isDead(test) && isDead(bg)); i++)
      await new Promise((done) => setTimeout(done, 25));
    assert.ok(isDead(test), "the test is dead");
    assert.ok(isDead(bg), "its background child is dead");
  },
);

test("the spawn runner is used when asked for, and a missing bash is an error only when the shell is required", async () => {
  assert.equal(new CommandOracle({ command: ["true"], fileName: "f", runner: "spawn" }).runner, "spawn");
  assert.throws(() => new CommandOracle({ command: ["true"], fileName: "f", runner: "fast" as "auto" }), {
    code: "invalid-option",
  });
  const auto = new CommandOracle({ command: ["true"], fileName: "f" });
  assert.equal(auto.runner, findBash() === null ? "spawn" : "shell");
  await auto.close();
});

test(
  "a bash worker's memory does not grow with the number of tests",
  { skip: findBash() === null },
  async () => {
    const runner = new ShellRunner(findBash()!, process.env, ["/bin/true", "{}"], "f");
    const root = await mkdtemp(join(tmpdir(), "whittle-worker-mem-"));
    const rss = async (): Promise<number> => {
      const [pid] = runner.workerPids;
      const status = await readFile(`/proc/${pid}/status`, "utf8");
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    };
    const runMany = async (n: number): Promise<void> => {
      for (let i = 0; i < n; i++) {
        const job = await runner.start(root, "/dev/null");
        assert.deepEqual(await job.ended, { kind: "exit", code: 0, signal: null });
      }
    };
    try {
      await runMany(300);
      assert.equal(runner.workerPids.length, 1, "one test at a time needs one worker");
      const before = await rss();
      await runMany(1200);
      const after = await rss();
      // Keeping finished jobs would cost about 0.3 KB each (350 KB here); allow a little noise.
      assert.ok(before > 0 && after - before < 100, `worker RSS ${before} kB → ${after} kB`);
    } finally {
      runner.close();
      await rm(root, { recursive: true, force: true });
    }
  },
);

test(
  "a test killed the moment it starts ends by the signal, and the worker keeps its watcher",
  { skip: findBash() === null || !existsSync("/proc/self/task") ? "needs bash and Linux's /proc" : false },
  async () => {
    // A job that gets SIGTERM right after its fork, before bash has reset the traps it inherited,
    // ran the worker's handlers: it exited 0 (interesting!) and its EXIT trap killed the watcher.
    // Before the fix, about 1 in 200 such tests did; 2,000 take about two seconds.
    const runner = new ShellRunner(findBash()!, process.env, ["sleep", "10"], "f");
    const root = await mkdtemp(join(tmpdir(), "whittle-worker-kill-"));
    const children = (pid: number): string =>
      readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
    try {
      for (let i = 0; i < 2000; i++) {
        const job = await runner.start(root, "/dev/null");
        process.kill(-job.pgid, "SIGTERM");
        assert.deepEqual(await job.ended, { kind: "exit", code: null, signal: "SIGTERM" }, `test ${i}`);
        const [worker] = runner.workerPids;
        assert.notEqual(children(worker!), "", `the watcher is alive after test ${i}`);
      }
    } finally {
      runner.close();
      await rm(root, { recursive: true, force: true });
    }
  },
);

each(
  "with recycleDirectories every test gets a directory of its own at a new path holding just the candidate; close() removes them",
  async (t, runner) => {
    const s = await scratch(t, runner);
    // Every other test leaves a file behind: its directory must not be reused.
    const where = await s.script(
      "where.sh",
      'pwd >> "$OUT/dirs"; ls -A >> "$OUT/ls"; if grep -q messy "$1"; then touch left-over; fi; exit 1',
    );
    const oracle = s.oracle({ command: [where], recycleDirectories: true, captureOutput: false });
    for (let i = 0; i < 6; i++) {
      assert.equal(await oracle.test(text(i % 2 ? "messy" : "clean")), "not-interesting");
      if (i % 2 === 0) {
        // Recycled: the clean test's directory is kept as the one spare, not removed. The messy
        // directory of the test before is removed in the background: give that a moment.
        let entries = await readdir(s.root);
        for (let wait = 0; entries.length > 1 && wait < 100; wait++) {
          await new Promise((done) => setTimeout(done, 20));
          entries = await readdir(s.root);
        }
        assert.equal(entries.length, 1, `after test ${i}`);
      }
    }
    const dirs = (await readFile(join(s.out, "dirs"), "utf8")).trim().split("\n");
    assert.equal(new Set(dirs).size, 6, "six tests, six paths");
    assert.equal(await readFile(join(s.out, "ls"), "utf8"), "input.txt\n".repeat(6));
    await oracle.close();
    await assertEmpty(s.root);
  },
);

test("recycled directories are removed when the process exits without close()", async (t) => {
  const s = await scratch(t);
  const ok = await s.script("ok.sh", "exit 0");
  const child = nodeChild(
    `import { CommandOracle } from ${oracleModule};
     const o = new CommandOracle({ command: [${JSON.stringify(ok)}], fileName: "f", recycleDirectories: true, tmpRoot: ${JSON.stringify(s.root)} });
     for (let i = 0; i < 3; i++) await o.test(new Uint8Array([i]));
     console.log((await import("node:fs")).readdirSync(${JSON.stringify(s.root)}).length);`,
  );
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  assert.equal(await new Promise((done) => child.once("exit", done)), 0);
  // Directories are reused: one or two spares (the last test's is emptied after its call returns).
  assert.ok(["1", "2"].includes(out.trim()), `spare directories while the process ran: ${out.trim()}`);
  await assertEmpty(s.root);
});

each(
  "a test stopped and continued from outside (as Ctrl-Z does) is not taken for one that ended",
  async (t, runner) => {
    const s = await scratch(t, runner);
    const nap = await s.script("nap.sh", 'echo $$ > "$OUT/test.pid"; sleep 0.6; exit 0');
    const running = s.oracle({ command: [nap], timeoutMs: 20_000 }).run(text("x"));
    const pid = await readPid(join(s.out, "test.pid"));
    process.kill(-pid, "SIGSTOP");
    await new Promise((done) => setTimeout(done, 300));
    assert.ok(!isDead(pid), "stopped, not ended");
    process.kill(-pid, "SIGCONT");
    const run = await running;
    // Not "killed": the runner did not report the stop as the end of the test.
    assert.equal(run.outcome, "interesting");
    assert.equal(run.exitCode, 0);
  },
);

test("a shell that cannot run the worker script makes start() reject (the oracle then spawns)", async () => {
  // dash, or an old bash, fails the worker's first line; /bin/false exits at once.
  for (const shell of ["/bin/false", ...(existsSync("/bin/dash") ? ["/bin/dash"] : [])]) {
    const runner = new ShellRunner(shell, process.env, ["/bin/true", "{}"], "f");
    await assert.rejects(runner.start(tmpdir(), "/dev/null"), /the test runner shell/, shell);
    runner.close();
  }
});

test("a shell that never gets ready is killed after the start limit, and start() rejects", async (t) => {
  const s = await scratch(t);
  // A "bash" that reads nothing and answers nothing.
  const mute = join(s.bin, "mute-shell");
  await writeFile(mute, `#!/bin/sh\necho $$ > "${s.out}/shell.pid"\nexec sleep 60\n`, { mode: 0o755 });
  const runner = new ShellRunner(mute, process.env, ["/bin/true", "{}"], "f", { startLimitMs: 300 });
  const started = performance.now();
  await assert.rejects(runner.start(tmpdir(), "/dev/null"), /the test runner shell exited \(SIGKILL\)/);
  assert.ok(performance.now() - started < 10_000);
  assert.ok(isDead(Number(await readFile(join(s.out, "shell.pid"), "utf8"))), "the shell is killed");
  runner.close();
});

each("a file name with spaces, quotes and $ reaches the test as the candidate's name", async (t, runner) => {
  const s = await scratch(t, runner);
  const name = await s.script(
    "name.sh",
    'printf "%s\\n" "$1" "$WHITTLE_CANDIDATE" > "$OUT/name"; ls -A > "$OUT/ls"',
  );
  const fileName = "it's a $HOME `x`.c";
  await s.oracle({ command: [name, "{}"], fileName }).run(text("x"));
  const [arg, candidate] = (await readFile(join(s.out, "name"), "utf8")).split("\n");
  assert.equal(basename(arg ?? ""), fileName);
  assert.equal(candidate, arg);
  assert.equal(await readFile(join(s.out, "ls"), "utf8"), `${fileName}\n`);
});

each(
  "a prepared candidate is written ahead and its test runs on that file; close() drops the unused ones",
  async (t, runner) => {
    for (const recycleDirectories of [false, true]) {
      const s = await scratch(t, runner);
      const seen = join(s.out, "seen");
      const oracle = s.oracle({
        command: [await s.script("see.sh", `echo "$1 $(cat "$1")" >> "${seen}"; exit 1`)],
        recycleDirectories,
      });
      const candidate = text("abc");
      oracle.prepare(candidate);
      // Written at once, before any test: one directory holding the candidate.
      const [dir, ...others] = await readdir(s.root);
      assert.deepEqual(others, []);
      const file = join(s.root, dir!, "input.txt");
      assert.equal(readFileSync(file, "utf8"), "abc");
      assert.equal(await oracle.test(candidate), "not-interesting");
      assert.equal(readFileSync(seen, "utf8"), `${file} abc\n`, "the test ran on the prepared file");
      // A different array with the same bytes is not the prepared one: it gets a file of its own.
      oracle.prepare(text("x"));
      assert.equal(await oracle.test(text("x")), "not-interesting");
      // More candidates prepared than are kept: the oldest are dropped; close() removes the rest.
      for (let i = 0; i < 7; i++) oracle.prepare(text(`never ${i}`));
      await oracle.close();
      await assertEmpty(s.root);
      oracle.prepare(text("after close"));
      await assertEmpty(s.root);
    }
  },
);

each(
  "follow-ups: a candidate prepared for one answer is tested the moment the running test gives it, the other is not",
  async (t, runner) => {
    const s = await scratch(t, runner);
    const log = join(s.out, "log");
    // Interesting when the candidate says "yes"; the first test runs long enough to queue behind it.
    const oracle = s.oracle({
      command: [
        await s.script(
          "log.sh",
          `echo "$(cat "$1")" >> "${log}"; sleep "$(cut -d' ' -f2 "$1")"; grep -q yes "$1"`,
        ),
      ],
      recycleDirectories: true,
    });
    const lines = async (): Promise<string[]> =>
      (await readFile(log, "utf8").catch(() => "")).split("\n").filter((l) => l !== "");
    for (const [first, answer] of [
      ["no 0.3", "not-interesting"],
      ["yes 0.3", "interesting"],
    ] as const) {
      await writeFile(log, "");
      const running = oracle.test(text(first));
      const ifYes = text("then-a 0");
      const ifNo = text("then-b 0");
      await sleep(100); // the test runs (its start was reported)
      oracle.prepare(ifYes, "interesting");
      oracle.prepare(ifNo, "not-interesting");
      assert.equal(await running, answer);
      await sleep(200);
      const expected = answer === "interesting" ? "then-a 0" : "then-b 0";
      // The shell starts the follow-up by itself; spawn waits to be asked.
      assert.deepEqual(await lines(), runner === "shell" ? [first, expected] : [first]);
      const runs = oracle.counters.runs;
      assert.equal(await oracle.test(answer === "interesting" ? ifYes : ifNo), "not-interesting");
      assert.equal(oracle.counters.runs, runs + 1, "the follow-up's test is the run asked for");
      assert.deepEqual(await lines(), [first, expected], "and it ran once");
    }
    await oracle.close();
    assert.equal(oracle.counters.unused, 0);
    await assertEmpty(s.root);
  },
);

each(
  "a follow-up nobody asks for is killed by close(), counted as unused, and leaves nothing",
  async (t, runner) => {
    const s = await scratch(t, runner);
    const pids = join(s.out, "pids");
    const oracle = s.oracle({
      command: [
        await s.script(
          "slow.sh",
          `echo $$ >> "${pids}"; if grep -q long "$1"; then sleep 30; else sleep 0.3; fi; exit 1`,
        ),
      ],
      recycleDirectories: true,
    });
    const running = oracle.test(text("short"));
    await sleep(50);
    oracle.prepare(text("long"), "not-interesting");
    assert.equal(await running, "not-interesting");
    // The follow-up starts at once with the shell runner; on a busy machine it may take a while to
    // write its pid, so wait for it (up to 10 s) rather than a fixed time.
    const expected = runner === "shell" ? 2 : 1;
    const readPids = async (): Promise<number[]> =>
      (await readFile(pids, "utf8")).trim().split("\n").map(Number);
    for (let waited = 0; (await readPids()).length < expected && waited < 10_000; waited += 50)
      await sleep(50);
    await sleep(200);
    const started = await readPids();
    assert.equal(started.length, expected);
    await oracle.close();
    assert.equal(oracle.counters.unused, runner === "shell" ? 1 : 0);
    assert.equal(oracle.counters.runs, 1);
    for (const pid of started) assert.ok(!groupAlive(pid), "no test outlives close()");
    await assertEmpty(s.root);
  },
);

test("in a reduction, every test but the check of the empty input is a follow-up, the first one included", async (t) => {
  const s = await scratch(t, "shell");
  const log = join(s.out, "log");
  // 0.2 s per test: ample time for Node to queue each follow-up while the test before it runs.
  const oracle = s.oracle({
    command: [
      await s.script("t.sh", `echo "$(tr '\\n' ' ' < "$1")" >> "${log}"; sleep 0.2; grep -q keep "$1"`),
    ],
    recycleDirectories: true,
  });
  const result = await reduce(text("other\nkeep\nmore\n"), oracle.toOracle(), {
    atom: "line",
    jobs: 1,
    assumeInteresting: true,
  });
  assert.equal(new TextDecoder().decode(result.output), "keep\n");
  const tested = (await readFile(log, "utf8")).split("\n").slice(0, -1);
  assert.equal(tested[0], "", "the empty input first");
  assert.equal(oracle.counters.runs, tested.length, JSON.stringify(tested));
  // The empty input's check was started by Node; the worker started every later test itself.
  assert.equal(oracle.counters.followUps, oracle.counters.runs - 1, JSON.stringify(tested));
  await oracle.close();
  assert.equal(oracle.counters.unused, 0);
  await assertEmpty(s.root);
});

test("follow-ups are skipped after a timeout, and after a test whose answer they do not follow", async (t) => {
  const s = await scratch(t, "shell");
  const log = join(s.out, "log");
  const oracle = s.oracle({
    command: [
      await s.script(
        "t.sh",
        `echo "$(cat "$1")" >> "${log}"; if grep -q hang "$1"; then sleep 30; fi; exit 1`,
      ),
    ],
    timeoutMs: 300,
    killGraceMs: 0,
  });
  const running = oracle.test(text("hang"));
  await sleep(100);
  oracle.prepare(text("after timeout"), "not-interesting");
  oracle.prepare(text("after interesting"), "interesting");
  assert.equal(await running, "timeout");
  await sleep(200);
  assert.deepEqual((await readFile(log, "utf8")).trim().split("\n"), ["hang"]);
  // Asked for all the same, it runs then.
  assert.equal(await oracle.test(text("after timeout")), "not-interesting");
  await oracle.close();
  assert.equal(oracle.counters.unused, 0);
  await assertEmpty(s.root);
});
