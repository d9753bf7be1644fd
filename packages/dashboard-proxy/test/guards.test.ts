import { type AgentStandIn, startAgent } from "@keyport/test-support/agent-stand-in";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { CreateAppOptions, EnvSource } from "../src/index.js";
import { type CoinGeckoStandIn, startCoinGecko } from "./support/coingecko-stand-in.js";
import { AGENT_KEY, COINGECKO_KEY, type RunningProxy, startProxy } from "./support/proxy.js";

const SIMPLE = "/api/prices/simple?ids=bitcoin&vs_currencies=usd";
const APP_ORIGIN = "http://dashboard.test:5173";

let cg: CoinGeckoStandIn;
let agent: AgentStandIn;
let proxy: RunningProxy;

beforeAll(async () => {
  cg = await startCoinGecko("x-cg-demo-api-key", COINGECKO_KEY);
  agent = await startAgent();
});
afterAll(async () => {
  await Promise.all([cg.close(), agent.close()]);
});
beforeEach(() => {
  cg.requests.length = 0;
  agent.calls.length = 0;
});
afterEach(async () => {
  agent.release();
  await proxy.close();
});

async function start(env: EnvSource = {}, options: CreateAppOptions = {}) {
  proxy = await startProxy(
    {
      COINGECKO_BASE_URL: cg.baseUrl,
      COINGECKO_API_KEY: COINGECKO_KEY,
      AGENT_URL: agent.url,
      AGENT_API_KEY: AGENT_KEY,
      ALLOWED_ORIGINS: APP_ORIGIN,
      ...env,
    },
    options,
  );
  return proxy;
}

describe("origin check", () => {
  it("refuses a foreign Origin with 403 before any upstream call", async () => {
    await start();
    const prices = await proxy.call(SIMPLE, { headers: { origin: "https://evil.test" } });
    expect(prices.status).toBe(403);
    expect(JSON.parse(prices.text)).toMatchObject({ code: "FORBIDDEN" });
    expect(prices.headers["access-control-allow-origin"]).toBeUndefined();

    const chat = await proxy.call("/api/chat", {
      method: "POST",
      headers: { origin: "https://evil.test", "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "hi" }] }),
    });
    expect(chat.status).toBe(403);
    expect(cg.requests).toHaveLength(0);
    expect(agent.calls).toHaveLength(0);
  });

  it("refuses `Origin: null` (sandboxed frames, file://)", async () => {
    await start();
    expect((await proxy.call(SIMPLE, { headers: { origin: "null" } })).status).toBe(403);
  });

  it("refuses a foreign origin's preflight", async () => {
    await start();
    const res = await proxy.call(SIMPLE, { method: "OPTIONS", headers: { origin: "https://evil.test" } });
    expect(res.status).toBe(403);
  });

  it("gives an allowed origin chat only under CHAT_ACCESS=public, and never /api/meta or /trpc", async () => {
    const chatCall = () =>
      proxy.call("/api/chat", {
        method: "OPTIONS",
        headers: { origin: APP_ORIGIN, "access-control-request-method": "POST" },
      });
    await start({ CHAT_ACCESS: "session" });
    const refused = await chatCall();
    expect(refused.status).toBe(403);
    expect(refused.headers["access-control-allow-origin"]).toBeUndefined();
    for (const path of ["/api/meta", "/trpc/auth.nonce"]) {
      const res = await proxy.call(path, { headers: { origin: APP_ORIGIN } });
      expect(res.status).toBe(403);
      expect(res.headers["access-control-allow-origin"]).toBeUndefined();
    }
    await proxy.close();
    await start({ CHAT_ACCESS: "public" });
    const allowed = await chatCall();
    expect(allowed.status).toBe(204);
    expect(allowed.headers["access-control-allow-origin"]).toBe(APP_ORIGIN);
  });

  it("serves an allowed origin with CORS headers for it", async () => {
    await start();
    const res = await proxy.call(SIMPLE, { headers: { origin: APP_ORIGIN } });
    expect(res.status).toBe(200);
    expect(res.headers["access-control-allow-origin"]).toBe(APP_ORIGIN);
    expect(res.headers.vary).toMatch(/origin/i);
    expect(res.headers["access-control-expose-headers"]).toMatch(/x-cache/);
  });

  it("answers an allowed origin's preflight with 204 and the allowed methods", async () => {
    await start({ CHAT_ACCESS: "public" });
    const res = await proxy.call("/api/chat", {
      method: "OPTIONS",
      headers: {
        origin: APP_ORIGIN,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers["access-control-allow-origin"]).toBe(APP_ORIGIN);
    expect(res.headers["access-control-allow-methods"]).toMatch(/POST/);
    expect(res.headers["access-control-allow-headers"]).toMatch(/content-type/);
    expect(agent.calls).toHaveLength(0);
  });

  it("allows requests without an Origin and from PUBLIC_ORIGIN, without CORS headers", async () => {
    await start({ PUBLIC_ORIGIN: "https://keys.example" });
    expect((await proxy.call(SIMPLE)).status).toBe(200);
    const same = await proxy.call(SIMPLE, { headers: { origin: "https://keys.example" } });
    expect(same.status).toBe(200);
    expect(same.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("never trusts Host: an Origin naming the Host it was sent to is still foreign", async () => {
    await start({ PUBLIC_ORIGIN: "https://keys.example" });
    const res = await proxy.call(SIMPLE, { headers: { origin: proxy.url } });
    expect(res.status).toBe(403);
  });
});

describe("rate limit", () => {
  it("answers 429 with Retry-After once a client passes RATE_LIMIT_PER_MINUTE", async () => {
    await start({ RATE_LIMIT_PER_MINUTE: "3" });
    for (let i = 0; i < 3; i++) expect((await proxy.call(SIMPLE)).status).toBe(200);
    const limited = await proxy.call(SIMPLE);
    expect(limited.status).toBe(429);
    expect(JSON.parse(limited.text)).toMatchObject({ code: "TOO_MANY_REQUESTS" });
    const retryAfter = Number(limited.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Refused requests never reach the upstream; health checks are not limited.
    expect(cg.requests).toHaveLength(1);
    expect((await proxy.call("/healthz")).status).toBe(200);
  });

  it("counts chat requests too", async () => {
    await start({ RATE_LIMIT_PER_MINUTE: "1" });
    await proxy.call("/api/chat", { method: "POST", headers: { "content-type": "text/plain" }, body: "x" });
    const res = await proxy.call("/api/chat", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "hi" }] }),
    });
    expect(res.status).toBe(429);
    expect(agent.calls).toHaveLength(0);
  });
});

describe("health and unknown routes", () => {
  it("answers /healthz", async () => {
    await start();
    const res = await proxy.call("/healthz");
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({ ok: true });
  });

  it("answers an unknown route with the error envelope, not h3's text", async () => {
    await start();
    const res = await proxy.call("/api/nothing?token=abc");
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text)).toEqual({ code: "NOT_FOUND", message: "No such route" });
  });
});
