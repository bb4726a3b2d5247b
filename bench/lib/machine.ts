import { execFileSync } from "node:child_process";
import { arch, cpus, freemem, platform, release, totalmem } from "node:os";

export interface MachineInfo {
  readonly cpus: number;
  readonly cpuModel: string;
  readonly node: string;
  readonly platform: string;
  readonly memoryMB: number;
  readonly freeMemoryMB: number;
  readonly date: string;
}

export function machineInfo(): MachineInfo {
  const list = cpus();
  return {
    cpus: list.length,
    cpuModel: list[0]?.model.trim() ?? "unknown",
    node: process.version,
    platform: `${platform()} ${release()} ${arch()}`,
    memoryMB: Math.round(totalmem() / 2 ** 20),
    freeMemoryMB: Math.round(freemem() / 2 ** 20),
    date: new Date().toISOString(),
  };
}

/** The repository's commit and whether the working tree has changes ("unknown" without git). */
export function gitState(repoRoot: string): string {
  try {
    const git = (...args: string[]): string =>
      execFileSync("git", args, {
        cwd: repoRoot,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      }).trim();
    const head = git("rev-parse", "--short", "HEAD");
    const dirty = git("status", "--porcelain").split("\n").filter(Boolean).length;
    return dirty ? `${head} + ${dirty} changed file(s)` : head;
  } catch {
    return "unknown";
  }
}
