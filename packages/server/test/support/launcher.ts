import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "@keyport/test-support/port";

/** The repository root, where `pnpm start` runs. */
export const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

/** How long a launcher may take to build everything and start both services on a loaded machine. */
export const LAUNCH_TIMEOUT_MS = 300_000;

/** A root launcher (`pnpm start`, `pnpm start:payments`) running in a process group of its own. */
export interface Launcher {
  child: ChildProcessWithoutNullStreams;
  serverPort: number;
  dashboardPort: number;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** The banner: the lines from "Keyport is running" to "Press Ctrl-C to stop." */
  banner: string;
  /**
   * Sends `signal` to its whole process group, as a terminal's Ctrl-C does (pnpm and the launcher
   * both get it), and resolves with pnpm's exit code.
   */
  interrupt(signal?: NodeJS.Signals): Promise<number | null>;
  /** Stops it if it still runs, and removes its data folder. */
  close(): Promise<void>;
}

/**
 * Runs `pnpm <script> <args>` at the repository root as a user would, on free ports and a data folder
 * of its own, and resolves once it prints its banner. `env` is added to a bare environment (PATH and
 * HOME), so nothing of the test run leaks in.
 * @example const launcher = await launch("start", [], { HOST: "127.0.0.1" });
 */
export async function launch(
  script: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<Launcher> {
  const serverPort = await freePort();
  const dashboardPort = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "keyport-launcher-"));
  const child = spawn("pnpm", [script, ...args], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      SERVER_PORT: String(serverPort),
      DASHBOARD_PORT: String(dashboardPort),
      DATA_DIR: dataDir,
      COINGECKO_STARTUP_CHECK: "off",
      LOG_FORMAT: "json",
      ...env,
    },
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const interrupt = async (signal: NodeJS.Signals = "SIGINT") => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      process.kill(-child.pid, signal);
    }
    return exited;
  };
  const close = async () => {
    await interrupt("SIGTERM");
    rmSync(dataDir, { recursive: true, force: true });
  };
  const banner = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`the launcher did not start:\n${output}`));
    }, LAUNCH_TIMEOUT_MS);
    const read = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const match = /^Keyport is running[\s\S]*?Press Ctrl-C to stop\.$/m.exec(output);
      if (match !== null) {
        clearTimeout(timer);
        resolve(match[0]);
      }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the launcher exited with ${code}:\n${output}`));
    });
  }).catch(async (error: unknown) => {
    await close();
    throw error;
  });
  return { child, serverPort, dashboardPort, output: () => output, banner, interrupt, close };
}

/** The JSON log lines one service printed through the launcher (`server    | {...}`), parsed. */
export function serviceLog(output: string, service: "server" | "dashboard"): Record<string, unknown>[] {
  return output
    .split("\n")
    .filter((line) => line.startsWith(`${service} `))
    .map((line) => line.slice(line.indexOf("| ") + 2))
    .filter((line) => line.startsWith("{"))
    .map((line) => Object(JSON.parse(line)));
}

/** Every process descended from `pid` now (Linux: read from /proc), for a check that none outlives it. */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // exited while we read
    }
    // `pid (comm) state ppid ...`: comm may hold spaces and parentheses, so read after the last ")".
    const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  const queue = [pid];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const child of children.get(next) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** Whether process `pid` still exists (a zombie not yet reaped counts as gone). */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}
