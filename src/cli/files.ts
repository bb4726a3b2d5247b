import { constants, open as openFd, type Stats } from "node:fs";
import {
  access,
  lstat,
  open,
  readFile,
  readlink,
  realpath,
  rename,
  rm,
  stat,
  symlink,
} from "node:fs/promises";
import { Socket } from "node:net";
import { basename, dirname, extname, join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * `<name>.reduced<.ext>` beside the input: crash.js → crash.reduced.js, Makefile → Makefile.reduced.
 */
export function defaultOutputPath(input: string): string {
  const ext = extname(input);
  const stem = basename(input, ext);
  return join(dirname(input), `${stem}.reduced${ext}`);
}

/** Mode and owner that a file whittle writes takes over (from the file it replaces, or the input). */
export interface FileLikeness {
  readonly mode: number;
  readonly uid: number;
  readonly gid: number;
}

export function likenessOf(stats: Stats): FileLikeness {
  return { mode: stats.mode & 0o7777, uid: stats.uid, gid: stats.gid };
}

/**
 * Writes `content` to a new file at `path` (O_EXCL: never over an existing file), with `like`'s
 * mode and owner when given, flushed to disk before it returns. When that fails (a full disk), the
 * file it created is removed again: a half-written copy must not pass for a whole one.
 */
async function writeNew(path: string, content: Uint8Array, like: FileLikeness | undefined): Promise<void> {
  // Created without the setuid, setgid and sticky bits: a half-written file must not carry them.
  const handle = await open(path, "wx", (like?.mode ?? 0o666) & 0o777);
  try {
    try {
      await handle.writeFile(content);
      if (like) {
        // Only root may give a file away; anyone else keeps the file as their own.
        await handle.chown(like.uid, like.gid).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== "EPERM") throw error;
        });
        // open() applies the umask, and chown() and writing clear the setuid and setgid bits: the
        // mode is set last, so the copy has the original's exactly.
        await handle.chmod(like.mode);
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
}

/** Told of each temporary file `writeAtomic` makes: before it is created, and once it is gone. */
export interface TempFileTracker {
  creating(path: string): void;
  gone(path: string): void;
}

let tempFileTracker: TempFileTracker | undefined;

/**
 * Sets (undefined: clears) who is told of the temporary files: during a run of the command, the
 * watchdog, which removes one that whittle was writing when it died (SIGKILL).
 */
export function trackTempFiles(tracker: TempFileTracker | undefined): void {
  tempFileTracker = tracker;
}

/**
 * Writes `content` to `path` atomically: a temporary file beside it, flushed to disk, then renamed
 * over the target. A reader (or a crash) sees the old file or the new one, never half of either. The
 * new file gets `like`'s mode and owner (an in-place reduction keeps the input's). The temporary
 * file's tracker (trackTempFiles) is told of it, by absolute path, before it is made.
 */
export async function writeAtomic(path: string, content: Uint8Array, like?: FileLikeness): Promise<void> {
  const temp = resolve(dirname(path), `.${basename(path)}.whittle-${process.pid}.tmp`);
  const tracker = tempFileTracker;
  tracker?.creating(temp);
  try {
    await rm(temp, { force: true });
    await writeNew(temp, content, like);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  } finally {
    tracker?.gone(temp);
  }
}

/** How a write into a FIFO waits for a reader (see writeInPlace). */
export interface FifoWait {
  /** Ends the wait for a reader, and a write that the reader does not take. */
  readonly stop: AbortSignal;
  /** Write only to a reader that is there already, without waiting (whittle was interrupted). */
  readonly noWait: boolean;
  /** Called once, when no reader is there yet and the wait begins. */
  readonly onWait: () => void;
}

/**
 * Writes `content` into an existing file that is not a regular file (a device such as /dev/null, a
 * FIFO) as it is: no temporary file and no rename, which would replace the node itself. With `fifo`,
 * a FIFO is written without blocking whittle: see writeFifo.
 */
export async function writeInPlace(path: string, content: Uint8Array, fifo?: FifoWait): Promise<void> {
  if (fifo !== undefined && (await stat(path)).isFIFO()) return writeFifo(path, content, fifo);
  const handle = await open(path, constants.O_WRONLY);
  try {
    await handle.writeFile(content);
  } finally {
    await handle.close();
  }
}

/** How often a FIFO without a reader is tried again. */
const FIFO_POLL_MS = 50;

/**
 * Writes `content` into the FIFO at `path`. A blocking open() would wait for a reader for ever, out
 * of reach of signals; so the FIFO is opened without blocking, which fails (ENXIO) until a reader
 * has it open, and is tried again until one has or `wait.stop` fires. The bytes then go through the
 * event loop, so a reader that stops reading cannot hold whittle either.
 */
async function writeFifo(path: string, content: Uint8Array, wait: FifoWait): Promise<void> {
  let fd: number | undefined;
  for (let waiting = false; fd === undefined;) {
    if (wait.stop.aborted) throw new Error("interrupted while waiting for a reader of the FIFO");
    try {
      fd = await new Promise<number>((resolve, reject) =>
        openFd(path, constants.O_WRONLY | constants.O_NONBLOCK, (error, opened) =>
          error ? reject(error) : resolve(opened),
        ),
      );
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENXIO") throw error;
      if (wait.noWait) throw new Error("no reader of the FIFO, and whittle was interrupted");
      if (!waiting) wait.onWait();
      waiting = true;
      await sleep(FIFO_POLL_MS, undefined, { signal: wait.stop }).catch(() => undefined);
    }
  }
  const pipe = new Socket({ fd, readable: false, writable: true });
  let onStop: (() => void) | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      onStop = (): void => reject(new Error("interrupted while writing to the FIFO"));
      if (wait.stop.aborted) return onStop();
      wait.stop.addEventListener("abort", onStop, { once: true });
      pipe.once("error", reject);
      pipe.once("finish", resolve);
      pipe.end(content);
    });
  } finally {
    if (onStop) wait.stop.removeEventListener("abort", onStop);
    pipe.destroy();
  }
}

/** `<input>.orig`, `<input>.orig.1`, …: the first name that no file has. */
export async function freeBackupName(input: string): Promise<string> {
  for (let i = 0; ; i++) {
    const candidate = i === 0 ? `${input}.orig` : `${input}.orig.${i}`;
    if (!(await exists(candidate))) return candidate;
  }
}

/**
 * Keeps `bytes` (the input as read at the start) as `path` (from `freeBackupName`), with the input's
 * mode and owner. The write never replaces an existing file (O_EXCL): if another process took the
 * name meanwhile, this fails rather than overwrite what may be another backup.
 */
export async function writeBackup(path: string, bytes: Uint8Array, like: FileLikeness): Promise<void> {
  await writeNew(path, bytes, like);
}

/**
 * Makes sure the file at `path` still holds `bytes` (a test may have written to the input or to its
 * backup). Rewrites it when it does not; returns whether it had to.
 */
export async function restoreIfChanged(
  path: string,
  bytes: Uint8Array,
  like: FileLikeness,
): Promise<boolean> {
  const now = await readFile(path).catch(() => undefined);
  if (now !== undefined && Buffer.compare(now, bytes) === 0) return false;
  await writeAtomic(path, bytes, like);
  return true;
}

/** The file the input was read from, as it was at the start (see restoreOriginal). */
export interface OriginalFile {
  /** The file that holds the input's bytes: INPUT with its symlinks resolved. */
  readonly path: string;
  /** That file's device and inode. */
  readonly id: string;
  readonly like: FileLikeness;
  /** When INPUT is a symlink: its path and what it says. */
  readonly link: { readonly path: string; readonly target: string } | undefined;
}

/**
 * Makes sure the input is as it was at the start (a test may have written to `$WHITTLE_INPUT`):
 * a symlink that was replaced is made again, and the file holding the input gets `bytes` back.
 * While that file is the same file (inode) it is rewritten in place, so the symlink, hard links to
 * it, its mode and its owner stay as they are; one the test removed or replaced is made anew, with
 * the original's mode and owner. Says what it had to restore.
 */
export async function restoreOriginal(
  file: OriginalFile,
  bytes: Uint8Array,
): Promise<{ relinked: boolean; rewritten: boolean }> {
  let relinked = false;
  if (file.link !== undefined) {
    const now = await readlink(file.link.path).catch(() => undefined);
    if (now !== file.link.target) {
      await replaceWithSymlink(file.link.path, file.link.target);
      relinked = true;
    }
  }
  const s = await lstat(file.path).catch(() => undefined);
  const now = s?.isFile() ? await readFile(file.path).catch(() => undefined) : undefined;
  if (now !== undefined && Buffer.compare(now, bytes) === 0) return { relinked, rewritten: false };
  if (s?.isFile() && `${s.dev}:${s.ino}` === file.id) {
    try {
      await rewriteInPlace(file.path, bytes);
      return { relinked, rewritten: true };
    } catch (error) {
      // A file its owner made read-only: replaced as a whole instead, if its directory allows.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "EACCES" && code !== "EPERM") throw error;
    }
  }
  await writeAtomic(file.path, bytes, file.like);
  return { relinked, rewritten: true };
}

/** Writes `bytes` into the existing regular file at `path` (never through a symlink), flushed. */
async function rewriteInPlace(path: string, bytes: Uint8Array): Promise<void> {
  const handle = await open(path, constants.O_WRONLY | constants.O_NOFOLLOW);
  try {
    await handle.writeFile(bytes);
    await handle.truncate(bytes.length);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Puts a symlink saying `target` at `path`, atomically (a new link renamed over what is there). */
async function replaceWithSymlink(path: string, target: string): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.whittle-${process.pid}.link`);
  try {
    await rm(temp, { force: true });
    await symlink(target, temp);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

export async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** A path as a file identity: its device and inode when it exists (hard links and symlinks agree). */
export async function identity(path: string): Promise<string | undefined> {
  try {
    const s = await stat(path);
    return `${s.dev}:${s.ino}`;
  } catch {
    return undefined;
  }
}

/** The first of `paths` that names the same file as `path` (see sameFile), if any. */
export async function sameFileAsAny(path: string, paths: readonly string[]): Promise<string | undefined> {
  for (const other of paths) if (await sameFile(path, other)) return other;
  return undefined;
}

/** Whether two paths name the same file: the same canonical path, or the same inode. */
export async function sameFile(a: string, b: string): Promise<boolean> {
  if ((await canonical(a)) === (await canonical(b))) return true;
  const [ia, ib] = [await identity(a), await identity(b)];
  return ia !== undefined && ia === ib;
}

/** The canonical path (symlinks resolved) of `path`, or of its directory when the file does not exist. */
export async function canonical(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    try {
      return join(await realpath(dirname(path)), basename(path));
    } catch {
      return path;
    }
  }
}

/**
 * Why whittle could not write a new file at `path`, or undefined when it can: the file must be a
 * regular file (or absent, in an existing, writable directory).
 */
export async function whyNotWritable(path: string): Promise<string | undefined> {
  let s: Stats | undefined;
  try {
    s = await stat(path);
  } catch {
    s = undefined;
  }
  if (s?.isDirectory()) return "it is a directory";
  if (s !== undefined) {
    try {
      await access(path, constants.W_OK);
    } catch {
      return "it is not writable";
    }
    return undefined;
  }
  const dir = dirname(path);
  try {
    if (!(await stat(dir)).isDirectory()) return `${dir} is not a directory`;
  } catch {
    return `the directory ${dir} does not exist`;
  }
  try {
    await access(dir, constants.W_OK);
  } catch {
    return `the directory ${dir} is not writable`;
  }
  return undefined;
}

/** What the result is written to. */
export type OutputTarget =
  /** A regular file (existing or not): written atomically after every improvement. */
  | { readonly kind: "file"; readonly path: string; readonly like: FileLikeness | undefined }
  /** An existing device or FIFO: written once, at the end, as it is. */
  | { readonly kind: "special"; readonly path: string }
  /** Standard output: written once, at the end. */
  | { readonly kind: "stdout" };

/**
 * Keeps successive best results on disk, in order: each write is atomic, a write that fails is
 * reported at once (`onError`) and the next, smaller result is tried again, so the file always holds
 * an interesting result, the newest one that could be written.
 */
export class ResultWriter {
  private chain: Promise<void> = Promise.resolve();
  private queued: Uint8Array | undefined;
  /** The error of the newest attempt, if it failed. */
  private failure: { error: unknown } | undefined;
  /** Size of the newest result on disk (undefined before the first write succeeds). */
  writtenSize: number | undefined;

  constructor(
    private readonly path: string,
    private readonly like: FileLikeness | undefined,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Queues `content`; if several are queued while a write runs, only the newest is written. */
  write(content: Uint8Array): void {
    const first = this.queued === undefined;
    this.queued = content;
    if (!first) return;
    this.chain = this.chain.then(async () => {
      const next = this.queued!;
      this.queued = undefined;
      try {
        await writeAtomic(this.path, next, this.like);
        this.failure = undefined;
        this.writtenSize = next.length;
      } catch (error) {
        if (this.failure === undefined) this.onError(error);
        this.failure = { error };
      }
    });
  }

  /** Waits for every queued write; returns the error of the newest attempt, if it failed. */
  async settle(): Promise<{ error: unknown } | undefined> {
    await this.chain;
    return this.failure;
  }
}
