/**
 * Debian packages a benchmark needs and may install itself (C-Vise to compare against, csmith for
 * large C inputs): never needed by `npm ci`, installed with apt-get when the benchmark runs as root
 * on a machine that has it.
 */
import { spawnSync } from "node:child_process";
import { progress } from "./log.js";

export type Ensured =
  { readonly version: string; readonly installed: boolean } | { readonly missing: string };

/** The first line of `command --version` (run in `cwd`), or undefined when it does not run. */
export function commandVersion(command: string, cwd?: string): string | undefined {
  const r = spawnSync(command, ["--version"], { encoding: "utf8", ...(cwd ? { cwd } : {}) });
  return r.status === 0 ? r.stdout.split("\n")[0]!.trim() : undefined;
}

/**
 * `version()` of the tool from Debian's package `pkg`, installing the package first when the tool
 * does not run and this process may (root, apt-get present); otherwise `missing` says why there is
 * none. `section` names the benchmark section in the progress line.
 */
export function ensurePackage(pkg: string, version: () => string | undefined, section: string): Ensured {
  const found = version();
  if (found !== undefined) return { version: found, installed: false };
  const root = process.getuid?.() === 0;
  const apt = spawnSync("sh", ["-c", "command -v apt-get"], { encoding: "utf8" }).status === 0;
  if (!root || !apt)
    return {
      missing: `${pkg} is not installed and ${root ? "apt-get is missing" : "this is not root"}: install Debian's ${pkg} package (apt-get install ${pkg})`,
    };
  progress(`${section}: ${pkg} not found, installing Debian's package (apt-get install ${pkg})`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  spawnSync("apt-get", ["update", "-qq"], { env, stdio: "ignore" });
  const install = spawnSync("apt-get", ["install", "-y", "-qq", pkg], { env, encoding: "utf8" });
  const now = version();
  if (now !== undefined) return { version: now, installed: true };
  return {
    missing: `apt-get install ${pkg} failed (exit ${install.status}): ${(install.stderr || "").trim().split("\n").pop() ?? ""}`,
  };
}
