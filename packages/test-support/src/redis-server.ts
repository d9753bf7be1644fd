import { type ChildProcess, spawn } from "node:child_process";
import { accessSync, constants, mkdtempSync, rmSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Where Debian's `redis-server` package puts the binary; REDIS_SERVER_BIN overrides it. */
export const REDIS_SERVER_BIN = process.env.REDIS_SERVER_BIN || "/usr/bin/redis-server";

/** A redis-server of a test's own: its own loopback port and data directory, AOF fsynced on every write. */
export interface RedisServer {
  /** e.g. `redis://127.0.0.1:41234`, for REDIS_URL. */
  url: string;
  port: number;
  /** The data directory (the AOF lives here, so a restart finds what was written). */
  dir: string;
  /** Sends `signal` (default SIGKILL: a crash) and waits for the process to exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts the server again on the same port and directory (after `kill`) and waits until it answers PING. */
  restart(): Promise<void>;
  /** Stops the server (SIGTERM) and removes its directory. */
  close(): Promise<void>;
}

/**
 * Starts `redis-server` on a free 127.0.0.1 port with a temporary directory of its own,
 * `--appendonly yes --appendfsync always --save ""` (then `options.args`), and waits until it answers PING. What a Redis
 * acknowledged survives `kill("SIGKILL")` then `restart()`. Fails with a clear message when the binary
 * is missing (Debian: `apt-get install redis-server`).
 * @example const redis = await startRedisServer(); try { ... redis.url ... } finally { await redis.close(); }
 */
export async function startRedisServer(
  options: {
    timeoutMs?: number;
    /** More `--name value` arguments, after the defaults (so they win): e.g. `["--appendfsync", "everysec"]`. */
    args?: string[];
  } = {},
): Promise<RedisServer> {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const extra = options.args ?? [];
  try {
    accessSync(REDIS_SERVER_BIN, constants.X_OK);
  } catch {
    throw new Error(
      `redis-server not found at ${REDIS_SERVER_BIN}: install Debian's package (apt-get install -y redis-server) or set REDIS_SERVER_BIN`,
    );
  }
  const dir = mkdtempSync(join(tmpdir(), "keyport-redis-"));
  const port = await freePort();
  let running: Running | undefined;
  const start = async () => {
    running = await launch(port, dir, extra, timeoutMs);
  };
  const kill = async (signal: NodeJS.Signals = "SIGKILL") => {
    const current = running;
    running = undefined;
    if (current) await current.stop(signal);
  };
  try {
    await start();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    kill,
    restart: async () => {
      await kill("SIGKILL");
      await start();
    },
    close: async () => {
      await kill("SIGTERM");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

interface Running {
  stop(signal: NodeJS.Signals): Promise<void>;
}

/** One redis-server process on `port` over `dir`, answering PING when this resolves. */
async function launch(port: number, dir: string, extra: string[], timeoutMs: number): Promise<Running> {
  const args = [
    "--port",
    String(port),
    "--bind",
    "127.0.0.1",
    "--dir",
    dir,
    "--appendonly",
    "yes",
    "--appendfsync",
    "always",
    "--save",
    "",
    "--daemonize",
    "no",
    ...extra,
  ];
  const child = spawn(REDIS_SERVER_BIN, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4_000);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = exitOf(child);
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const stop = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  const started = performance.now();
  // A restart right after a kill may find the port briefly held; the loop waits it out.
  while (!(await answersPing(port)) || gone) {
    if (gone) throw new Error(`redis-server exited before it answered on port ${port}: ${output.trim()}`);
    if (performance.now() - started > timeoutMs) {
      await stop("SIGKILL");
      throw new Error(
        `redis-server did not answer PING on port ${port} within ${timeoutMs} ms: ${output.trim()}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { stop };
}

function exitOf(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
}

/** True when something on `port` answers PING with PONG (one raw command, no client library). */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    const done = (answered: boolean) => {
      socket.destroy();
      resolve(answered);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.on("error", () => done(false));
    socket.on("connect", () => socket.write("PING\r\n"));
    socket.on("data", (data) => done(data.toString("latin1").startsWith("+PONG")));
  });
}

/** A loopback port free a moment ago (bound, then released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}
