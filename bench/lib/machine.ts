import { cpus, totalmem } from "node:os";

/** Where and when the numbers were taken. */
export interface Machine {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  node: string;
  platform: string;
  date: string;
}

/** Describes this machine now. */
export function describeMachine(now = new Date()): Machine {
  const list = cpus();
  return {
    cpuModel: list[0]?.model.trim() ?? "unknown",
    cores: list.length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    date: now.toISOString(),
  };
}
