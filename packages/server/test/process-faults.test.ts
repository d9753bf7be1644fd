import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, spawnServer } from "./support/process.js";

// Slow tier: the real entry point (src/main.ts) in a child process, with faults injected by
// test/support/fault-injector.mjs (docs/decisions.md#process-faults).
const injector = fileURLToPath(new URL("./support/fault-injector.mjs", import.meta.url));
const SECRETS = /rpcuser|rpcpass|sk_provider_key|eth_getCode|0xpayload/;

interface LogLine {
  level: number;
  msg: string;
}

function logLines(server: ServerProcess): LogLine[] {
  return server
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogLine);
}

async function rejectionsCounted(server: ServerProcess): Promise<number> {
  const text = await (await fetch(`${server.baseUrl}/metrics`)).text();
  return Number(/^process_unhandled_rejections_total (\d+)/m.exec(text)?.[1] ?? "NaN");
}

describe("the server process and faults nothing handled", () => {
  let server: ServerProcess;

  beforeAll(async () => {
    server = await spawnServer(
      {
        DATABASE_URL: "memory:",
        NODE_OPTIONS: `--import ${injector}`,
        // A node that is not there, behind a URL carrying credentials: the start logs name neither.
        RPC_URL: "http://rpcuser:rpcpass@127.0.0.1:9/v3/sk_provider_key",
      },
      120_000,
    );
  });
  afterAll(() => server.stop("SIGKILL"));

  it("starts without printing a credential-bearing URL setting", () => {
    expect(server.output()).toContain("RPC_URL did not answer at start");
    expect(server.output()).not.toMatch(SECRETS);
  });

  it("keeps serving after unhandled rejections, logging one redacted line per distinct message and counting each", async () => {
    server.child.kill("SIGUSR2");
    await expect.poll(() => rejectionsCounted(server), { timeout: 10_000 }).toBe(1);
    server.child.kill("SIGUSR2");
    await expect.poll(() => rejectionsCounted(server), { timeout: 10_000 }).toBe(2);
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
    const rejections = logLines(server).filter((line) => line.msg.startsWith("unhandled promise rejection"));
    expect(rejections).toHaveLength(1);
    expect(rejections[0]?.level).toBe(50);
    expect(server.output()).toContain("https://rpc.example");
    expect(server.output()).not.toMatch(SECRETS);
  });

  it("drains and exits 1 after an uncaught exception, with one redacted fatal line", async () => {
    const code = await server.stop("SIGHUP");
    expect(code).toBe(1);
    const fatal = logLines(server).filter((line) => line.level === 60);
    expect(fatal.map((line) => line.msg)).toEqual(["uncaught exception: draining, then exiting 1"]);
    expect(server.output()).not.toMatch(SECRETS);
  });
});
