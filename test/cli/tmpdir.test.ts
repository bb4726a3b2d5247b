/**
 * The command and TMPDIR: an unusable TMPDIR is a usage error (exit 2) named before any test runs; a
 * TMPDIR that fills up mid-run stops the reduction with the best result kept and the reason given.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { runWhittle, scratch } from "../helpers/cli.js";
import { mountTmpfs } from "../helpers/tmpfs.js";

function script(dir: string, name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/usr/bin/env bash\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

test("TMPDIR missing or not a directory: exit 2 with a message naming TMPDIR and its value, before any test runs", async () => {
  const dir = scratch();
  const input = join(dir, "in.txt");
  writeFileSync(input, "a\nKEEP\n");
  const ran = join(dir, "ran");
  const oracle = script(dir, "t.sh", `touch ${ran}; grep -q KEEP "$1"`);
  const missing = join(dir, "no-such-dir");
  const file = join(dir, "a-file");
  writeFileSync(file, "");
  for (const [tmp, what] of [
    [missing, "does not exist"],
    [file, "is not a directory"],
  ] as const) {
    const run = await runWhittle([input, "--test", oracle], { env: { TMPDIR: tmp } });
    assert.equal(run.code, 2, run.stderr);
    assert.equal(
      run.stderr,
      `whittle: error: the temporary directory TMPDIR=${tmp} ${what}; set TMPDIR to a writable directory\n`,
    );
    assert.doesNotMatch(run.stderr, /internal error|^\s+at /m);
  }
  assert.ok(!existsSync(ran), "the test never ran");
  assert.ok(!existsSync(join(dir, "in.reduced.txt")), "no output was written");
});

test("TMPDIR fills up mid-run: exit 2, the reason named, the best result so far kept in the output, the run directory removed", async (t) => {
  const dir = scratch();
  const small = join(dir, "small");
  mkdirSync(small);
  const unmount = mountTmpfs(small, "64k");
  if (!unmount) return t.skip("cannot mount a tmpfs here (needs root)");
  try {
    const input = join(dir, "in.txt");
    const original = Array.from({ length: 32 }, (_, i) => (i === 5 ? "KEEP\n" : `line ${i}\n`)).join("");
    writeFileSync(input, original);
    // The fourth test fills the file system that TMPDIR is on (keeping its candidate's page, which
    // whittle would free by removing the sandbox); the tests before it make progress.
    const count = join(dir, "count");
    const oracle = script(
      dir,
      "t.sh",
      `echo x >> ${count}
grep -q KEEP "$1"; interesting=$?
if [ "$(wc -l < ${count})" -eq 4 ]; then
  mv "$1" ${small}/held; cat /dev/zero > ${small}/filler 2>/dev/null
fi
exit $interesting`,
    );
    const output = join(dir, "out.txt");
    const run = await runWhittle([input, "--atom=line", "-j", "1", "-o", output, "--test", oracle], {
      env: { TMPDIR: small },
    });
    assert.equal(run.code, 2, run.stderr);
    assert.match(
      run.stderr,
      new RegExp(`error: the temporary directory TMPDIR=${small} is full \\(no space left on the device\\)`),
    );
    assert.match(
      run.stderr,
      /failed: \d+ B → \d+ B .*\n(?:.*per pass \(tests.*\n)?.*Best result so far in .*out\.txt/,
    );
    assert.doesNotMatch(run.stderr, /internal error|^\s+at /m);
    assert.ok(
      readFileSync(count, "utf8").split("\n").length > 4,
      "the reduction ran after the initial check",
    );
    const best = readFileSync(output, "utf8");
    assert.ok(best.length < original.length, "progress made before the disk filled up is kept");
    execFileSync("grep", ["-q", "KEEP", output]); // the output is interesting
    assert.deepEqual(readdirSync(small).sort(), ["filler", "held"], "the run directory is gone");
  } finally {
    unmount();
  }
});
