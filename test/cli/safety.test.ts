/**
 * The command's promises to its user, checked with real processes: the input is never lost, the
 * output always holds an interesting result, nothing is left running or lying around.
 */
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { execFileSync } from "node:child_process";
import { isByteSubsequence, runWhittle, scratch } from "../helpers/cli.js";
import { mountTmpfs } from "../helpers/tmpfs.js";

function script(dir: string, name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/usr/bin/env bash\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

/** Alive means running: a zombie (killed, not yet reaped by init) runs nothing. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(")") + 2));
  } catch {
    return false;
  }
}

test("an original input that is not interesting: exit 3, the test's exit code and output shown, input untouched, no output", async () => {
  const dir = scratch();
  const input = join(dir, "crash.c");
  writeFileSync(input, "int main() { return 0; }\n");
  const oracle = script(dir, "test.sh", 'echo "no crash here" >&2; exit 7');
  const run = await runWhittle([input, "--test", oracle]);
  assert.equal(run.code, 3);
  assert.match(run.stderr, /not interesting/);
  assert.match(run.stderr, /exited with code 7/);
  assert.match(run.stderr, /no crash here/);
  assert.equal(readFileSync(input, "utf8"), "int main() { return 0; }\n");
  assert.deepEqual(readdirSync(dir).sort(), ["crash.c", "test.sh"]);
});

test("a test that refers to a file by a relative path gets a hint about the temporary directory", async () => {
  const dir = scratch();
  const input = join(dir, "in.txt");
  writeFileSync(input, "a\n");
  script(dir, "helper.sh", "exit 0");
  const run = await runWhittle([input, "--", "bash", "helper.sh", "{}"], { cwd: dir });
  assert.equal(run.code, 3);
  assert.match(run.stderr, /helper\.sh: No such file or directory/);
  assert.match(run.stderr, /hint: the test runs in a fresh temporary directory/);
});

test("a missing input, a missing test and a test that is not executable are usage errors (exit 2)", async () => {
  const dir = scratch();
  const input = join(dir, "in.txt");
  writeFileSync(input, "a\n");
  const missingInput = await runWhittle([join(dir, "nope.txt"), "--", "true"]);
  assert.equal(missingInput.code, 2);
  assert.match(missingInput.stderr, /cannot read input .*nope\.txt: no such file/);
  const missingTest = await runWhittle([input, "--test", join(dir, "nope.sh")]);
  assert.equal(missingTest.code, 2);
  assert.match(missingTest.stderr, /nope\.sh/);
  writeFileSync(join(dir, "plain.sh"), "exit 0\n");
  const notExecutable = await runWhittle([input, "--test", join(dir, "plain.sh")]);
  assert.equal(notExecutable.code, 2);
  assert.match(notExecutable.stderr, /not executable/);
  const noTest = await runWhittle([input]);
  assert.equal(noTest.code, 2);
  const ok = script(dir, "ok.sh", "exit 0");
  const badOutput = await runWhittle([input, "-o", join(dir, "no/such/dir/out.txt"), "--test", ok]);
  assert.equal(badOutput.code, 2);
  assert.match(badOutput.stderr, /cannot write the output .*no\/such\/dir/);
  const badOption = await runWhittle([input, "--strategy", "sideways", "--", "true"]);
  assert.equal(badOption.code, 2);
  assert.match(badOption.stderr, /sideways/);
  assert.deepEqual(readdirSync(dir).sort(), ["in.txt", "ok.sh", "plain.sh"]);
});

test("--in-place reduces the input itself and keeps the original as INPUT.orig, never overwriting a backup", async () => {
  const dir = scratch();
  const input = join(dir, "list.txt");
  const original = "a\nb\nKEEP\nc\n";
  writeFileSync(input, original);
  writeFileSync(`${input}.orig`, "an older backup\n");
  const oracle = script(dir, "t.sh", 'grep -q KEEP "$1"');
  const run = await runWhittle([input, "--in-place", "--quiet", "--atom=line", "--test", oracle]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(readFileSync(input, "utf8"), "KEEP\n");
  assert.equal(readFileSync(`${input}.orig`, "utf8"), "an older backup\n");
  assert.equal(readFileSync(`${input}.orig.1`, "utf8"), original);
});

test("a binary input and a CRLF input come out as exact byte subsets of the original", async () => {
  const dir = scratch();
  // Binary: bytes that are not UTF-8, NULs, and two markers the test needs.
  const binary = Buffer.concat([
    Buffer.from([0xff, 0x00, 0xfe, 0x80, 0x0a]),
    Buffer.from("MARK"),
    Buffer.from([0x00, 0xc3, 0x28, 0x0d, 0x0a, 0x01]),
    Buffer.from("MARK"),
    Buffer.from([0x9f, 0x00]),
  ]);
  const bin = join(dir, "blob.bin");
  writeFileSync(bin, binary);
  const twoMarks = script(
    dir,
    "marks.sh",
    '[ "$(grep -aoc MARK "$1")" -ge 1 ] && [ "$(grep -ao MARK "$1" | wc -l)" -ge 2 ]',
  );
  const run = await runWhittle([
    bin,
    "--quiet",
    "--atom=char",
    "-o",
    join(dir, "out.bin"),
    "--test",
    twoMarks,
  ]);
  assert.equal(run.code, 0, run.stderr);
  const out = readFileSync(join(dir, "out.bin"));
  assert.deepEqual(out, Buffer.from("MARKMARK"));
  assert.ok(isByteSubsequence(out, binary));
  assert.deepEqual(readFileSync(bin), binary, "the input is unchanged");

  // CRLF lines, and no newline at the end: kept exactly.
  const crlf = Buffer.from("one\r\ntwo KEEP\r\nthree\r\nfour KEEP");
  const txt = join(dir, "dos.txt");
  writeFileSync(txt, crlf);
  const keep = script(dir, "keep.sh", '[ "$(grep -c KEEP "$1")" -ge 2 ]');
  const run2 = await runWhittle([txt, "--quiet", "--atom=line", "-o", join(dir, "dos.out"), "--test", keep]);
  assert.equal(run2.code, 0, run2.stderr);
  assert.deepEqual(readFileSync(join(dir, "dos.out")), Buffer.from("two KEEP\r\nfour KEEP"));
});

test("-o - writes the result to stdout", async () => {
  const dir = scratch();
  const input = join(dir, "in.txt");
  writeFileSync(input, "x\ny\nKEEP\nz\n");
  const oracle = script(dir, "t.sh", 'grep -q KEEP "$1"');
  const run = await runWhittle([input, "-o", "-", "--quiet", "--atom=line", "--test", oracle]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.toString(), "KEEP\n");
  assert.ok(!existsSync(join(dir, "in.reduced.txt")));
});

test("a test that hangs and spawns a grandchild: the reduction finishes within the timeouts, and nothing is left alive", async () => {
  const dir = scratch();
  const pids = join(dir, "pids");
  const input = join(dir, "in.txt");
  writeFileSync(input, Array.from({ length: 5 }, (_, i) => `line ${i}\n`).join("") + "KEEP\n");
  // Candidates without "line 3" hang; every run leaves a grandchild that ignores SIGTERM.
  const oracle = script(
    dir,
    "hang.sh",
    `(trap "" TERM; exec sleep 1000) & echo $! >> ${pids}
if ! grep -q "line 3" "$1"; then sleep 1000; fi
grep -q KEEP "$1"`,
  );
  const tmp = scratch("whittle-tmproot-");
  const started = Date.now();
  const run = await runWhittle(
    [
      input,
      "--quiet",
      "--atom=line",
      "--timeout=0.5",
      "-j",
      "2",
      "--stats",
      join(dir, "stats.json"),
      "--test",
      oracle,
    ],
    { env: { TMPDIR: tmp } },
  );
  assert.equal(run.code, 0, run.stderr);
  assert.equal(readFileSync(join(dir, "in.reduced.txt"), "utf8"), "line 3\nKEEP\n");
  const stats = JSON.parse(readFileSync(join(dir, "stats.json"), "utf8")) as {
    timeouts: number;
    tests: number;
  };
  assert.ok(stats.timeouts > 0, "some tests timed out");
  assert.ok(Date.now() - started < 60_000);
  const spawned = readFileSync(pids, "utf8").trim().split("\n").map(Number);
  assert.ok(spawned.length >= 5, "the tests left grandchildren behind them");
  assert.deepEqual(spawned.filter(alive), [], "no grandchild survives");
  assert.deepEqual(readdirSync(tmp), [], "no temporary directory is left behind");
});

test("SIGINT in the middle of a reduction: exit 130, the output exists and is interesting, the input is unchanged, no temp dir left", async () => {
  const dir = scratch();
  const input = join(dir, "in.txt");
  const original = Array.from({ length: 64 }, (_, i) => (i === 41 ? "KEEP\n" : `filler ${i}\n`)).join("");
  writeFileSync(input, original);
  const oracle = script(dir, "slow.sh", 'sleep 0.2; grep -q KEEP "$1"');
  const tmp = scratch("whittle-tmproot-");
  const output = join(dir, "out.txt");
  let pid = 0;
  const running = runWhittle(
    [input, "--atom=char", "-j", "2", "-o", output, "--stats", join(dir, "s.json"), "--test", oracle],
    {
      env: { TMPDIR: tmp },
      onSpawn: (p) => (pid = p),
    },
  );
  // Wait until the reduction has made some progress, then interrupt it.
  for (let i = 0; i < 100 && !(existsSync(output) && readFileSync(output).length < original.length); i++)
    await sleep(100);
  await sleep(300);
  process.kill(pid, "SIGINT");
  const run = await running;
  assert.equal(run.code, 130, run.stderr);
  assert.match(run.stderr, /interrupted/);
  assert.equal(readFileSync(input, "utf8"), original);
  const best = readFileSync(output, "utf8");
  assert.ok(best.length < original.length, "some progress was kept");
  assert.ok(best.includes("KEEP"), "the output is interesting");
  execFileSync(oracle, [output]); // throws unless the oracle agrees
  const stats = JSON.parse(readFileSync(join(dir, "s.json"), "utf8")) as { result: string };
  assert.equal(stats.result, "interrupted");
  assert.deepEqual(readdirSync(tmp), [], "no temporary directory is left behind");
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.includes(".tmp")),
    [],
    "no half-written output file",
  );
});

test("--in-place on a full file system: exit 2 before any test runs, and no partial backup is left", async (t) => {
  const dir = scratch();
  const small = join(dir, "small");
  mkdirSync(small);
  const unmount = mountTmpfs(small, "64k");
  if (!unmount) return t.skip("cannot mount a tmpfs here (needs root)");
  try {
    const input = join(small, "w.txt");
    // 40 KiB of the 64 KiB: its copy cannot fit beside it.
    const original = Array.from({ length: 4000 }, (_, i) =>
      i === 2000 ? "KEEP56789\n" : "filler 89\n",
    ).join("");
    writeFileSync(input, original);
    const ran = join(dir, "ran");
    const oracle = script(dir, "t.sh", `echo x >> ${ran}; grep -q KEEP "$1"`);
    for (let i = 0; i < 2; i++) {
      const run = await runWhittle([input, "--in-place", "--atom=line", "--test", oracle]);
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, /error: cannot back up \S*w\.txt as \S*w\.txt\.orig: .*no space left/i);
      assert.deepEqual(
        readdirSync(small),
        ["w.txt"],
        "no partial backup: the next run backs up to w.txt.orig again",
      );
      assert.equal(readFileSync(input, "utf8"), original);
    }
    assert.ok(!existsSync(ran), "no test ran");
  } finally {
    unmount();
  }
});
