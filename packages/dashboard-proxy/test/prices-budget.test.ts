import { parsePrometheus, sampleValue } from "@keyport/test-support/prometheus";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { CreateAppOptions, EnvSource } from "../src/index.js";
import { SESSION_COOKIE } from "../src/session/cookies.js";
import { type CoinGeckoStandIn, startCoinGecko } from "./support/coingecko-stand-in.js";
import { COINGECKO_KEY, type RunningProxy, startMarketProxy } from "./support/proxy.js";
import { openTestRedis, TEST_REDIS_URL, type TestRedis } from "./support/redis.js";

// The upstream budget over real HTTP, against the CoinGecko stand-in that counts calls. Time is a
// hand-moved clock shared by the budget and the caches: a minute passes in no time at all. The
// 1,000-query flood is in the slow tier (reliability/prices-budget-load.test.ts).

const simple = (id: string) => `/api/prices/simple?ids=${id}&vs_currencies=usd`;
// Mid-month, so a minute's movement never crosses into the next month by accident.
const START = Date.UTC(2026, 10, 23, 12, 0, 0);

let cg: CoinGeckoStandIn;
const proxies: RunningProxy[] = [];

beforeAll(async () => {
  cg = await startCoinGecko("x-cg-demo-api-key", COINGECKO_KEY);
});
afterAll(async () => {
  await cg.close();
});
beforeEach(() => {
  cg.requests.length = 0;
  cg.behave({ kind: "default" });
});
afterEach(async () => {
  const transcript = proxies.map((proxy) => proxy.transcript()).join("\n");
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
  expect(transcript).not.toContain(COINGECKO_KEY);
});

/** The budget where it lives: this process, or Redis (when TEST_REDIS_URL is set). */
const STORES = [
  { name: "in-process", url: undefined },
  ...(TEST_REDIS_URL === undefined ? [] : [{ name: "Redis", url: TEST_REDIS_URL }]),
];

describe.each(STORES)("upstream budget ($name)", ({ url }) => {
  let clock = START;
  let redis: TestRedis | undefined;

  beforeEach(() => {
    clock = START;
    redis = url === undefined ? undefined : openTestRedis(url);
  });
  afterEach(async () => {
    await redis?.cleanup();
  });

  async function start(env: EnvSource = {}, options: CreateAppOptions = {}): Promise<RunningProxy> {
    const proxy = await startMarketProxy(
      { coingeckoUrl: cg.baseUrl, clock: () => clock, redis },
      {
        // One client sends everything: the per-IP limit and the client's share are not under test
        // here (test/prices-share.test.ts tests the share).
        RATE_LIMIT_PER_MINUTE: "1000000",
        COINGECKO_CLIENT_CALLS_PER_MINUTE: "1000000",
        ...env,
      },
      options,
    );
    proxies.push(proxy);
    return proxy;
  }

  it("spends again once the oldest call of the window is 60 s old, and never before", async () => {
    const proxy = await start({ COINGECKO_CALLS_PER_MINUTE: "2" });
    expect((await proxy.call(simple("one"))).status).toBe(200);
    clock += 10_000;
    expect((await proxy.call(simple("two"))).status).toBe(200);
    clock += 49_999;
    const refused = await proxy.call(simple("three"));
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toBe("1");
    clock += 1;
    expect((await proxy.call(simple("three"))).status).toBe(200);
    // The window slides: the second call is still in it, so only one more fits until it leaves.
    expect((await proxy.call(simple("four"))).status).toBe(429);
    expect(cg.requests).toHaveLength(3);
  });

  it("stops at COINGECKO_CALLS_PER_MONTH until the next UTC month, serving stale copies meanwhile", async () => {
    clock = Date.UTC(2026, 10, 30, 23, 0, 0); // an hour before December
    const proxy = await start({ COINGECKO_CALLS_PER_MINUTE: "30", COINGECKO_CALLS_PER_MONTH: "3" });
    // The dashboard's own requests may spend the whole month, its reserve included.
    const dashboard = { headers: { cookie: `${SESSION_COOKIE}=any-value` } };
    for (const id of ["x", "y", "z"]) expect((await proxy.call(simple(id), dashboard)).status).toBe(200);
    const spent = await proxy.call(simple("w"), dashboard);
    expect(spent.status).toBe(429);
    expect(spent.headers["retry-after"]).toBe("3600");
    expect(JSON.parse(spent.text).message).toMatch(/monthly budget/);
    clock += 300_000;
    const stale = await proxy.call(simple("x"));
    expect(stale.status).toBe(200);
    expect(stale.headers["x-cache"]).toBe("STALE");
    clock = Date.UTC(2026, 11, 1, 0, 0, 1);
    expect((await proxy.call(simple("w"), dashboard)).status).toBe(200);
    expect(cg.requests).toHaveLength(4);
  });

  it("defaults to 30 a minute and 10,000 a month on Demo, 500 and no monthly cap on Pro, and logs it at start", async () => {
    const demo = await start();
    const demoLine = demo.logLines.find((line) => line.includes("upstream budget"));
    expect(JSON.parse(demoLine ?? "{}")).toMatchObject({
      coingeckoCallsPerMinute: 30,
      coingeckoCallsPerMonth: 10_000,
      shared: url !== undefined,
    });
    const pro = await start({ COINGECKO_PLAN: "pro" });
    const proLine = pro.logLines.find((line) => line.includes("upstream budget"));
    expect(JSON.parse(proLine ?? "{}")).toMatchObject({
      coingeckoCallsPerMinute: 500,
      coingeckoCallsPerMonth: "unlimited",
    });
  });

  it("shows the budget, its use and its refusals on /metrics; a refused call is not an upstream call", async () => {
    const proxy = await start({ COINGECKO_CALLS_PER_MINUTE: "2", COINGECKO_CALLS_PER_MONTH: "100" });
    for (const id of ["m1", "m2", "m3", "m4"]) await proxy.call(simple(id));
    const samples = parsePrometheus((await proxy.call("/metrics")).text);
    const value = (name: string, labels: Record<string, string>) => sampleValue(samples, name, labels);
    expect(value("keyport_proxy_upstream_budget_limit", { window: "minute" })).toBe(2);
    expect(value("keyport_proxy_upstream_budget_limit", { window: "month" })).toBe(100);
    expect(value("keyport_proxy_upstream_budget_used", { window: "minute" })).toBe(2);
    expect(value("keyport_proxy_upstream_budget_used", { window: "month" })).toBe(2);
    expect(value("keyport_proxy_upstream_budget_refusals_total", { window: "minute" })).toBe(2);
    expect(value("keyport_proxy_upstream_requests_total", { upstream: "coingecko", outcome: "ok" })).toBe(2);
    clock += 60_000;
    const later = parsePrometheus((await proxy.call("/metrics")).text);
    expect(sampleValue(later, "keyport_proxy_upstream_budget_used", { window: "minute" })).toBe(0);
    expect(sampleValue(later, "keyport_proxy_upstream_budget_used", { window: "month" })).toBe(2);
  });
});
