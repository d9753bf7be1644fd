import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { CreateAppOptions, EnvSource } from "../src/index.js";
import { SESSION_COOKIE } from "../src/session/cookies.js";
import { type CoinGeckoStandIn, startCoinGecko } from "./support/coingecko-stand-in.js";
import { COINGECKO_KEY, type RunningProxy, startMarketProxy } from "./support/proxy.js";
import { openTestRedis, TEST_REDIS_URL, type TestRedis } from "./support/redis.js";

// Who may spend the upstream budget (docs/dashboard-proxy.md, "Upstream budget"), over real HTTP
// against the CoinGecko stand-in (which answers 404 for `no-such-…` coins, as CoinGecko does for
// an id it does not know). Clients are told apart by X-Forwarded-For from a trusted 127.0.0.1.
// Time is a hand-moved clock shared by the budget, the shares and the caches.

const START = Date.UTC(2026, 10, 23, 12, 0, 0);
const chart = (id: string) => `/api/prices/chart/${id}?vs_currency=usd&days=1`;
const simple = (id: string) => `/api/prices/simple?ids=${id}&vs_currencies=usd`;
/** A request from `address`; `dashboard`: carrying the session cookie, as the dashboard's pages do. */
const from = (address: string, dashboard = false): RequestInit => ({
  headers: {
    "x-forwarded-for": address,
    ...(dashboard ? { cookie: `${SESSION_COOKIE}=whatever-the-browser-holds` } : {}),
  },
});

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
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
});

const STORES = [
  { name: "in-process", url: undefined },
  ...(TEST_REDIS_URL === undefined ? [] : [{ name: "Redis", url: TEST_REDIS_URL }]),
];

describe.each(STORES)("market budget shares ($name)", ({ url }) => {
  let clock = START;
  let redis: TestRedis | undefined;

  beforeEach(() => {
    clock = START;
    redis = url === undefined ? undefined : openTestRedis(url);
  });
  afterEach(async () => {
    await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
    await redis?.cleanup();
  });

  /** A proxy on Demo's defaults (30 calls a minute, 5 per client) unless `env` says otherwise. */
  async function start(env: EnvSource = {}, options: CreateAppOptions = {}): Promise<RunningProxy> {
    const proxy = await startMarketProxy(
      { coingeckoUrl: cg.baseUrl, clock: () => clock, redis },
      {
        TRUSTED_PROXIES: "127.0.0.1",
        ...env,
      },
      options,
    );
    proxies.push(proxy);
    return proxy;
  }

  it("one client asking 30 made-up coin ids a minute spends 5 calls, and pushes no one else to 429", async () => {
    const proxy = await start();
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++)
      statuses.push((await proxy.call(chart(`no-such-${i}`), from("203.0.113.66"))).status);
    expect(statuses.filter((status) => status === 404)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(25);
    expect(cg.count(/^\/coins\/no-such-/)).toBe(5);
    const refused = await proxy.call(chart("no-such-30"), from("203.0.113.66"));
    expect(JSON.parse(refused.text).message).toMatch(
      /^Your share of this proxy's market data provider calls/,
    );
    expect(refused.headers["retry-after"]).toBe("60");
    // Everyone else still gets what is not cached: another client, and the dashboard's own pages.
    expect((await proxy.call(chart("bitcoin"), from("198.51.100.7"))).status).toBe(200);
    expect((await proxy.call(simple("bitcoin"), from("198.51.100.7"))).status).toBe(200);
    expect((await proxy.call(chart("ethereum"), from("198.51.100.8", true))).status).toBe(200);
    // Its share comes back with the next minute.
    clock += 60_000;
    expect((await proxy.call(chart("no-such-31"), from("203.0.113.66"))).status).toBe(404);
  });

  it("counts an IPv6 client by its /64: rotating addresses in it buys no more calls", async () => {
    const proxy = await start();
    for (let i = 1; i <= 10; i++)
      await proxy.call(chart(`no-such-${i}`), from(`2001:db8:0:1::${i.toString(16)}`));
    expect(cg.count(/^\/coins\/no-such-/)).toBe(5);
    expect((await proxy.call(chart("no-such-v6"), from("2001:db8:0:2::1"))).status).toBe(404);
  });

  it("holds a third of the minute's calls for requests carrying the dashboard's session cookie", async () => {
    const proxy = await start();
    const anonymous: number[] = [];
    // Many clients, one call each a second: no share runs out, only the budget's open part.
    for (let i = 1; i <= 20; i++) {
      anonymous.push((await proxy.call(simple(`coin-${i}`), from(`198.51.100.${i}`))).status);
      clock += 1_000;
    }
    expect(anonymous.every((status) => status === 200)).toBe(true);
    // At 20 s: the first call (at 0 s) must leave the window before another anonymous call fits.
    const open = await proxy.call(simple("coin-21"), from("198.51.100.21"));
    expect(open.status).toBe(429);
    expect(open.headers["retry-after"]).toBe("40");
    const dashboard: number[] = [];
    for (let i = 1; i <= 11; i++) {
      dashboard.push((await proxy.call(simple(`mine-${i}`), from(`192.0.2.${i}`, true))).status);
    }
    expect(dashboard.slice(0, 10).every((status) => status === 200)).toBe(true);
    expect(dashboard[10]).toBe(429);
    expect(cg.requests).toHaveLength(30);
    // At 25 s, with 30 calls in the window, an anonymous call waits until only 19 are left in it:
    // the eleventh call (at 10 s) leaves at 70 s.
    clock += 5_000;
    const later = await proxy.call(simple("coin-22"), from("198.51.100.22"));
    expect(later.headers["retry-after"]).toBe("45");
    clock += 45_000;
    expect((await proxy.call(simple("coin-22"), from("198.51.100.22"))).status).toBe(200);
  });

  it("asks CoinGecko about an unknown coin once in 10 minutes, whoever asks", async () => {
    const proxy = await start();
    // With Redis a second instance shares the remembered 404 (without, each instance has its own).
    const other = redis === undefined ? proxy : await start();
    expect((await proxy.call(chart("no-such-coin"), from("198.51.100.1"))).status).toBe(404);
    const again = await other.call(chart("no-such-coin"), from("198.51.100.2"));
    expect(again.status).toBe(404);
    expect(JSON.parse(again.text)).toMatchObject({ code: "NOT_FOUND" });
    expect(cg.count("/coins/no-such-coin/market_chart")).toBe(1);
    clock += 599_999;
    expect((await other.call(chart("no-such-coin"), from("198.51.100.3"))).status).toBe(404);
    expect(cg.count("/coins/no-such-coin/market_chart")).toBe(1);
    clock += 1;
    expect((await proxy.call(chart("no-such-coin"), from("198.51.100.4"))).status).toBe(404);
    expect(cg.count("/coins/no-such-coin/market_chart")).toBe(2);
  });

  it("logs budget refusals once a minute with their count, not a line each", async () => {
    const proxy = await start({ COINGECKO_CALLS_PER_MINUTE: "1", COINGECKO_CLIENT_CALLS_PER_MINUTE: "1000" });
    for (let i = 0; i < 30; i++) await proxy.call(simple(`flood-${i}`), from(`198.51.100.${i + 1}`));
    const refusalLines = () =>
      proxy.logLines
        .map((line) => JSON.parse(line))
        .filter((line) => line.msg?.startsWith("upstream budget refused"));
    expect(refusalLines()).toEqual([
      expect.objectContaining({ level: 40, refused: 1, byWindow: { minute: 1 } }),
    ]);
    expect(proxy.logLines.filter((line) => line.includes("upstream failed"))).toEqual([]);
    clock += 60_000;
    await proxy.call(simple("later-1"), from("198.51.100.200"));
    await proxy.call(simple("later-2"), from("198.51.100.201"));
    expect(refusalLines()).toHaveLength(2);
    expect(refusalLines()[1]).toMatchObject({ refused: 29, byWindow: { minute: 29 } });
  });
});
