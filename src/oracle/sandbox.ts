/**
 * What keeps one run of the interestingness test contained: a fresh temporary directory holding the
 * candidate, and the process group the test runs in (so that everything it started can be killed).
 */
import { mkdtempSync, readdirSync, readFileSync, rmdirSync, unlinkSync, writeFileSync } from "node:fs";
import { rm, rmdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

/** A fresh directory holding one candidate file. */
export interface Sandbox {
  /** Absolute path of the directory. */
  readonly dir: string;
  /** Absolute path of the candidate inside `dir`. */
  readonly file: string;
}

/** Candidates up to this size are written synchronously: a few hundred µs, far cheaper than a thread-pool round trip. */
const SYNC_WRITE_LIMIT = 1 << 20;

/** Makes a new directory below `root` (default `os.tmpdir()`) and writes `content` into it as `fileName`. */
export async function createSandbox(
  root: string | undefined,
  fileName: string,
  content: Uint8Array,
): Promise<Sandbox> {
  // The synchronous calls are deliberate: this runs once per test, and together they take well under
  // a millisecond, while their promise-based twins cost one to two milliseconds per test.
  const dir = mkdtempSync(join(resolve(root ?? tmpdir()), "whittle-"));
  const file = join(dir, fileName);
  try {
    if (content.length <= SYNC_WRITE_LIMIT) writeFileSync(file, content);
    else await writeFile(file, content);
  } catch (error) {
    await removeSandbox(dir);
    throw error;
  }
  return { dir, file };
}

/**
 * Removes a sandbox directory and everything in it. Best effort: a test that left something behind
 * that cannot be removed must not fail the reduction, so errors are swallowed. The usual case (only
 * the candidate is there) takes two quick system calls; anything else the test left is removed
 * recursively. With `inThreadPool` the rmdir runs off the main thread (it can take milliseconds:
 * about 2 ms on an ext4 file system mounted with `discard`, which trims the freed block at once).
 */
export async function removeSandbox(dir: string, fileName?: string, inThreadPool = false): Promise<void> {
  if (fileName !== undefined) {
    try {
      unlinkSync(join(dir, fileName));
      if (inThreadPool) await rmdir(dir);
      else rmdirSync(dir);
      return;
    } catch {
      // the test left other files, or removed or renamed the candidate: fall through
    }
  }
  await rm(dir, { recursive: true, force: true, maxRetries: 2 }).catch(() => undefined);
}

/**
 * Sends `sig` (or 0, to probe) to every process in the group `pgid`. Returns false when the group no
 * longer exists (ESRCH) or none of its members may be signalled (EPERM), true otherwise.
 *
 * Note that members that have died but are not reaped yet (zombies) still count as existing.
 */
export function signalGroup(pgid: number, sig: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, sig);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ESRCH" || code === "EPERM") return false;
    throw error;
  }
}

/**
 * Whether the group `pgid` still has a member that is alive. Killed processes whose parent is gone
 * are reaped by init, which may take seconds (about 2 s on some VMs); such zombies hold nothing and
 * run nothing, so on Linux, where /proc tells a zombie apart, they do not count.
 */
export function groupAlive(pgid: number): boolean {
  if (!signalGroup(pgid, 0)) return false;
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return true; // no /proc: cannot tell zombies apart
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "latin1");
    } catch {
      continue; // exited meanwhile
    }
    // "pid (comm) state ppid pgrp …": comm may contain spaces and parentheses, so split after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === pgid && fields[0] !== "Z" && fields[0] !== "X") return true;
  }
  return false;
}

/** Polls until the group `pgid` has no live member; gives up after `limitMs`. Returns whether it is gone. */
export async function waitForGroupGone(pgid: number, limitMs: number): Promise<boolean> {
  const deadline = performance.now() + limitMs;
  let pause = 2;
  while (groupAlive(pgid)) {
    const left = deadline - performance.now();
    if (left <= 0) return false;
    await delay(Math.min(pause, left));
    pause = Math.min(pause * 2, 50);
  }
  return true;
}

/** Resolves after `ms` milliseconds. */
export function delay(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}
