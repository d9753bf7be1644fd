import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Slow tier: builds the server and runs `node dist/main.js` as `pnpm start` does, on a fresh DATA_DIR
// (initialised in a short-lived child process) and then again on the same folder.

const serverDir = fileURLToPath(new URL("..", import.meta.url));
const START_TIMEOUT_MS = 240_000;

interface Started {
  child: ChildProcessWithoutNullStreams;
  /** The URL the start log names, e.g. `http://localhost:41234`. */
  url: string;
  output(): string;
  exited: Promise<number | null>;
}

/** Starts `node dist/main.js` and resolves once it logs the URL it listens on. */
async function startServer(dataDir: string): Promise<Started> {
  const child = spawn(process.execPath, ["--enable-source-maps", "dist/main.js"], {
    cwd: serverDir,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PORT: "0", DATA_DIR: dataDir },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /keyport server listening on (http:\/\/localhost:\d+) \(API docs at \/docs\)/.exec(
        output,
      );
      if (match?.[1]) resolve(match[1]);
    });
    void exited.then((code) => reject(new Error(`server exited with ${code} before listening:\n${output}`)));
  });
  return { child, url, output: () => output, exited };
}

async function health(url: string): Promise<number> {
  const { port } = new URL(url);
  return (await fetch(`http://127.0.0.1:${port}/healthz`)).status;
}

describe("node dist/main.js on the embedded database", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "keyport-start-"));
  beforeAll(() => {
    execFileSync("pnpm", ["run", "--silent", "build"], {
      cwd: serverDir,
      stdio: ["ignore", "ignore", "inherit"],
    });
  }, START_TIMEOUT_MS);
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it(
    "initialises a fresh folder with a progress line, prints its URLs, stops on SIGTERM with 0, and restarts on the folder",
    async () => {
      const first = await startServer(dataDir);
      expect(first.output()).toContain(
        `initialising the embedded database in ${join(dataDir, "pglite")} (first start only)...`,
      );
      expect(first.output()).toMatch(/embedded database initialised in \d+\.\d s/);
      expect(await health(first.url)).toBe(200);
      expect(existsSync(join(dataDir, "pglite", "PG_VERSION"))).toBe(true);
      expect(existsSync(join(dataDir, ".pglite-init"))).toBe(false);
      first.child.kill("SIGTERM");
      expect(await first.exited).toBe(0);

      const second = await startServer(dataDir);
      expect(second.output()).not.toContain("initialising the embedded database");
      expect(await health(second.url)).toBe(200);
      second.child.kill("SIGTERM");
      expect(await second.exited).toBe(0);
    },
    START_TIMEOUT_MS,
  );
});
