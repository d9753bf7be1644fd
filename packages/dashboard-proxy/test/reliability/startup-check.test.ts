import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type CoinGeckoStandIn, startCoinGecko } from "../support/coingecko-stand-in.js";
import { COINGECKO_KEY } from "../support/proxy.js";

// Slow tier: `src/main.ts` as a process (through tsx, so nothing is built into dist/), to show the
// start-up check runs after listening and never holds the start up.

const PACKAGE_DIR = fileURLToPath(new URL("../..", import.meta.url));

interface Started {
  child: ChildProcessWithoutNullStreams;
  lines: Record<string, unknown>[];
  url: string;
}

let cg: CoinGeckoStandIn;
let running: Started | undefined;

beforeAll(async () => {
  cg = await startCoinGecko("x-cg-demo-api-key", COINGECKO_KEY);
});
afterAll(() => cg.close());
beforeEach(() => {
  cg.requests.length = 0;
  cg.behave({ kind: "default" });
});
afterEach(async () => {
  if (running && running.child.exitCode === null) {
    const exited = new Promise((resolve) => running?.child.once("exit", resolve));
    running.child.kill("SIGTERM");
    await exited;
  }
  running = undefined;
});

/** Starts the proxy and resolves once it logs the URL it listens on. */
async function startMain(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, ["--import", "tsx", "--conditions=source", "src/main.ts"], {
    cwd: PACKAGE_DIR,
    env: {
      PATH: process.env.PATH ?? "",
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      COINGECKO_BASE_URL: cg.baseUrl,
      COINGECKO_API_KEY: COINGECKO_KEY,
      ...env,
    },
  });
  const lines: Record<string, unknown>[] = [];
  let buffered = "";
  child.stdout.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split("\n");
    buffered = parts.pop() ?? "";
    for (const part of parts) if (part.trim() !== "") lines.push(JSON.parse(part));
  });
  const started: Started = { child, lines, url: "" };
  running = started;
  await expect
    .poll(() => lines.find((line) => typeof line.url === "string"), { timeout: 30_000 })
    .toBeDefined();
  started.url = String(lines.find((line) => typeof line.url === "string")?.url).replace(/\/$/, "");
  return started;
}

const message = (lines: Record<string, unknown>[], text: string) =>
  lines.find((line) => String(line.msg).includes(text));

describe("the start-up check of `pnpm start`", () => {
  it("calls /ping once after listening and logs that the key and host work", async () => {
    const { lines } = await startMain({});
    await expect.poll(() => message(lines, "start-up check passed")).toBeDefined();
    expect(cg.requests.map((seen) => seen.path)).toEqual(["/ping"]);
    expect(cg.requests[0]?.headers["x-cg-demo-api-key"]).toBe(COINGECKO_KEY);
  });

  it("does not hold the start up: while /ping hangs the proxy serves, and after 3 s it warns", async () => {
    cg.behave({ kind: "hang" });
    const { lines, url } = await startMain({});
    const listening = performance.now();
    await expect.poll(() => cg.count("/ping")).toBe(1);
    // CoinGecko has not answered, and the proxy already serves.
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect(message(lines, "start-up check")).toBeUndefined();
    await expect.poll(() => message(lines, "start-up check failed")).toBeDefined();
    expect(performance.now() - listening).toBeGreaterThan(2_500);
    expect(message(lines, "start-up check failed")).toMatchObject({
      level: 40,
      setting: "COINGECKO_BASE_URL",
      failure: { kind: "timeout" },
    });
  });

  it("warns naming COINGECKO_API_KEY when CoinGecko refuses the key, and never logs the key", async () => {
    const { lines } = await startMain({ COINGECKO_API_KEY: "CG-refused-at-start-1234" });
    await expect.poll(() => message(lines, "start-up check failed")).toBeDefined();
    expect(message(lines, "start-up check failed")).toMatchObject({
      level: 40,
      setting: "COINGECKO_API_KEY",
    });
    expect(JSON.stringify(lines)).not.toContain("CG-refused-at-start-1234");
  });

  it("is skipped with COINGECKO_STARTUP_CHECK=off", async () => {
    const { lines, url } = await startMain({ COINGECKO_STARTUP_CHECK: "off" });
    expect((await fetch(`${url}/api/prices/simple?ids=bitcoin&vs_currencies=usd`)).status).toBe(200);
    expect(cg.requests.map((seen) => seen.path)).toEqual(["/simple/price"]);
    expect(message(lines, "start-up check")).toBeUndefined();
  });
});
