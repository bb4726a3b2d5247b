/**
 * The command keeps the user's files safe and means what its command line says: each case here was
 * once a way to lose data or to run something other than what the user wrote.
 */
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { MAIN, runWhittle, scratch } from "../helpers/cli.js";

function script(dir: string, name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/usr/bin/env bash\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

/** 30 lines with BUG on line 17, and a test that looks for it. */
function bugCase(): { dir: string; input: string; original: string; t: string } {
  const dir = scratch();
  const original = Array.from({ length: 30 }, (_, i) => (i === 16 ? "BUG\n" : `line ${i + 1}\n`)).join("");
  const input = join(dir, "in.txt");
  writeFileSync(input, original);
  return { dir, input, original, t: script(dir, "t.sh", 'grep -q BUG "$1"') };
}

test("--stats may not name the input, the output or the backup: exit 2, nothing touched", async () => {
  const { dir, input, original, t } = bugCase();
  const asInput = await runWhittle([input, "--stats", input, "-q", "--test", t]);
  assert.equal(asInput.code, 2);
  assert.match(asInput.stderr, /--stats .* would overwrite the input/);
  assert.equal(readFileSync(input, "utf8"), original);

  const out = join(dir, "out.txt");
  writeFileSync(out, "an older result\n");
  const asOutput = await runWhittle([input, "-o", out, "--stats", out, "-q", "--test", t]);
  assert.equal(asOutput.code, 2);
  assert.match(asOutput.stderr, /would overwrite the output/);
  assert.equal(readFileSync(out, "utf8"), "an older result\n");

  const asBackup = await runWhittle([input, "--in-place", "--stats", `${input}.orig`, "-q", "--test", t]);
  assert.equal(asBackup.code, 2);
  assert.match(asBackup.stderr, /would overwrite the backup/);
  assert.equal(readFileSync(input, "utf8"), original);

  const viaLink = join(dir, "link.txt");
  symlinkSync(input, viaLink);
  const asLink = await runWhittle([input, "--stats", viaLink, "-q", "--test", t]);
  assert.equal(asLink.code, 2, "a symlink to the input is the input");
  assert.equal(readFileSync(input, "utf8"), original);
  assert.deepEqual(readdirSync(dir).sort(), ["in.txt", "link.txt", "out.txt", "t.sh"]);
});

test("an unwritable --stats is refused before any test runs", async () => {
  const { dir, input, t } = bugCase();
  const ran = join(dir, "ran");
  const counting = script(dir, "count.sh", `echo x >> ${ran}; grep -q BUG "$1"`);
  const run = await runWhittle([input, "--stats", join(dir, "no/such/dir/s.json"), "--test", counting]);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /cannot write the statistics to .*no\/such\/dir/);
  assert.ok(!existsSync(ran), "no test ran");
  assert.ok(!existsSync(join(dir, "in.reduced.txt")));
  void t;
});

test("--in-place: the backup is the bytes read at the start; a test that writes $WHITTLE_INPUT cannot destroy it", async () => {
  const { dir, input, original } = bugCase();
  const vandal = script(dir, "vandal.sh", 'echo garbage > "$WHITTLE_INPUT"; grep -q BUG "$1"');
  const run = await runWhittle([input, "--in-place", "--atom=line", "--test", vandal]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(readFileSync(`${input}.orig`, "utf8"), original, "the backup holds the original");
  assert.equal(readFileSync(input, "utf8"), "BUG\n", "the input holds the result");
  assert.match(run.stderr, /the test changed .*in\.txt\.orig; whittle wrote the original bytes back/);
});

test("the input, if a test writes to it, holds the original again at the end", async () => {
  const { dir, input, original } = bugCase();
  const vandal = script(dir, "vandal.sh", 'echo garbage > "$WHITTLE_INPUT"; grep -q BUG "$1"');
  const run = await runWhittle([input, "-q", "--atom=line", "--test", vandal]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(readFileSync(input, "utf8"), original);
  assert.equal(readFileSync(join(dir, "in.reduced.txt"), "utf8"), "BUG\n");
});

test("--in-place keeps the mode (600, the exec bit) and the owner, and reduces a symlink's target", async () => {
  const { dir, input, original, t } = bugCase();
  chmodSync(input, 0o700);
  const root = process.getuid?.() === 0;
  if (root) chownSync(input, 65534, 65534);
  const run = await runWhittle([input, "--in-place", "-q", "--atom=line", "--test", t]);
  assert.equal(run.code, 0, run.stderr);
  const after = statSync(input);
  assert.equal(after.mode & 0o7777, 0o700);
  assert.equal(statSync(`${input}.orig`).mode & 0o7777, 0o700, "the backup too");
  if (root) assert.deepEqual([after.uid, after.gid], [65534, 65534]);
  assert.equal(readFileSync(`${input}.orig`, "utf8"), original);

  const target = join(dir, "real.txt");
  writeFileSync(target, original);
  chmodSync(target, 0o600);
  const link = join(dir, "link.txt");
  symlinkSync("real.txt", link);
  const viaLink = await runWhittle([link, "--in-place", "-q", "--atom=line", "--test", t]);
  assert.equal(viaLink.code, 0, viaLink.stderr);
  assert.ok(lstatSync(link).isSymbolicLink(), "the link is still a link");
  assert.equal(readlinkSync(link), "real.txt");
  assert.equal(readFileSync(target, "utf8"), "BUG\n", "its target was reduced");
  assert.equal(statSync(target).mode & 0o7777, 0o600);
  assert.equal(readFileSync(`${link}.orig`, "utf8"), original);
});

test("-o onto a FIFO writes the result into it; the FIFO stays a FIFO", async () => {
  const { dir, input, t } = bugCase();
  const fifo = join(dir, "pipe");
  execFileSync("mkfifo", [fifo]);
  const reader = new Promise<string>((resolve, reject) => {
    const cat = spawn("cat", [fifo]);
    let out = "";
    cat.stdout.on("data", (d: Buffer) => (out += d.toString()));
    cat.on("error", reject);
    cat.on("close", () => resolve(out));
  });
  const run = await runWhittle([input, "-o", fifo, "-q", "--atom=line", "--test", t]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(await reader, "BUG\n");
  assert.ok(lstatSync(fifo).isFIFO());
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.includes("whittle")),
    [],
    "no temporary file beside it",
  );
});

test("-o onto a character device writes into the device, never replaces it", async (t) => {
  const { dir, input, t: oracle } = bugCase();
  const dev = join(dir, "null");
  try {
    execFileSync("mknod", [dev, "c", "1", "3"], { stdio: "ignore" });
  } catch {
    t.skip("mknod is not permitted here");
    return;
  }
  const run = await runWhittle([input, "-o", dev, "-q", "--atom=line", "--test", oracle]);
  assert.equal(run.code, 0, run.stderr);
  assert.ok(lstatSync(dev).isCharacterDevice());
});

test("-o - into a closed pipe: no stack trace; the result is saved elsewhere and the place printed", async () => {
  const { input, t } = bugCase();
  const tmp = scratch("whittle-fallback-");
  const run = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [MAIN, input, "-o", "-", "--atom=line", "--test", t], {
      env: { ...process.env, TMPDIR: tmp },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.destroy(); // the reader goes away before whittle writes
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code, stderr }));
  });
  assert.equal(run.code, 1, run.stderr);
  assert.doesNotMatch(run.stderr, /internal error|\n\s+at /);
  const saved = /saved as (\S+)/.exec(run.stderr)?.[1];
  assert.ok(saved !== undefined, run.stderr);
  assert.equal(readFileSync(saved, "utf8"), "BUG\n");
});

test("after INPUT, the first word that is not a whittle option starts the test: its options stay its own", async () => {
  const { dir, input } = bugCase();
  const out = join(dir, "x.txt");
  // -q and -v belong to grep here: whittle is not quiet, and grep -v would invert the test.
  const run = await runWhittle([input, "-o", out, "--atom=line", "grep", "-q", "BUG"]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /done: /, "whittle was not made quiet by grep's -q");
  assert.equal(readFileSync(out, "utf8"), "BUG\n");

  const inverted = await runWhittle([input, "-o", out, "--atom=line", "grep", "-v", "BUG"]);
  // grep -v BUG matches the other lines: the result keeps one line that is not BUG.
  assert.equal(inverted.code, 0, inverted.stderr);
  assert.doesNotMatch(readFileSync(out, "utf8"), /BUG/, "the test that was written ran, not its opposite");
  assert.doesNotMatch(inverted.stderr, /improved:/, "and -v did not turn on whittle's --verbose");
});

test('"{}" inside an argument is substituted; a relative PATH entry works in the test\'s directory', async () => {
  const { dir, input } = bugCase();
  const out = join(dir, "out.txt");
  const viaFlag = await runWhittle([
    input,
    "-q",
    "--atom=line",
    "-o",
    out,
    "--",
    "bash",
    "-c",
    'grep -q BUG "${1#--file=}"',
    "check",
    "--file={}",
  ]);
  assert.equal(viaFlag.code, 0, viaFlag.stderr);
  assert.equal(readFileSync(out, "utf8"), "BUG\n");

  mkdirSync(join(dir, "bin"));
  script(join(dir, "bin"), "has-bug", 'grep -q BUG "$1"');
  const relPath = await runWhittle([input, "-q", "--atom=line", "-o", out, "--", "has-bug"], {
    cwd: dir,
    env: { PATH: `bin:${process.env["PATH"]}` },
  });
  assert.equal(relPath.code, 0, relPath.stderr);
  assert.equal(readFileSync(out, "utf8"), "BUG\n");
});

test("option errors name the option as the user wrote it", async () => {
  const { input, t } = bugCase();
  const run = await runWhittle([input, "--timeout", "0.0000001", "--test", t]);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /--timeout/);
  assert.doesNotMatch(run.stderr, /timeoutMs/);
});

test("a deleted working directory is a clear usage error", async () => {
  const { input, t } = bugCase();
  const gone = scratch();
  const run = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
    // The shell enters the directory, removes it, then starts whittle there.
    const child = spawn(
      "bash",
      ["-c", `cd "${gone}" && rmdir "${gone}" && exec "$0" "$@"`, process.execPath, MAIN, input, "--test", t],
      {
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code, stderr }));
  });
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /current directory no longer exists/);
});

test("a file name with quotes, $() and backticks: the printed reproduction runs as is and runs nothing else", async () => {
  const dir = scratch();
  const name = "we\"ird $(touch PWNED) `touch PWNED2` 'q'.txt";
  const input = join(dir, name);
  writeFileSync(input, "no bug here\n");
  const t = script(dir, "t.sh", 'grep -q BUG "$1"');
  const run = await runWhittle([input, "--test", t], { cwd: dir });
  assert.equal(run.code, 3);
  const line = run.stderr.split("\n").find((l) => l.includes("d=$(mktemp -d)"));
  assert.ok(line !== undefined, run.stderr);
  const reproduce = line.replace(/^whittle:\s+/, "");
  const out = execFileSync("bash", ["-c", reproduce], { cwd: dir, encoding: "utf8" });
  assert.match(out, /exit 1/, "the test ran on the copy and said not interesting");
  assert.ok(!existsSync(join(dir, "PWNED")) && !existsSync(join(dir, "PWNED2")), "nothing was executed");
});

/**
 * A run with `-j jobs` whose test accepts everything: warned that the empty input is interesting,
 * the result empty. Gives what the test's runs wrote (a line each) and the statistics.
 */
async function laxRun(jobs: number): Promise<{ ran: string; stats: Record<string, unknown> }> {
  const { dir, input } = bugCase();
  const ran = join(dir, "ran");
  const lax = script(dir, "lax.sh", `echo x >> ${ran}; exit 0`);
  const stats = join(dir, "s.json");
  const run = await runWhittle([input, "-j", String(jobs), "--stats", stats, "--test", lax]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /finds the EMPTY input interesting/);
  assert.equal(readFileSync(join(dir, "in.reduced.txt"), "utf8"), "");
  return {
    ran: readFileSync(ran, "utf8"),
    stats: JSON.parse(readFileSync(stats, "utf8")) as Record<string, unknown>,
  };
}

test("a test that accepts the empty input: warned, the result is empty, no other test runs", async () => {
  // One job: nothing runs beside the check of the empty input (with more, see the next test).
  const { ran, stats: s } = await laxRun(1);
  assert.equal(
    ran,
    "x\nx\nx\n",
    "the original, the empty input and the final re-test of the (empty) result, nothing else",
  );
  assert.deepEqual([s.tests, s.checks, s.emptyIsInteresting], [0, 2, true]);
});

test("with -j 2, a test that accepts the empty input: warned, the result is empty, at most 2 tests beside the check", async () => {
  const { ran, stats: s } = await laxRun(2);
  const runs = ran.length / 2;
  const tests = s.tests as number;
  // The original, the empty input, the final re-test, and what ran in the other slot meanwhile: the
  // pass asks for 2 candidates at once, and neither answer reaches it before the check's.
  assert.ok(tests <= 2, `tests: ${tests}`);
  // (one may have been cancelled before it wrote its line)
  assert.ok(runs >= 3 && runs <= 3 + tests, `runs: ${runs}`);
  assert.equal(s.checks, 2);
});

test("--stats is written on every exit path: not interesting, failed", async () => {
  const { dir, input } = bugCase();
  const stats = join(dir, "s.json");
  const no = script(dir, "no.sh", "exit 1");
  assert.equal((await runWhittle([input, "--stats", stats, "--test", no])).code, 3);
  assert.equal((JSON.parse(readFileSync(stats, "utf8")) as { result: string }).result, "not-interesting");
});

test("an output that cannot be written mid-run is reported at once; the result is saved elsewhere at the end", async () => {
  const { dir, input, original } = bugCase();
  const slow = script(dir, "slow.sh", 'sleep 0.05; grep -q BUG "$1"');
  const out = join(dir, "out.txt");
  const tmp = scratch("whittle-fallback-");
  let pid = 0;
  const running = runWhittle([input, "-o", out, "-j", "1", "--atom=line", "--test", slow], {
    env: { TMPDIR: tmp },
    onSpawn: (p) => (pid = p),
  });
  // Wait for the original to be written, then block the temporary name every later write needs.
  for (let i = 0; i < 200 && !existsSync(out); i++) await sleep(20);
  mkdirSync(join(dir, `.out.txt.whittle-${pid}.tmp`));
  writeFileSync(join(dir, `.out.txt.whittle-${pid}.tmp`, "x"), "");
  const run = await running;
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stderr, /warning: cannot write the result to .*out\.txt/);
  assert.equal(readFileSync(out, "utf8"), original, "the output still holds an interesting result");
  const saved = /saved as (\S+)/.exec(run.stderr)?.[1];
  assert.ok(saved !== undefined, run.stderr);
  assert.equal(readFileSync(saved, "utf8"), "BUG\n");
  rmSync(join(dir, `.out.txt.whittle-${pid}.tmp`), { recursive: true });
});

test("an initial check that takes long says that it is waiting, and for how long", async () => {
  const dir = scratch();
  const input = join(dir, "in.txt");
  writeFileSync(input, "x\n");
  // Only the first run (the initial check) is slow: the check is what the message is about.
  const slow = script(
    dir,
    "slow.sh",
    `grep -q x "$1" || exit 1; [ -e ${join(dir, "ran")} ] && exit 0; touch ${join(dir, "ran")}; sleep 5.6`,
  );
  const run = await runWhittle([input, "--atom=line", "--test", slow]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /waiting for the test for 5\.\d s \(limit 5 min 0 s\)/);
});

test("a test that writes to the input and is not interesting: exit 3, and the input holds the original", async () => {
  const { dir, input, original } = bugCase();
  const vandal = script(dir, "vandal.sh", 'echo garbage > "$WHITTLE_INPUT"; exit 1');
  const run = await runWhittle([input, "--test", vandal]);
  assert.equal(run.code, 3, run.stderr);
  assert.equal(readFileSync(input, "utf8"), original);
  assert.match(run.stderr, /the test changed .*in\.txt; whittle wrote the original bytes back/);
});

test("--in-place on an input that is not interesting: exit 3, the input untouched, no backup left", async () => {
  const { dir, input, original } = bugCase();
  const no = script(dir, "no.sh", "exit 1");
  const run = await runWhittle([input, "--in-place", "--test", no]);
  assert.equal(run.code, 3, run.stderr);
  assert.equal(readFileSync(input, "utf8"), original);
  assert.ok(!existsSync(`${input}.orig`), "the backup of a run that changed nothing is removed");
});

test("--in-place keeps setuid, setgid and sticky bits on the reduced file and on the backup", async () => {
  // Given away (root only), the file's bits must survive chown() as well as the write.
  const root = process.getuid?.() === 0;
  for (const mode of [0o4755, 0o2755, 0o6755, 0o1755]) {
    const { input, t: oracle } = bugCase();
    if (root) chownSync(input, 65534, 65534);
    chmodSync(input, mode);
    assert.equal(statSync(input).mode & 0o7777, mode);
    const run = await runWhittle([input, "--in-place", "-q", "--atom=line", "--test", oracle]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal((statSync(input).mode & 0o7777).toString(8), mode.toString(8), "the reduced file");
    assert.equal((statSync(`${input}.orig`).mode & 0o7777).toString(8), mode.toString(8), "the backup");
    if (root) assert.deepEqual([statSync(input).uid, statSync(`${input}.orig`).gid], [65534, 65534]);
  }
});

test("a symlinked input that the test writes through is restored into the link's target; the link stays a link", async () => {
  const { dir, input, original } = bugCase();
  const target = join(dir, "target.txt");
  writeFileSync(target, original);
  chmodSync(target, 0o640);
  const link = join(dir, "link.txt");
  symlinkSync("target.txt", link);
  const hard = join(dir, "hard.txt");
  execFileSync("ln", [target, hard]);
  const vandal = script(dir, "vandal.sh", 'echo garbage > "$WHITTLE_INPUT"; grep -q BUG "$1"');
  const run = await runWhittle([link, "-o", join(dir, "out.txt"), "--atom=line", "--test", vandal]);
  assert.equal(run.code, 0, run.stderr);
  assert.ok(lstatSync(link).isSymbolicLink(), "the link is still a link");
  assert.equal(readlinkSync(link), "target.txt");
  assert.equal(readFileSync(target, "utf8"), original, "the user's file holds the original again");
  assert.equal(statSync(target).mode & 0o7777, 0o640, "with its mode");
  assert.equal(statSync(hard).ino, statSync(target).ino, "rewritten in place: a hard link to it sees it too");
  assert.match(
    run.stderr,
    /warning: the test changed \S*target\.txt \(the target of the symlink \S*link\.txt\); whittle wrote the original bytes back into \S*target\.txt/,
  );
  assert.equal(readFileSync(join(dir, "out.txt"), "utf8"), "BUG\n");
  void input;

  // A test that replaces the link itself by a file: the link is made again, the target untouched.
  const replacer = script(
    dir,
    "replacer.sh",
    'rm -f "$WHITTLE_INPUT"; echo garbage > "$WHITTLE_INPUT"; grep -q BUG "$1"',
  );
  const replaced = await runWhittle([
    link,
    "-o",
    join(dir, "out.txt"),
    "-q",
    "--atom=line",
    "--test",
    replacer,
  ]);
  assert.equal(replaced.code, 0, replaced.stderr);
  assert.ok(lstatSync(link).isSymbolicLink(), "the link is a link again");
  assert.equal(readlinkSync(link), "target.txt");
  assert.equal(readFileSync(target, "utf8"), original);
  assert.match(
    replaced.stderr,
    /warning: the test replaced the symlink \S*link\.txt; whittle made it a symlink to target\.txt again/,
  );
});

test("--in-place on a symlink, with a test that writes $WHITTLE_INPUT: the backup is restored, the link stays a link to the result", async () => {
  const { dir, original } = bugCase();
  const target = join(dir, "target.txt");
  writeFileSync(target, original);
  const link = join(dir, "link.txt");
  symlinkSync("target.txt", link);
  const vandal = script(dir, "vandal.sh", 'echo garbage > "$WHITTLE_INPUT"; grep -q BUG "$1"');
  const run = await runWhittle([link, "--in-place", "--atom=line", "--test", vandal]);
  assert.equal(run.code, 0, run.stderr);
  assert.ok(lstatSync(link).isSymbolicLink());
  assert.equal(readlinkSync(link), "target.txt");
  assert.equal(readFileSync(target, "utf8"), "BUG\n", "the target holds the result");
  assert.ok(lstatSync(`${link}.orig`).isFile());
  assert.equal(readFileSync(`${link}.orig`, "utf8"), original, "the backup holds the original");
  assert.match(run.stderr, /the test changed \S*link\.txt\.orig; whittle wrote the original bytes back/);
});

test("-o and --stats may not name an existing backup of the input, by any name; no test runs", async () => {
  const { dir, input, original, t } = bugCase();
  const ran = join(dir, "ran");
  const counting = script(dir, "count.sh", `echo x >> ${ran}; grep -q BUG "$1"`);
  const first = await runWhittle([input, "--in-place", "-q", "--atom=line", "--test", t]);
  assert.equal(first.code, 0, first.stderr);
  const backup = `${input}.orig`;
  assert.equal(readFileSync(backup, "utf8"), original);
  symlinkSync(backup, join(dir, "via-link"));
  execFileSync("ln", [backup, join(dir, "hard-link")]);
  for (const name of [backup, join(dir, "via-link"), join(dir, "hard-link"), join(dir, ".", "in.txt.orig")]) {
    const stats = await runWhittle([input, "--in-place", "--stats", name, "--test", counting]);
    assert.equal(stats.code, 2, stats.stderr);
    assert.match(
      stats.stderr,
      /--stats \S+ would overwrite \S*in\.txt\.orig, a backup of the input: name another file/,
    );
    const out = await runWhittle([input, "-o", name, "--test", counting]);
    assert.equal(out.code, 2, out.stderr);
    assert.match(
      out.stderr,
      /the output \S+ would overwrite \S*in\.txt\.orig, a backup of the input: name another file/,
    );
  }
  assert.equal(readFileSync(backup, "utf8"), original, "the only copy of the original is intact");
  assert.ok(!existsSync(ran), "no test ran");
  assert.ok(!existsSync(`${input}.orig.1`), "no second backup was made");
});

test("--stats overwrites only a statistics file whittle wrote (or an empty file); any other file is refused", async () => {
  const { dir, input, t } = bugCase();
  const notes = join(dir, "notes.txt");
  writeFileSync(notes, "my notes\n");
  const refused = await runWhittle([input, "-q", "--atom=line", "--stats", notes, "--test", t]);
  assert.equal(refused.code, 2, refused.stderr);
  assert.match(
    refused.stderr,
    /--stats \S*notes\.txt would overwrite a file that is not a statistics file of whittle/,
  );
  assert.equal(readFileSync(notes, "utf8"), "my notes\n");
  assert.ok(!existsSync(join(dir, "in.reduced.txt")), "refused before anything was written");

  const json = join(dir, "other.json");
  writeFileSync(json, '{"result": "done", "tests": 3}\n');
  const lookalike = await runWhittle([input, "-q", "--atom=line", "--stats", json, "--test", t]);
  assert.equal(lookalike.code, 2, "JSON without whittle's mark is not whittle's");
  assert.equal(readFileSync(json, "utf8"), '{"result": "done", "tests": 3}\n');

  const stats = join(dir, "s.json");
  writeFileSync(stats, "");
  for (let i = 0; i < 2; i++) {
    const run = await runWhittle([input, "-q", "--atom=line", "--stats", stats, "--test", t]);
    assert.equal(run.code, 0, run.stderr);
    const s = JSON.parse(readFileSync(stats, "utf8")) as { whittle: { stats: number }; result: string };
    assert.equal(s.result, "done");
    assert.equal(s.whittle.stats, 1);
  }
});

/** Starts whittle with `args`; resolves `notice` when stderr first matches `pattern`. */
function startWhittle(args: string[], env: Record<string, string>, pattern: RegExp) {
  const child = spawn(process.execPath, [MAIN, ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  let seen: () => void = () => undefined;
  const notice = new Promise<void>((resolve) => (seen = resolve));
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
    if (pattern.test(stderr)) seen();
  });
  const done = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on("close", (code) => resolve({ code, stderr })),
  );
  return { child, notice, done };
}

test("-o onto a FIFO that nobody reads: whittle says it waits; SIGINT or SIGTERM ends the wait with exit 130 and the result saved elsewhere", async () => {
  for (const sig of ["SIGINT", "SIGTERM"] as const) {
    const { dir, input, t } = bugCase();
    const fifo = join(dir, "pipe");
    execFileSync("mkfifo", [fifo]);
    const tmp = scratch("whittle-fallback-");
    const run = startWhittle(
      [input, "-o", fifo, "-q", "--atom=line", "--test", t],
      { TMPDIR: tmp },
      /waiting for a reader/,
    );
    await Promise.race([run.notice, run.done]);
    run.child.kill(sig);
    const { code, stderr } = await run.done;
    assert.equal(code, 130, `${sig}: ${stderr}`);
    assert.match(stderr, /whittle: waiting for a reader of the FIFO \S*pipe to write the result into/);
    assert.doesNotMatch(stderr, /still stopping/);
    const saved = /saved as (\S+)/.exec(stderr)?.[1];
    assert.ok(saved !== undefined, stderr);
    assert.ok(saved.startsWith(tmp), saved);
    assert.equal(readFileSync(saved, "utf8"), "BUG\n");
    assert.ok(lstatSync(fifo).isFIFO());
  }
});

test("-o onto a FIFO: a reader that comes while whittle waits gets the result; exit 0", async () => {
  const { dir, input, t } = bugCase();
  const fifo = join(dir, "pipe");
  execFileSync("mkfifo", [fifo]);
  const run = startWhittle([input, "-o", fifo, "-q", "--atom=line", "--test", t], {}, /waiting for a reader/);
  await Promise.race([run.notice, run.done]);
  const got = execFileSync("cat", [fifo], { encoding: "utf8" });
  const { code, stderr } = await run.done;
  assert.equal(code, 0, stderr);
  assert.equal(got, "BUG\n");
  assert.match(stderr, /waiting for a reader of the FIFO/);
});

test("--stats onto a device or a FIFO writes into it and never replaces it; through a symlink, into the link's target", async (t) => {
  const { dir, input, t: oracle } = bugCase();
  const fifo = join(dir, "stats-pipe");
  execFileSync("mkfifo", [fifo]);
  const cat = spawn("cat", [fifo]);
  const reader = new Promise<string>((resolve, reject) => {
    let out = "";
    cat.stdout.on("data", (d: Buffer) => (out += d.toString()));
    cat.on("error", reject);
    cat.on("close", () => resolve(out));
  });
  const viaFifo = await runWhittle([input, "-q", "--atom=line", "--stats", fifo, "--test", oracle]);
  assert.equal(viaFifo.code, 0, viaFifo.stderr);
  if (!lstatSync(fifo).isFIFO()) cat.kill(); // its FIFO is gone: nothing will ever write to it
  assert.ok(lstatSync(fifo).isFIFO(), "the FIFO stays a FIFO");
  assert.equal((JSON.parse(await reader) as { result: string }).result, "done");

  const stats = join(dir, "s.json");
  writeFileSync(stats, "");
  const link = join(dir, "s-link.json");
  symlinkSync("s.json", link);
  const viaLink = await runWhittle([input, "-q", "--atom=line", "--stats", link, "--test", oracle]);
  assert.equal(viaLink.code, 0, viaLink.stderr);
  assert.ok(lstatSync(link).isSymbolicLink(), "the link stays a link");
  assert.equal((JSON.parse(readFileSync(stats, "utf8")) as { result: string }).result, "done");

  const dev = join(dir, "null");
  try {
    execFileSync("mknod", [dev, "c", "1", "3"], { stdio: "ignore" });
  } catch {
    return t.skip("mknod is not permitted here");
  }
  const run = await runWhittle([input, "-q", "--atom=line", "--stats", dev, "--test", oracle]);
  assert.equal(run.code, 0, run.stderr);
  assert.ok(lstatSync(dev).isCharacterDevice(), "the device stays a device (as /dev/null would)");
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.includes("whittle")),
    [],
    "no temporary file beside them",
  );
});

test("-o may not name a backup of a symlinked input's target either", async () => {
  const { dir, input, original, t } = bugCase();
  writeFileSync(`${input}.orig`, original);
  const link = join(dir, "link.txt");
  symlinkSync("in.txt", link);
  const run = await runWhittle([link, "-o", `${input}.orig`, "--test", t]);
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /would overwrite \S*in\.txt\.orig, a backup of the input/);
  assert.equal(readFileSync(`${input}.orig`, "utf8"), original);
});
