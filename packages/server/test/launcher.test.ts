import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "@keyport/test-support/port";
import { buildSiweMessage, fetchNonce, newAccount, postVerify } from "@keyport/test-support/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Slow tier: `pnpm start` (scripts/start.mjs) builds everything and starts both servers. The SIWE
// domains it gives the server name only where the dashboard is served: a signature for bare
// `localhost` (port 80, where no dashboard runs) must not sign anyone in (docs/configuration.md).

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const START_TIMEOUT_MS = 300_000;

describe("the root launcher's sign-in domains", () => {
  let launcher: ChildProcess;
  let dataDir: string;
  let serverUrl: string;
  let dashboardPort: number;

  beforeAll(async () => {
    const serverPort = await freePort();
    dashboardPort = await freePort();
    serverUrl = `http://127.0.0.1:${serverPort}`;
    dataDir = mkdtempSync(join(tmpdir(), "keyport-launcher-"));
    launcher = spawn(process.execPath, ["scripts/start.mjs"], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        SERVER_PORT: String(serverPort),
        DASHBOARD_PORT: String(dashboardPort),
        DATA_DIR: dataDir,
        COINGECKO_STARTUP_CHECK: "off",
        LOG_FORMAT: "json",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the launcher did not start:\n${output}`)),
        START_TIMEOUT_MS,
      );
      const read = (chunk: Buffer) => {
        output += chunk.toString("utf8");
        if (output.includes("Keyport is running")) {
          clearTimeout(timer);
          resolve();
        }
      };
      launcher.stdout?.on("data", read);
      launcher.stderr?.on("data", read);
      launcher.on("exit", (code) => reject(new Error(`the launcher exited with ${code}:\n${output}`)));
    });
  }, START_TIMEOUT_MS + 10_000);

  afterAll(async () => {
    if (launcher !== undefined && launcher.exitCode === null) {
      const exited = new Promise((resolve) => launcher.once("exit", resolve));
      launcher.kill("SIGTERM");
      await exited;
    }
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it("accepts a sign-in for the dashboard's host and refuses one for bare localhost", async () => {
    const signInFor = async (domain: string) => {
      const account = newAccount();
      const message = buildSiweMessage(account, await fetchNonce(serverUrl), {
        domain,
        uri: `http://${domain}/`,
      });
      return (await postVerify(serverUrl, account, message)).status;
    };
    expect(await signInFor(`localhost:${dashboardPort}`)).toBe(200);
    expect(await signInFor("localhost")).toBe(401);
  });
});
