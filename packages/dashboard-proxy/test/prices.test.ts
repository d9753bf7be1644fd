import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { CreateAppOptions, EnvSource } from "../src/index.js";
import { type CoinGeckoStandIn, startCoinGecko } from "./support/coingecko-stand-in.js";
import { COINGECKO_KEY, type RunningProxy, startProxy } from "./support/proxy.js";

const SIMPLE = "/api/prices/simple?ids=bitcoin&vs_currencies=usd";

let cg: CoinGeckoStandIn;
let proxy: RunningProxy;
const transcripts: string[] = [];

beforeAll(async () => {
  cg = await startCoinGecko("x-cg-demo-api-key", COINGECKO_KEY);
});
afterAll(async () => {
  await cg.close();
  // Whatever each test did, the key never reached a response header, a body or a log line.
  expect(transcripts.join("\n")).not.toContain(COINGECKO_KEY);
});
beforeEach(() => {
  cg.requests.length = 0;
  cg.behave({ kind: "default" });
  cg.setVersion(1);
});
afterEach(async () => {
  transcripts.push(proxy.transcript());
  await proxy.close();
});

async function start(env: EnvSource = {}, options: CreateAppOptions = {}) {
  proxy = await startProxy(
    { COINGECKO_BASE_URL: cg.baseUrl, COINGECKO_API_KEY: COINGECKO_KEY, ...env },
    options,
  );
  return proxy;
}

describe("market data relay", () => {
  it("relays /simple/price, sending the key as a header and a query rebuilt from validated values", async () => {
    await start();
    const res = await proxy.call(
      "/api/prices/simple?ids=ethereum,bitcoin&vs_currencies=usd,EUR&include_market_cap=true",
    );
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({
      bitcoin: { eur: 100, usd: 100 },
      ethereum: { eur: 100, usd: 100 },
    });
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.headers["x-cache"]).toBe("MISS");
    expect(res.headers["cache-control"]).toMatch(/^public, max-age=\d+, stale-while-revalidate=\d+$/);
    expect(res.headers["x-upstream-secret"]).toBeUndefined();

    expect(cg.requests).toHaveLength(1);
    const [seen] = cg.requests;
    expect(seen?.path).toBe("/simple/price");
    expect(seen?.headers["x-cg-demo-api-key"]).toBe(COINGECKO_KEY);
    expect(Object.fromEntries(seen?.query ?? [])).toEqual({
      ids: "bitcoin,ethereum",
      vs_currencies: "eur,usd",
      include_market_cap: "true",
      include_24hr_vol: "false",
      include_24hr_change: "false",
      include_last_updated_at: "false",
    });
  });

  it("relays /coins/markets, keeping fields the schema does not name", async () => {
    await start();
    const res = await proxy.call(
      "/api/prices/markets?vs_currency=usd&ids=bitcoin&per_page=10&sparkline=false",
    );
    expect(res.status).toBe(200);
    const [row] = JSON.parse(res.text);
    expect(row).toMatchObject({ id: "bitcoin", current_price: 100, some_future_field: { nested: true } });
    expect(cg.requests[0]?.path).toBe("/coins/markets");
    expect(Object.fromEntries(cg.requests[0]?.query ?? [])).toEqual({
      vs_currency: "usd",
      ids: "bitcoin",
      order: "market_cap_desc",
      per_page: "10",
      page: "1",
      sparkline: "false",
    });
  });

  it("relays /coins/{id}/market_chart with the id in the path", async () => {
    await start();
    const res = await proxy.call("/api/prices/chart/bitcoin?vs_currency=usd&days=7");
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({
      prices: [[1_700_000_000_000, 100]],
      market_caps: [[1_700_000_000_000, 2e12]],
      total_volumes: [[1_700_000_000_000, 3e10]],
    });
    expect(cg.requests[0]?.path).toBe("/coins/bitcoin/market_chart");
    expect(Object.fromEntries(cg.requests[0]?.query ?? [])).toEqual({ vs_currency: "usd", days: "7" });
    expect(cg.requests[0]?.headers["x-cg-demo-api-key"]).toBe(COINGECKO_KEY);
  });

  it("uses the Pro key header when COINGECKO_PLAN=pro", async () => {
    const pro = await startCoinGecko("x-cg-pro-api-key", COINGECKO_KEY);
    try {
      await start({ COINGECKO_PLAN: "pro", COINGECKO_BASE_URL: pro.baseUrl });
      const res = await proxy.call(SIMPLE);
      expect(res.status).toBe(200);
      expect(pro.requests[0]?.headers["x-cg-pro-api-key"]).toBe(COINGECKO_KEY);
      expect(pro.requests[0]?.headers["x-cg-demo-api-key"]).toBeUndefined();
    } finally {
      await pro.close();
    }
  });
});

describe("cache", () => {
  it("answers 200 concurrent identical cold requests with one upstream call, and a second wave with none", async () => {
    await start();
    let open: () => void = () => {};
    cg.behave({ kind: "gated", until: new Promise<void>((resolve) => (open = resolve)) });
    const wave = () => Promise.all(Array.from({ length: 200 }, () => proxy.call(SIMPLE)));
    const first = wave();
    // Every request of the wave is in the proxy, queued behind the one in-flight call.
    await expect.poll(() => proxy.connections()).toBe(200);
    await expect.poll(() => cg.requests.length).toBe(1);
    open();
    const firstWave = await first;
    expect(firstWave.every((res) => res.status === 200 && res.text === firstWave[0]?.text)).toBe(true);
    expect(cg.requests).toHaveLength(1);

    const secondWave = await wave();
    expect(secondWave.every((res) => res.status === 200 && res.headers["x-cache"] === "HIT")).toBe(true);
    expect(cg.requests).toHaveLength(1);
  });

  it("shares one entry between ids=b,a and ids=a,b (and duplicates, and spelled-out defaults)", async () => {
    await start();
    const miss = await proxy.call("/api/prices/simple?ids=bitcoin,ethereum&vs_currencies=usd");
    expect(miss.headers["x-cache"]).toBe("MISS");
    for (const query of [
      "ids=ethereum,bitcoin&vs_currencies=usd",
      "ids=ethereum,bitcoin,ethereum&vs_currencies=USD",
      "vs_currencies=usd&ids=bitcoin,ethereum&include_market_cap=false",
    ]) {
      const hit = await proxy.call(`/api/prices/simple?${query}`);
      expect(hit.headers["x-cache"]).toBe("HIT");
      expect(hit.text).toBe(miss.text);
    }
    expect(cg.requests).toHaveLength(1);
  });

  it("answers a hit with the miss's bytes and Content-Length, Vary: Origin, a max-age that counts down, and CORS for an allowed origin", async () => {
    let clock = 1_000;
    const site = "https://app.example";
    await start({ ALLOWED_ORIGINS: site }, { cache: { pricesTtlMs: 60_000, now: () => clock } });
    const miss = await proxy.call(SIMPLE);
    expect(miss.headers["x-cache"]).toBe("MISS");
    for (const [advanceMs, maxAge] of [
      [0, 60],
      [10_500, 49],
      [0, 49],
      [20_000, 29],
    ] as const) {
      clock += advanceMs;
      const hit = await proxy.call(SIMPLE);
      expect(hit.status).toBe(200);
      expect(hit.text).toBe(miss.text);
      expect(hit.headers).toMatchObject({
        "x-cache": "HIT",
        "content-type": "application/json; charset=utf-8",
        "content-length": String(Buffer.byteLength(miss.text)),
        "cache-control": `public, max-age=${maxAge}, stale-while-revalidate=60`,
        vary: "Origin",
      });
      expect(hit.headers["access-control-allow-origin"]).toBeUndefined();
    }
    const head = await proxy.call(SIMPLE, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
    expect(head.headers["content-length"]).toBe(String(Buffer.byteLength(miss.text)));
    const cors = await proxy.call(SIMPLE, { headers: { origin: site } });
    expect(cors.headers).toMatchObject({
      "x-cache": "HIT",
      "access-control-allow-origin": site,
      vary: "Origin",
    });
    // The CORS answer's headers were its own: the next hit without Origin has none.
    expect((await proxy.call(SIMPLE)).headers["access-control-allow-origin"]).toBeUndefined();
    expect(cg.requests).toHaveLength(1);
  });

  it("serves a stale copy at once within the stale-while-revalidate window and refreshes it behind", async () => {
    let clock = 1_000;
    await start({}, { cache: { pricesTtlMs: 50_000, staleWhileRevalidateMs: 60_000, now: () => clock } });
    expect((await proxy.call(SIMPLE)).headers["x-cache"]).toBe("MISS");
    clock += 50_001; // the TTL lapses
    cg.setVersion(2);
    let open: () => void = () => {};
    cg.behave({ kind: "gated", until: new Promise<void>((resolve) => (open = resolve)) });
    // The upstream is held, so this answer cannot have waited for it.
    const stale = await proxy.call(SIMPLE);
    expect(stale.headers["x-cache"]).toBe("STALE");
    expect(stale.headers["cache-control"]).toMatch(/max-age=0/);
    expect(JSON.parse(stale.text)).toEqual({ bitcoin: { usd: 100 } });
    await expect.poll(() => cg.requests.length).toBe(2); // the refresh went out behind it
    open();
    await expect.poll(async () => JSON.parse((await proxy.call(SIMPLE)).text).bitcoin.usd).toBe(200);
  });

  it("does not cache failures: the next request tries the upstream again", async () => {
    await start();
    cg.behave({ kind: "status", status: 500 });
    expect((await proxy.call(SIMPLE)).status).toBe(502);
    cg.behave({ kind: "default" });
    const res = await proxy.call(SIMPLE);
    expect(res.status).toBe(200);
    expect(res.headers["x-cache"]).toBe("MISS");
    expect(cg.requests).toHaveLength(2);
  });
});

describe("upstream failures without a cached copy", () => {
  it("relays a 429 as 429 with the upstream's Retry-After", async () => {
    await start();
    cg.behave({ kind: "status", status: 429, headers: { "retry-after": "17" } });
    const res = await proxy.call(SIMPLE);
    expect(res.status).toBe(429);
    expect(res.headers["retry-after"]).toBe("17");
    expect(JSON.parse(res.text)).toMatchObject({ code: "TOO_MANY_REQUESTS" });
  });

  it("answers a 429 without Retry-After with a default Retry-After", async () => {
    await start();
    cg.behave({ kind: "status", status: 429 });
    const res = await proxy.call(SIMPLE);
    expect(res.status).toBe(429);
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
  });

  it.each([
    ["a 500", { kind: "status", status: 500 } as const],
    ["garbage", { kind: "garbage" } as const],
    ["a reset connection", { kind: "reset" } as const],
  ])("answers %s with 502 and none of the upstream's text", async (_name, behaviour) => {
    await start();
    cg.behave(behaviour);
    const res = await proxy.call(SIMPLE);
    expect(res.status).toBe(502);
    expect(JSON.parse(res.text)).toEqual({
      code: "BAD_GATEWAY",
      message: expect.any(String),
      requestId: res.headers["x-request-id"],
    });
    expect(res.text).not.toMatch(/upstream trouble|html/);
    expect(res.headers["x-upstream-secret"]).toBeUndefined();
  });

  it("answers an upstream slower than UPSTREAM_TIMEOUT_MS with 504", async () => {
    await start({ UPSTREAM_TIMEOUT_MS: "300" });
    cg.behave({ kind: "hang" });
    const res = await proxy.call(SIMPLE);
    expect(res.status).toBe(504);
    expect(JSON.parse(res.text)).toMatchObject({ code: "GATEWAY_TIMEOUT" });
  });

  it("answers an unknown coin (upstream 404) with 404", async () => {
    await start();
    cg.behave({ kind: "status", status: 404, body: '{"error":"coin not found"}' });
    const res = await proxy.call("/api/prices/chart/nope-coin?vs_currency=usd&days=1");
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text)).toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("upstream failures with a cached copy", () => {
  it.each([
    ["429", { kind: "status", status: 429, headers: { "retry-after": "5" } } as const],
    ["500", { kind: "status", status: 500 } as const],
    ["garbage", { kind: "garbage" } as const],
    ["timeout", { kind: "hang" } as const],
  ])("serves the stale copy (X-Cache: STALE) when the refresh fails with %s", async (_name, behaviour) => {
    // No stale-while-revalidate window: the request waits for the refresh, which fails.
    let clock = 1_000;
    await start(
      { UPSTREAM_TIMEOUT_MS: "1000" },
      { cache: { pricesTtlMs: 50_000, staleWhileRevalidateMs: 0, now: () => clock } },
    );
    const fresh = await proxy.call(SIMPLE);
    expect(fresh.status).toBe(200);
    clock += 50_001; // the TTL lapses
    cg.behave(behaviour);
    const stale = await proxy.call(SIMPLE);
    expect(stale.status).toBe(200);
    expect(stale.headers["x-cache"]).toBe("STALE");
    expect(stale.headers["cache-control"]).toMatch(/max-age=0/);
    expect(stale.text).toBe(fresh.text);
    expect(cg.requests).toHaveLength(2);
  });
});

describe("query validation", () => {
  const tooMany = Array.from({ length: 101 }, (_, i) => `coin${i}`).join(",");
  it.each([
    ["ids=../x&vs_currencies=usd"],
    ["ids=a%2Fb&vs_currencies=usd"],
    ["ids=a/b&vs_currencies=usd"],
    ["ids=Bitcoin&vs_currencies=usd"],
    [`ids=${tooMany}&vs_currencies=usd`],
    ["ids=&vs_currencies=usd"],
    ["ids=bitcoin,,ethereum&vs_currencies=usd"],
    ["ids=bitcoin&ids=ethereum&vs_currencies=usd"],
    ["ids=bitcoin"],
    ["ids=bitcoin&vs_currencies=usd&x_cg_demo_api_key=attacker"],
    ["ids=bitcoin&vs_currencies=usd&api_key=attacker"],
    ["ids=bitcoin&vs_currencies=usd&include_market_cap=1"],
    ["ids=bitcoin&vs_currencies=usd&precision=19"],
  ])("refuses /api/prices/simple?%s with 400 and the upstream sees nothing", async (query) => {
    await start();
    const res = await proxy.call(`/api/prices/simple?${query}`);
    expect(res.status).toBe(400);
    const body = JSON.parse(res.text);
    expect(body).toMatchObject({ code: "BAD_REQUEST" });
    expect(body.issues.length).toBeGreaterThan(0);
    expect(cg.requests).toHaveLength(0);
  });

  it.each([
    ["vs_currency=usd&per_page=251"],
    ["vs_currency=usd&page=0"],
    ["vs_currency=usd&order=random"],
    ["vs_currency=usd&price_change_percentage=2h"],
    ["per_page=10"],
    ["vs_currency=usd&api_key=attacker"],
  ])("refuses /api/prices/markets?%s with 400 and the upstream sees nothing", async (query) => {
    await start();
    const res = await proxy.call(`/api/prices/markets?${query}`);
    expect(res.status).toBe(400);
    expect(cg.requests).toHaveLength(0);
  });

  it.each([
    ["/api/prices/chart/a%2Fb?vs_currency=usd&days=1"],
    ["/api/prices/chart/..%2Fx?vs_currency=usd&days=1"],
    ["/api/prices/chart/%2e%2e%2Fx?vs_currency=usd&days=1"],
    ["/api/prices/chart/Bitcoin?vs_currency=usd&days=1"],
    ["/api/prices/chart/a/b?vs_currency=usd&days=1"],
    ["/api/prices/chart/bitcoin?vs_currency=usd&days=0"],
    ["/api/prices/chart/bitcoin?vs_currency=usd&days=02"],
    ["/api/prices/chart/bitcoin?vs_currency=usd&days=1.5"],
    ["/api/prices/chart/bitcoin?vs_currency=usd"],
    ["/api/prices/chart/bitcoin?vs_currency=usd&days=1&interval=weekly"],
    ["/api/prices/chart/bitcoin?vs_currency=usd&days=1&x_cg_demo_api_key=attacker"],
  ])("refuses %s with 400 and the upstream sees nothing", async (path) => {
    await start();
    const res = await proxy.raw(path);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toMatchObject({ code: "BAD_REQUEST" });
    expect(cg.requests).toHaveLength(0);
  });

  it.each([
    ["/api/prices/chart/../x?vs_currency=usd&days=1"],
    ["/api/prices/chart/..?vs_currency=usd&days=1"],
    ["/api/prices/chart/%2e%2e?vs_currency=usd&days=1"],
  ])("never lets the dot segments of %s reach the upstream", async (path) => {
    await start();
    const res = await proxy.raw(path);
    expect([400, 404]).toContain(res.status);
    expect(cg.requests).toHaveLength(0);
  });
});
