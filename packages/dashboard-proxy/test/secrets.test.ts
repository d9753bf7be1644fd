import { type AgentStandIn, startAgent } from "@keyport/test-support/agent-stand-in";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CoinGeckoStandIn, startCoinGecko } from "./support/coingecko-stand-in.js";
import { AGENT_KEY, COINGECKO_KEY, type RunningProxy, startProxy } from "./support/proxy.js";

let cg: CoinGeckoStandIn;
let agent: AgentStandIn;
let proxy: RunningProxy;

beforeAll(async () => {
  cg = await startCoinGecko("x-cg-demo-api-key", COINGECKO_KEY);
  agent = await startAgent();
  proxy = await startProxy(
    {
      COINGECKO_BASE_URL: cg.baseUrl,
      COINGECKO_API_KEY: COINGECKO_KEY,
      AGENT_URL: agent.url,
      AGENT_API_KEY: AGENT_KEY,
      CHAT_ACCESS: "public",
      UPSTREAM_TIMEOUT_MS: "600",
      CHAT_HEADER_TIMEOUT_MS: "600",
      LOG_LEVEL: "trace",
    },
    { cache: { pricesTtlMs: 1, chartTtlMs: 1, staleWhileRevalidateMs: 0 } },
  );
});
afterAll(async () => {
  await proxy.close();
  await Promise.all([cg.close(), agent.close()]);
});

const chat = (messages: unknown): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ messages }),
});

describe("upstream secrets", () => {
  it("never appear in a response header, a body, an error or a log line, whatever happens", async () => {
    const paths = [
      "/api/prices/simple?ids=bitcoin&vs_currencies=usd",
      "/api/prices/markets?vs_currency=usd",
      "/api/prices/chart/bitcoin?vs_currency=usd&days=1",
    ];
    const failures = [
      { kind: "status", status: 429 },
      { kind: "status", status: 500 },
      { kind: "status", status: 401 },
      { kind: "garbage" },
      { kind: "reset" },
      { kind: "hang" },
    ] as const;
    // Each failure without a cached copy, then a success, then each failure again over a stale copy.
    for (const behaviour of [...failures, { kind: "default" } as const, ...failures]) {
      cg.behave(behaviour);
      for (const path of paths) await proxy.call(path);
    }
    await proxy.call("/api/prices/simple?ids=bitcoin&vs_currencies=usd&x_cg_demo_api_key=x");

    const streamed = proxy.call("/api/chat", chat([{ role: "user", content: "hi" }]));
    await expect.poll(() => agent.calls.length).toBe(1);
    agent.release();
    expect((await streamed).status).toBe(200);
    for (const behaviour of [{ kind: "status", status: 401, body: "bad key" }, { kind: "hang" }] as const) {
      agent.behave(behaviour);
      await proxy.call("/api/chat", chat([{ role: "user", content: "hi" }]));
    }
    await proxy.call("/api/chat", chat([]));

    expect(cg.requests.every((req) => req.headers["x-cg-demo-api-key"] === COINGECKO_KEY)).toBe(true);
    expect(cg.requests.every((req) => !req.query.toString().includes(COINGECKO_KEY))).toBe(true);
    expect(agent.calls.every((call) => call.headers.authorization === `Bearer ${AGENT_KEY}`)).toBe(true);

    const transcript = proxy.transcript();
    // The scan covered the failure paths, not just the happy ones.
    for (const code of ["TOO_MANY_REQUESTS", "BAD_GATEWAY", "GATEWAY_TIMEOUT", "BAD_REQUEST"]) {
      expect(transcript).toContain(code);
    }
    expect(transcript).not.toContain(COINGECKO_KEY);
    expect(transcript).not.toContain(AGENT_KEY);
  });

  it("logs one line per request with method, path (no query), status and duration", async () => {
    const before = proxy.logLines.length;
    await proxy.call("/api/prices/simple?ids=bitcoin&vs_currencies=usd&secret_param=abc");
    const lines = proxy.logLines.slice(before).map((line) => JSON.parse(line));
    const requests = lines.filter((line) => line.msg === "request");
    expect(requests).toEqual([
      expect.objectContaining({
        method: "GET",
        path: "/api/prices/simple",
        status: 400,
        durationMs: expect.any(Number),
      }),
    ]);
    expect(proxy.logLines.slice(before).join("")).not.toContain("secret_param");
  });
});
