import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The folder holding package.json, found by walking up from this module (works from src and dist). */
export function findRepoRoot(start: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = start;
  for (;;) {
    if (existsSync(resolve(dir, "package.json"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${start}`);
    dir = parent;
  }
}

/** The shared folder (benchmark cases and papers) sits next to the repository. */
export function sharedRoot(repoRoot: string): string {
  return resolve(repoRoot, "../shared");
}
