/**
 * Removing what a test left, also when it made directories read-only: a test that runs
 * `chmod 500 d` (or `chmod 500 .` on its own directory, as Go's module cache does) leaves entries
 * that its owner cannot unlink until the directory is writable again. Root ignores permission bits,
 * so this only shows for other users.
 *
 * Imports nothing but node:fs: the watchdog (watchdog-child.ts) uses it and must start quickly.
 */
import { chmodSync, lstatSync, readdirSync, rmSync } from "node:fs";

/** What could not be removed: the first path that resisted, and the error's code. */
export interface Unremoved {
  readonly path: string;
  readonly code: string;
}

/**
 * Removes `path` and everything below it. When that fails, every directory below it (and itself)
 * is made readable, writable and searchable by its owner (u+rwx; symbolic links are not followed)
 * and the removal is tried once more. Returns undefined when `path` is gone (or never was), else
 * what could not be removed. Never throws, and takes no longer than the two walks of the tree.
 */
export function removeTree(path: string): Unremoved | undefined {
  try {
    rmSync(path, { recursive: true, force: true, maxRetries: 2 });
    return undefined;
  } catch {
    // read-only directories, probably: make them writable and try again
  }
  makeTreeWritable(path);
  try {
    rmSync(path, { recursive: true, force: true, maxRetries: 2 });
    return undefined;
  } catch (error) {
    const { path: failed, code } = error as NodeJS.ErrnoException;
    return { path: failed ?? path, code: code ?? String(error) };
  }
}

/**
 * Gives the owner read, write and search permission on `path` and on every directory below it,
 * where it lacks any of them. A loop, not recursion: a test may nest directories deeply. Entries
 * that cannot be changed (not ours) or read are skipped.
 */
export function makeTreeWritable(path: string): void {
  const pending = [path];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    try {
      const mode = lstatSync(dir).mode;
      // 0o170000: the file type bits; 0o040000: a directory.
      if ((mode & 0o170000) !== 0o040000) continue;
      if ((mode & 0o700) !== 0o700) chmodSync(dir, (mode & 0o7777) | 0o700);
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) pending.push(`${dir}/${entry.name}`);
      }
    } catch {
      // gone meanwhile, not ours to change, or still unreadable: the removal will say what stays
    }
  }
}
