import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Slow tier: `src/main.ts` as a process, with faults injected by test/support/fault-injector.mjs
// (docs/decisions.md#process-faults).
const PACKAGE_DIR = fileURLToPath(new URL("../..", import.meta.url));
const injector = fileURLToPath(new URL("../support/fault-injector.mjs", import.meta.url));
const SECRETS = /rpcuser|rpcpass|sk_provider_key|eth_getCode|0xpayload/;

describe("the proxy process and faults nothing handled", () => {
  let child: ChildProcessWithoutNullStreams;
  let output = "";
  let url = "";
  let exited: Promise<number | null>;

  const lines = () =>
    output
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { level: number; msg: string; url?: string });

  beforeAll(async () => {
    child = spawn(process.execPath, ["--import", "tsx", "--conditions=source", "src/main.ts"], {
      cwd: PACKAGE_DIR,
      env: {
        PATH: process.env.PATH ?? "",
        PORT: "0",
        HOST: "127.0.0.1",
        LOG_LEVEL: "info",
        COINGECKO_STARTUP_CHECK: "off",
        NODE_OPTIONS: `--import ${injector}`,
      },
    });
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
    for (let waited = 0; !lines().some((line) => typeof line.url === "string"); waited += 100) {
      if (waited > 60_000 || child.exitCode !== null) throw new Error(`the proxy did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    url = String(lines().find((line) => typeof line.url === "string")?.url).replace(/\/$/, "");
  }, 90_000);
  afterAll(() => {
    if (child.exitCode === null) child.kill("SIGKILL");
  });

  it("keeps serving after unhandled rejections, counting each", async () => {
    const counted = async () =>
      Number(
        /^process_unhandled_rejections_total (\d+)/m.exec(await (await fetch(`${url}/metrics`)).text())?.[1],
      );
    child.kill("SIGUSR2");
    await expect.poll(counted, { timeout: 10_000 }).toBe(1);
    child.kill("SIGUSR2");
    await expect.poll(counted, { timeout: 10_000 }).toBe(2);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });

  it("drains and exits 1 after an uncaught exception; the log names each fault once, redacted", async () => {
    child.kill("SIGHUP");
    expect(await exited).toBe(1);
    const faults = lines().filter((line) => line.level >= 50);
    expect(faults.map((line) => line.msg)).toEqual([
      expect.stringMatching(/^unhandled promise rejection/),
      "uncaught exception: draining, then exiting 1",
    ]);
    expect(output).toContain("https://rpc.example");
    expect(output).not.toMatch(SECRETS);
  });
});
