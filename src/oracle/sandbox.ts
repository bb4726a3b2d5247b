/**
 * What keeps one run of the interestingness test contained: a fresh temporary directory holding the
 * candidate, and the process group the test runs in (so that everything it started can be killed).
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, renameSync, rmdirSync, unlinkSync, writeFileSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

import { makeTreeWritable } from "./remove-tree.js";
import { liveProcess } from "./run-processes.js";
import { isFullError, tmpdirError } from "./tmpdir.js";

/** A fresh directory holding one candidate file. */
export interface Sandbox {
  /** Absolute path of the directory. */
  readonly dir: string;
  /** Absolute path of the candidate inside `dir`. */
  readonly file: string;
}

/** Candidates up to this size are written synchronously: a few hundred µs, far cheaper than a thread-pool round trip. */
const SYNC_WRITE_LIMIT = 1 << 20;

/**
 * Makes a new directory below `root` (default `os.tmpdir()`) and writes `content` into it as
 * `fileName`. When the directory cannot be made, or the candidate cannot be written because the file
 * system is full, throws `WhittleError("tmpdir")` naming TMPDIR and what is wrong with it.
 */
export async function createSandbox(
  root: string | undefined,
  fileName: string,
  content: Uint8Array,
): Promise<Sandbox> {
  // The synchronous calls are deliberate: this runs once per test, and together they take well under
  // a millisecond, while their promise-based twins cost one to two milliseconds per test.
  const parent = resolve(root ?? tmpdir());
  let dir: string;
  try {
    dir = mkdtempSync(join(parent, "whittle-"));
  } catch (error) {
    throw tmpdirError(parent, error) ?? error;
  }
  return writeCandidate(parent, dir, fileName, content);
}

/**
 * Writes `content` into the fresh directory `dir` (below `parent`) as `fileName`. On failure the
 * directory is removed, and a full TMPDIR (ENOSPC, EDQUOT) becomes an error that says so.
 */
async function writeCandidate(
  parent: string,
  dir: string,
  fileName: string,
  content: Uint8Array,
): Promise<Sandbox> {
  const file = join(dir, fileName);
  try {
    if (content.length <= SYNC_WRITE_LIMIT) writeFileSync(file, content);
    else await writeFile(file, content);
  } catch (error) {
    await removeSandbox(dir);
    throw (isFullError(error) ? tmpdirError(parent, error) : undefined) ?? error;
  }
  return { dir, file };
}

/**
 * Removes a sandbox directory and everything in it. Best effort: a test that left something behind
 * that cannot be removed must not fail the reduction, so errors are swallowed. The usual case (only
 * the candidate is there) takes two quick system calls; anything else the test left is removed
 * recursively.
 */
export async function removeSandbox(dir: string, fileName?: string): Promise<void> {
  if (fileName !== undefined) {
    try {
      unlinkSync(join(dir, fileName));
      rmdirSync(dir);
      return;
    } catch {
      // the test left other files, or removed or renamed the candidate: fall through
    }
  }
  await removeWritable(dir);
}

/**
 * Removes `dir` recursively, also when the test made directories in it (or `dir` itself)
 * read-only: those are made writable and the removal is tried again. Never rejects; what still
 * cannot be removed stays, and the removal of the run directory reports it.
 */
function removeWritable(dir: string): Promise<void> {
  const remove = (): Promise<void> => rm(dir, { recursive: true, force: true, maxRetries: 2 });
  return remove()
    .catch(() => {
      makeTreeWritable(dir);
      return remove();
    })
    .catch(() => undefined);
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
  // The leader alive and still in its group answers at once, without reading every process.
  if (liveProcess(pgid)?.pgid === pgid) return true;
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return true; // no /proc: cannot tell zombies apart
  }
  for (const entry of entries) {
    if (/^\d+$/.test(entry) && liveProcess(Number(entry))?.pgid === pgid) return true;
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

/** Recyclers with spare directories, emptied when the process exits (see SandboxRecycler). */
const liveRecyclers = new Set<SandboxRecycler>();
let exitHookInstalled = false;

/**
 * Test directories for one oracle, recycled: after a test, an emptied directory is kept as a spare,
 * and the next test gets it under a new random name (a rename) instead of a new directory. Each test
 * still runs in a directory of its own, at a path no earlier test had, holding exactly the candidate.
 *
 * Why: creating and removing a directory per test took 2–3 ms on the benchmark machine (rmdir on an
 * ext4 file system mounted with `discard` trims the freed block at once, and a removal in the
 * background slowed the next mkdir to 1–1.6 ms), where a 2 ms test's shell loop pays nothing; a
 * rename takes about 0.1 ms. A directory the test left files in is removed in the background and not
 * reused. Caveat: a process that escaped the test's process group (setsid) and still writes relative
 * to its old working directory would write into a later test's directory, where with fresh
 * directories it would write into a removed one.
 */
export class SandboxRecycler {
  readonly #root: string;
  readonly #spares: string[] = [];
  readonly #removals = new Set<Promise<void>>();

  constructor(root: string | undefined) {
    this.#root = resolve(root ?? tmpdir());
  }

  /** The directory the test directories are made in. */
  get root(): string {
    return this.#root;
  }

  /** A directory holding `content` as `fileName`: a spare under a new name, or a new one. */
  async create(fileName: string, content: Uint8Array): Promise<Sandbox> {
    const spare = this.#spares.pop();
    if (spare === undefined) return createSandbox(this.#root, fileName, content);
    let dir: string;
    try {
      dir = join(this.#root, `whittle-${randomName()}`);
      renameSync(spare, dir);
    } catch {
      this.#remove(spare);
      return createSandbox(this.#root, fileName, content);
    }
    return writeCandidate(this.#root, dir, fileName, content);
  }

  /** After a test: keep its directory as a spare if only the candidate is in it, else remove it. */
  release(dir: string, fileName: string): void {
    try {
      unlinkSync(join(dir, fileName));
      if (readdirSync(dir).length === 0) {
        this.#spares.push(dir);
        liveRecyclers.add(this);
        installExitHook();
        return;
      }
    } catch {
      // the test removed or renamed the candidate, or the directory: remove whatever is left
    }
    this.#remove(dir);
  }

  /** Removes the spares and waits for every removal under way. */
  async close(): Promise<void> {
    this.removeSpares();
    liveRecyclers.delete(this);
    while (this.#removals.size > 0) await Promise.all(this.#removals);
  }

  /** Synchronously removes the spare directories (also run when the process exits). */
  removeSpares(): void {
    for (const dir of this.#spares.splice(0)) {
      try {
        rmdirSync(dir);
      } catch {
        // best effort
      }
    }
  }

  #remove(dir: string): void {
    const removal = removeWritable(dir);
    this.#removals.add(removal);
    void removal.finally(() => this.#removals.delete(removal));
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const recycler of liveRecyclers) recycler.removeSpares();
  });
}

/** 12 random characters from [A-Za-z0-9]: a name no other directory has (mkdtemp uses 6). */
function randomName(): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  let name = "";
  for (const byte of randomBytes(12)) name += alphabet[byte % alphabet.length];
  return name;
}
