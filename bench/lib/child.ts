import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";

/** A server running in its own process (so it never shares an event loop with the load generator). */
export interface ServerChild {
  name: string;
  /** e.g. `http://127.0.0.1:41234` */
  url: string;
  pid: number;
  /** Resident set size now, in MiB, read from /proc/<pid>/status. */
  rssMb(): Promise<number>;
  /** SIGTERM, then SIGKILL after 15 s. Resolves when the process is gone. */
  stop(): Promise<void>;
}

export interface StartChildOptions {
  name: string;
  /** A .js entry runs with plain node, as `pnpm start` runs it; a .ts entry with `node --import tsx`. */
  entry: string;
  cwd: string;
  /** The child's whole environment besides PATH/HOME (nothing else leaks from the bench's own). */
  env: Record<string, string>;
  port: number;
  /** Polled until it answers 200. */
  healthPath: string;
  /** Writes a V8 CPU profile into `<dir>/<name>/` on exit when set. */
  cpuProfDir?: string | undefined;
}

const TSX_LOADER = import.meta.resolve("tsx");
const running = new Set<ChildProcess>();

// A crashed or interrupted bench must not leave servers behind.
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => process.exit(130));
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Starts `entry` in a child process and waits until `healthPath` answers 200 (60 s at most). */
export async function startChild(options: StartChildOptions): Promise<ServerChild> {
  const args: string[] = [];
  if (options.cpuProfDir !== undefined) {
    const dir = join(options.cpuProfDir, options.name);
    mkdirSync(dir, { recursive: true });
    args.push("--cpu-prof", `--cpu-prof-dir=${dir}`);
  }
  if (options.entry.endsWith(".js")) args.push("--enable-source-maps", options.entry);
  else args.push("--import", TSX_LOADER, options.entry);
  const child = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...options.env },
    // stdout (request logs) goes to /dev/null; the tail of stderr is kept for error messages.
    stdio: ["ignore", "ignore", "pipe"],
  });
  running.add(child);
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString("utf8")).slice(-4_000);
  });
  const exited = new Promise<number | null>((resolve) => {
    child.once("exit", (code) => {
      running.delete(child);
      resolve(code);
    });
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${options.name}: could not spawn`);
  const url = `http://127.0.0.1:${options.port}`;

  const deadline = Date.now() + 60_000;
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  for (;;) {
    if (gone) throw new Error(`${options.name} exited during start-up:\n${stderr}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`${options.name} did not become healthy within 60 s:\n${stderr}`);
    }
    const healthy = await fetch(url + options.healthPath).then(
      async (response) => {
        await response.arrayBuffer();
        return response.status === 200;
      },
      () => false,
    );
    if (healthy) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    name: options.name,
    url,
    pid,
    rssMb: async () => {
      const status = await readFile(`/proc/${pid}/status`, "utf8");
      const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
      if (!match?.[1]) throw new Error(`${options.name}: no VmRSS in /proc/${pid}/status`);
      return Number(match[1]) / 1024;
    },
    stop: async () => {
      if (gone) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
