/**
 * The temporary directory whittle works in: TMPDIR checked up front, one run-level directory below it
 * (`$TMPDIR/whittle-XXXXXX`, holding every test's sandbox, so that one `rm` removes everything a run
 * made), and precise errors when it is unusable or fills up during a run.
 */
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

import { WhittleError } from "../errors.js";
import { removeTree, type Unremoved } from "./remove-tree.js";

/** How TMPDIR is named to the user: its value, or that it is unset and what is used instead. */
export function describeTmpdir(env: NodeJS.ProcessEnv = process.env): string {
  const value = env["TMPDIR"];
  return value === undefined || value === "" ? `TMPDIR (not set, so ${tmpdir()})` : `TMPDIR=${value}`;
}

/** Error codes that mean "no room left": the file system is full, or the user's quota is used up. */
export function isFullError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOSPC" || code === "EDQUOT";
}

/**
 * Turns a file-system error met while making or writing in `path` (TMPDIR or a directory below it)
 * into a `WhittleError("tmpdir")` that names TMPDIR and says what is wrong with it; returns undefined
 * when the error is not about the directory (it is then passed on as it is).
 */
export function tmpdirError(path: string, error: unknown): WhittleError | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  let what: string;
  if (code === "ENOSPC") what = "is full (no space left on the device)";
  else if (code === "EDQUOT") what = "is full (disk quota exceeded)";
  else if (code === "EACCES" || code === "EPERM" || code === "EROFS") what = `is not writable (${code})`;
  else if (code === "ENOENT") what = "does not exist";
  else if (code === "ENOTDIR") what = "is not a directory";
  else return undefined;
  const at = resolve(path) === resolve(tmpdir()) ? "" : ` (at ${path})`;
  const fix = isFullError(error)
    ? "free some space there or set TMPDIR to a directory with more room"
    : "set TMPDIR to a writable directory";
  return new WhittleError("tmpdir", `the temporary directory ${describeTmpdir()} ${what}${at}; ${fix}`, {
    cause: error,
  });
}

/**
 * Checks TMPDIR and creates the run directory `$TMPDIR/whittle-XXXXXX` in it. Throws
 * `WhittleError("tmpdir")` naming TMPDIR and its value when TMPDIR is missing, not a directory, not
 * writable or full.
 */
export function createRunDir(): string {
  const root = tmpdir();
  try {
    if (!statSync(root).isDirectory()) {
      throw new WhittleError(
        "tmpdir",
        `the temporary directory ${describeTmpdir()} is not a directory; set TMPDIR to a writable directory`,
      );
    }
    return mkdtempSync(join(root, "whittle-"));
  } catch (error) {
    if (error instanceof WhittleError) throw error;
    throw tmpdirError(root, error) ?? error;
  }
}

/**
 * Removes a run directory and everything in it, also directories a test made read-only (see
 * removeTree). Never throws: returns what could not be removed, if anything, for a warning.
 */
export function removeRunDir(dir: string): Unremoved | undefined {
  return removeTree(dir);
}
