import { execFileSync } from "node:child_process";

/**
 * Mounts a tmpfs of `size` (e.g. "64k") on the existing directory `dir`; returns a function that
 * unmounts it, or undefined when that is not possible here (not root, no mount command, a sandbox
 * without the capability). Tests that need a really full or read-only file system skip without one.
 */
export function mountTmpfs(dir: string, size: string, readOnly = false): (() => void) | undefined {
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}${readOnly ? ",ro" : ""}`, "tmpfs", dir], {
      stdio: "ignore",
    });
  } catch {
    return undefined;
  }
  return () => execFileSync("umount", ["-l", dir], { stdio: "ignore" });
}
