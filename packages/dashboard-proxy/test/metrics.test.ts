import { type AgentStandIn, startAgent } from "@keyport/test-support/agent-stand-in";
import { labelValues, parsePrometheus, type Sample, sampleValue } from "@keyport/test-support/prometheus";
import { sendRaw } from "@keyport/test-support/raw-http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "../src/index.js";
import { type CoinGeckoStandIn, startCoinGecko } from "./support/coingecko-stand-in.js";
import { AGENT_KEY, COINGECKO_KEY, type RunningProxy, startProxy } from "./support/proxy.js";

const METRICS_TOKEN = "proxy-metrics-token-8c21d4e07a55";
const SIMPLE = "/api/prices/simple?ids=bitcoin&vs_currencies=usd";
const MARKETS = "/api/prices/markets?vs_currency=usd&ids=bitcoin";
const CHART = "/api/prices/chart/bitcoin?vs_currency=usd&days=7";

let cg: CoinGeckoStandIn;
let agent: AgentStandIn;

beforeAll(async () => {
  cg = await startCoinGecko("x-cg-demo-api-key", COINGECKO_KEY);
  agent = await startAgent();
});
afterAll(async () => {
  await agent.close();
  await cg.close();
});

async function start(env: Record<string, string> = {}): Promise<RunningProxy> {
  return startProxy({
    COINGECKO_BASE_URL: cg.baseUrl,
    COINGECKO_API_KEY: COINGECKO_KEY,
    AGENT_URL: agent.url,
    AGENT_API_KEY: AGENT_KEY,
    // Chat without a session: these tests count traffic, not who may chat.
    CHAT_ACCESS: "public",
    ...env,
  });
}

async function scrape(proxy: RunningProxy, headers: Record<string, string> = {}): Promise<Sample[]> {
  const response = await proxy.call("/metrics", { headers });
  expect(response.status).toBe(200);
  expect(response.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheus(response.text);
}

describe("GET /metrics after real traffic", () => {
  let proxy: RunningProxy;
  let text: string;
  let samples: Sample[];

  beforeAll(async () => {
    proxy = await start();
    cg.behave({ kind: "default" });
    expect((await proxy.call(SIMPLE)).headers["x-cache"]).toBe("MISS");
    expect((await proxy.call(SIMPLE)).headers["x-cache"]).toBe("HIT");
    expect((await proxy.call(CHART)).status).toBe(200);
    cg.behave({ kind: "status", status: 429, headers: { "retry-after": "7" } });
    expect((await proxy.call(MARKETS)).status).toBe(429);
    agent.behave({ kind: "status", status: 503, body: "down" });
    const chat = await proxy.call("/api/chat", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "hi" }] }),
    });
    expect(chat.status).toBe(502);
    expect((await proxy.call("/api/prices/nothing/here")).status).toBe(404);
    const response = await proxy.call("/metrics");
    expect(response.status).toBe(200);
    text = response.text;
    samples = parsePrometheus(text);
  });
  afterAll(() => proxy.close());

  it("counts requests by method, route template and status, with a latency histogram", () => {
    const count = (method: string, route: string, status: string) =>
      sampleValue(samples, "keyport_proxy_http_requests_total", { method, route, status });
    expect(count("GET", "/api/prices/simple", "200")).toBe(2);
    expect(count("GET", "/api/prices/chart/:id", "200")).toBe(1);
    expect(count("GET", "/api/prices/markets", "429")).toBe(1);
    expect(count("POST", "/api/chat", "502")).toBe(1);
    expect(count("GET", "(unmatched)", "404")).toBe(1);
    expect(
      sampleValue(samples, "keyport_proxy_http_request_duration_seconds_count", {
        method: "GET",
        route: "/api/prices/simple",
      }),
    ).toBe(2);
    expect(sampleValue(samples, "keyport_proxy_http_server_errors_total", { route: "/api/chat" })).toBe(1);
    // Templates only: the coin id and the unknown path never became labels.
    const routes = labelValues(samples, "keyport_proxy_http_requests_total", "route");
    expect(routes.some((route) => route.includes("bitcoin") || route.includes("nothing"))).toBe(false);
  });

  it("counts upstream calls by upstream and outcome, with their latency", () => {
    const calls = (upstream: string, outcome: string) =>
      sampleValue(samples, "keyport_proxy_upstream_requests_total", { upstream, outcome });
    expect(calls("coingecko", "ok")).toBe(2);
    expect(calls("coingecko", "rate_limited")).toBe(1);
    expect(calls("agent", "bad_gateway")).toBe(1);
    expect(
      sampleValue(samples, "keyport_proxy_upstream_request_duration_seconds_count", {
        upstream: "coingecko",
      }),
    ).toBe(3);
  });

  it("counts cache answers per route: hit, miss, error", () => {
    const answers = (route: string, result: string) =>
      sampleValue(samples, "keyport_proxy_cache_requests_total", { route, result });
    expect(answers("/api/prices/simple", "miss")).toBe(1);
    expect(answers("/api/prices/simple", "hit")).toBe(1);
    expect(answers("/api/prices/chart/:id", "miss")).toBe(1);
    expect(answers("/api/prices/markets", "error")).toBe(1);
    expect(answers("/api/prices/simple", "stale")).toBe(0);
  });

  it("reports the process and holds no upstream key", () => {
    expect(sampleValue(samples, "process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(text).not.toContain(COINGECKO_KEY);
    expect(text).not.toContain(AGENT_KEY);
  });
});

describe("who may read the proxy's /metrics", () => {
  it("without METRICS_TOKEN, answers loopback and refuses a relayed request with 403", async () => {
    const proxy = await start();
    try {
      await scrape(proxy);
      const relayed: Record<string, string>[] = [
        { "x-forwarded-for": "203.0.113.9" },
        { forwarded: "for=203.0.113.9" },
      ];
      for (const headers of relayed) {
        const refused = await proxy.call("/metrics", { headers });
        expect(refused.status).toBe(403);
        expect(JSON.parse(refused.text)).toMatchObject({ code: "FORBIDDEN" });
      }
    } finally {
      await proxy.close();
    }
  });

  it("without METRICS_TOKEN, refuses X-Real-IP or Via alone, and a Host that is not loopback (DNS rebinding), with 403", async () => {
    const proxy = await start();
    try {
      const port = new URL(proxy.url).port;
      const refusedHeaders: Record<string, string>[] = [
        { "x-real-ip": "203.0.113.9" },
        { via: "1.1 proxy" },
        { "x-forwarded-host": "dashboard.example" },
        { host: `rebound.example:${port}` },
      ];
      for (const headers of refusedHeaders) {
        const refused = await sendRaw(proxy.url, { path: "/metrics", headers });
        expect(refused.status).toBe(403);
        expect(JSON.parse(refused.text)).toMatchObject({ code: "FORBIDDEN" });
      }
      expect(
        (await sendRaw(proxy.url, { path: "/metrics", headers: { host: `localhost:${port}` } })).status,
      ).toBe(200);
    } finally {
      await proxy.close();
    }
  });

  it("with METRICS_TOKEN, lets the token decide whatever the Host and forwarding headers say", async () => {
    const proxy = await start({ METRICS_TOKEN });
    try {
      const answer = await sendRaw(proxy.url, {
        path: "/metrics",
        headers: {
          authorization: `Bearer ${METRICS_TOKEN}`,
          host: "rebound.example",
          "x-real-ip": "203.0.113.9",
        },
      });
      expect(answer.status).toBe(200);
    } finally {
      await proxy.close();
    }
  });

  it("with METRICS_TOKEN, answers 401 without it or with a wrong one, 200 with it, never printing it", async () => {
    const proxy = await start({ METRICS_TOKEN });
    try {
      for (const authorization of [undefined, "Bearer wrong-token-wrong", `Bearer ${METRICS_TOKEN}x`]) {
        const refused = await proxy.call("/metrics", { headers: authorization ? { authorization } : {} });
        expect(refused.status).toBe(401);
        expect(refused.headers["www-authenticate"]).toMatch(/^Bearer/);
        expect(JSON.parse(refused.text)).toMatchObject({ code: "UNAUTHORIZED" });
      }
      const samples = await scrape(proxy, {
        authorization: `Bearer ${METRICS_TOKEN}`,
        "x-forwarded-for": "203.0.113.9",
      });
      expect(
        sampleValue(samples, "keyport_proxy_http_requests_total", { route: "/metrics", status: "401" }),
      ).toBe(3);
      expect(proxy.transcript()).not.toContain(METRICS_TOKEN);
    } finally {
      await proxy.close();
    }
  });

  it("takes METRICS_TOKEN of 16 characters or more and never echoes a short one", () => {
    expect(parseEnv({ METRICS_TOKEN: METRICS_TOKEN }).METRICS_TOKEN).toBe(METRICS_TOKEN);
    expect(parseEnv({ METRICS_TOKEN: " " }).METRICS_TOKEN).toBeUndefined();
    expect(() => parseEnv({ METRICS_TOKEN: "short-secret" })).toThrow(EnvError);
    expect(() => parseEnv({ METRICS_TOKEN: "short-secret" })).not.toThrow(/short-secret/);
  });
});
