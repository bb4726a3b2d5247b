import { constants } from "node:fs";
import { copyFile, open, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, extname, join } from "node:path";

/**
 * `<name>.reduced<.ext>` beside the input: crash.js → crash.reduced.js, Makefile → Makefile.reduced.
 */
export function defaultOutputPath(input: string): string {
  const ext = extname(input);
  const stem = basename(input, ext);
  return join(dirname(input), `${stem}.reduced${ext}`);
}

/**
 * Writes `content` to `path` atomically: a temporary file beside it, flushed to disk, then renamed
 * over the target. A reader (or a crash) sees the old file or the new one, never half of either.
 */
export async function writeAtomic(path: string, content: Uint8Array): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.whittle-${process.pid}.tmp`);
  try {
    const handle = await open(temp, "w", 0o644);
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/**
 * Copies `input` to `<input>.orig`, or `<input>.orig.1`, `.orig.2`, … when that exists already: an
 * existing backup is never overwritten. Returns the backup's path.
 */
export async function backupOnce(input: string): Promise<string> {
  for (let i = 0; ; i++) {
    const candidate = i === 0 ? `${input}.orig` : `${input}.orig.${i}`;
    try {
      await copyFile(input, candidate, constants.COPYFILE_EXCL);
      return candidate;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
}

/** Keeps writes of successive best candidates in order and lets the caller wait for the last one. */
export class OrderedWriter {
  private chain: Promise<void> = Promise.resolve();
  private latest: Uint8Array | undefined;
  private failure: { error: unknown } | undefined;

  constructor(private readonly path: string) {}

  /** Queues `content`; if several are queued while a write runs, only the newest is written. */
  write(content: Uint8Array): void {
    const first = this.latest === undefined;
    this.latest = content;
    if (!first) return;
    this.chain = this.chain.then(async () => {
      const next = this.latest!;
      this.latest = undefined;
      try {
        await writeAtomic(this.path, next);
      } catch (error) {
        this.failure ??= { error };
      }
    });
  }

  /** Resolves when every queued write is on disk; rejects with the first write error. */
  async flush(): Promise<void> {
    await this.chain;
    if (this.failure !== undefined) throw this.failure.error;
  }
}

export async function isRegularFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
