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
