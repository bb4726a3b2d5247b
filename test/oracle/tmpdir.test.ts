/**
 * TMPDIR problems are named precisely: missing, not a directory, not writable (up front, when the run
 * directory is made) and full (also in the middle of a run, when a test's sandbox is made).
 */
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test, type TestContext } from "node:test";

import { WhittleError } from "../../src/errors.js";
import { CommandOracle } from "../../src/oracle/command.js";
import { createRunDir } from "../../src/oracle/tmpdir.js";
import { mountTmpfs } from "../helpers/tmpfs.js";

function base(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), "whittle-tmpdir-test-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Runs `fn` with TMPDIR set to `value`. */
function withTmpdir<T>(value: string, fn: () => T): T {
  const saved = process.env["TMPDIR"];
  process.env["TMPDIR"] = value;
  try {
    return fn();
  } finally {
    if (saved === undefined) delete process.env["TMPDIR"];
    else process.env["TMPDIR"] = saved;
  }
}

function assertTmpdirError(fn: () => unknown, message: RegExp): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof WhittleError, String(error));
    assert.equal(error.code, "tmpdir");
    assert.match(error.message, message);
    return true;
  });
}

test("createRunDir makes one whittle-XXXXXX directory in TMPDIR", (t) => {
  const dir = base(t);
  const run = withTmpdir(dir, () => createRunDir());
  assert.match(run, /\/whittle-[A-Za-z0-9]{6}$/);
  assert.deepEqual(readdirSync(dir), [run.slice(dir.length + 1)]);
});

test("a missing TMPDIR, or one that is a file: WhittleError('tmpdir') naming TMPDIR and its value", (t) => {
  const dir = base(t);
  const missing = join(dir, "no-such-dir");
  withTmpdir(missing, () =>
    assertTmpdirError(() => createRunDir(), new RegExp(`TMPDIR=${missing} does not exist`)),
  );
  const file = join(dir, "a-file");
  writeFileSync(file, "");
  withTmpdir(file, () =>
    assertTmpdirError(() => createRunDir(), new RegExp(`TMPDIR=${file} is not a directory`)),
  );
});

test("a TMPDIR that is not writable: WhittleError('tmpdir') saying so", (t) => {
  const dir = base(t);
  const locked = join(dir, "locked");
  mkdirSync(locked);
  let unmount: (() => void) | undefined;
  if (process.getuid?.() === 0) {
    // root writes through permissions: a read-only file system it is.
    unmount = mountTmpfs(locked, "64k", true);
    if (!unmount) return t.skip("running as root without the right to mount a read-only tmpfs");
  } else {
    chmodSync(locked, 0o555);
  }
  try {
    withTmpdir(locked, () =>
      assertTmpdirError(() => createRunDir(), new RegExp(`TMPDIR=${locked} is not writable \\(E`)),
    );
  } finally {
    unmount?.();
    chmodSync(locked, 0o755);
  }
});

test("a full TMPDIR in the middle of a run: the oracle rejects with WhittleError('tmpdir') saying it is full, and leaves nothing there", async (t) => {
  const dir = base(t);
  const small = join(dir, "small");
  mkdirSync(small);
  const unmount = mountTmpfs(small, "64k");
  if (!unmount) return t.skip("cannot mount a tmpfs here (needs root)");
  try {
    const oracle = new CommandOracle({ command: ["true"], fileName: "big.txt", tmpRoot: small });
    // A candidate that fits runs; one larger than the whole file system cannot be written.
    assert.equal(await oracle.test(new Uint8Array(1024)), "interesting");
    await assert.rejects(oracle.run(new Uint8Array(128 * 1024)), (error: unknown) => {
      assert.ok(error instanceof WhittleError, String(error));
      assert.equal(error.code, "tmpdir");
      assert.match(error.message, /TMPDIR.* is full \(no space left on the device\)/);
      assert.match(error.message, new RegExp(`at ${small}`));
      return true;
    });
    assert.deepEqual(readdirSync(small), [], "the half-made sandbox is removed");
  } finally {
    unmount();
  }
});
