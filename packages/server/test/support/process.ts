import { type ChildProcessWithoutNullStreams, execFile, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { TEST_WEBHOOKS_KEY } from "./webhooks-key.js";

const serverDir = fileURLToPath(new URL("../..", import.meta.url));

/** A server running as a child process (`node --import tsx src/main.ts`). */
export interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  port: number;
  /** e.g. `http://127.0.0.1:54321` */
  baseUrl: string;
  /** Everything the process wrote to stdout and stderr so far (JSON log lines). */
  output(): string;
  /** Sends `signal` (default SIGTERM) and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Spawns the real server entry point with `env` added to the current environment, on a free port
 * (PORT=0 unless given), and resolves once it logs that it listens. Use a PostgreSQL `DATABASE_URL`
 * (see `createPostgresTestDatabase`) to run several processes on one database.
 * @example
 * const a = await spawnServer({ DATABASE_URL: url });
 * expect(await a.stop()).toBe(0);
 */
export async function spawnServer(
  env: Record<string, string>,
  startTimeoutMs = 60_000,
): Promise<ServerProcess> {
  // `source`: @keyport/errors from its TypeScript too (its `import` export is a build output).
  const child = spawn(process.execPath, ["--conditions=source", "--import", "tsx", "src/main.ts"], {
    cwd: serverDir,
    env: { ...process.env, PORT: "0", LOG_LEVEL: "info", WEBHOOKS_ENCRYPTION_KEY: TEST_WEBHOOKS_KEY, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`server did not start in time:\n${output}`));
    }, startTimeoutMs);
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /"port":(\d+)[^\n]*keyport server listening/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${output}`));
    });
  });
  return {
    child,
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    output: () => output,
    stop: (signal = "SIGTERM") => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/**
 * Runs a measuring fixture under test/support (`node --import tsx <script> ...args`, in the server's
 * folder) and resolves with the number it prints as `field` of one JSON line on stdout.
 * @example const mb = await fixtureNumber("test/support/heap-churn.ts", ["limit"], "peakMb");
 */
export function fixtureNumber(script: string, args: readonly string[], field: string): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["--import", "tsx", script, ...args],
      { cwd: serverDir, timeout: 90_000 },
      (error, stdout) => {
        if (error) return reject(error);
        const parsed: unknown = JSON.parse(stdout);
        const value = typeof parsed === "object" && parsed !== null ? Reflect.get(parsed, field) : null;
        if (typeof value !== "number") return reject(new Error(`no ${field} in ${stdout}`));
        resolve(value);
      },
    );
  });
}
