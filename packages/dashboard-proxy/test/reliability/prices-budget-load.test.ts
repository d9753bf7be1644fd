import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "../../src/session/cookies.js";
import { type CoinGeckoStandIn, startCoinGecko } from "../support/coingecko-stand-in.js";
import { COINGECKO_KEY, type RunningProxy, startProxy } from "../support/proxy.js";
import { openTestRedis, TEST_REDIS_URL, type TestRedis } from "../support/redis.js";

// The upstream budget under a flood of distinct queries (each one a cache miss), over real HTTP
// against the stand-in that counts calls. Time is a hand-moved clock shared by the budget and the
// caches: the minute passes without waiting for it.

const simple = (id: string) => `/api/prices/simple?ids=${id}&vs_currencies=usd`;
// Mid-month, so the minute never crosses into the next month.
const START = Date.UTC(2026, 10, 23, 12, 0, 0);

let cg: CoinGeckoStandIn;

beforeAll(async () => {
  cg = await startCoinGecko("x-cg-demo-api-key", COINGECKO_KEY);
});
afterAll(async () => {
  await cg.close();
});

const STORES = [
  { name: "in-process", url: undefined },
  ...(TEST_REDIS_URL === undefined ? [] : [{ name: "Redis", url: TEST_REDIS_URL }]),
];

const DASHBOARD: RequestInit = { headers: { cookie: `${SESSION_COOKIE}=whatever-the-browser-holds` } };

describe.each(STORES)("upstream budget under load ($name)", ({ url }) => {
  let clock = START;
  let redis: TestRedis | undefined;
  let proxy: RunningProxy;

  beforeEach(async () => {
    clock = START;
    cg.requests.length = 0;
    redis = url === undefined ? undefined : openTestRedis(url);
    proxy = await startProxy(
      {
        COINGECKO_BASE_URL: cg.baseUrl,
        COINGECKO_API_KEY: COINGECKO_KEY,
        COINGECKO_STARTUP_CHECK: "off",
        COINGECKO_CALLS_PER_MINUTE: "30",
        // One client sends everything: the per-IP limit and the client's share are not under test here.
        RATE_LIMIT_PER_MINUTE: "1000000",
        COINGECKO_CLIENT_CALLS_PER_MINUTE: "1000000",
        ...(redis === undefined ? {} : { REDIS_KEY_PREFIX: redis.prefix }),
      },
      {
        clock: () => clock,
        cache: { now: () => clock },
        ...(redis === undefined ? {} : { redis: redis.client() }),
      },
    );
  });
  afterEach(async () => {
    const transcript = proxy.transcript();
    await proxy.close();
    await redis?.cleanup();
    expect(transcript).not.toContain(COINGECKO_KEY);
  });

  it("1,000 distinct queries in a minute with a budget of 30 make 30 upstream calls, answered 200, 429 or STALE", async () => {
    // Five copies that will be stale by the time the budget is spent.
    for (const id of ["a0", "a1", "a2", "a3", "a4"]) expect((await proxy.call(simple(id))).status).toBe(200);
    clock += 200_000; // past freshness and stale-while-revalidate: each copy needs a reload
    cg.requests.length = 0;

    const answers = new Map<string, number>();
    const tally = (key: string) => answers.set(key, (answers.get(key) ?? 0) + 1);
    const startedAt = clock;
    // 1,000 queries in 20 waves of 50, the clock moving 59 ms a query: 59 s in all, one window.
    for (let wave = 0; wave < 20; wave++) {
      const responses = await Promise.all(
        Array.from({ length: 50 }, (_, i) => {
          const n = wave * 50 + i;
          clock += 59;
          // Ten queries, from the second wave on, ask for one of the five old copies.
          // The dashboard's own pages (the cookie) may spend the whole budget, its reserve included.
          return proxy.call(simple(n % 100 === 50 ? `a${((n - 50) / 100) % 5}` : `coin-${n}`), DASHBOARD);
        }),
      );
      for (const response of responses) {
        if (response.status === 200) tally(`200 ${response.headers["x-cache"]}`);
        else if (response.status === 429) {
          tally("429");
          const retryAfter = Number(response.headers["retry-after"]);
          expect(retryAfter).toBeGreaterThanOrEqual(1);
          expect(retryAfter).toBeLessThanOrEqual(60);
          expect(JSON.parse(response.text)).toMatchObject({
            code: "TOO_MANY_REQUESTS",
            message: expect.stringMatching(/per-minute budget .* is spent; retry after \d+ s$/),
          });
        } else tally(`unexpected ${response.status}`);
      }
    }
    expect(clock - startedAt).toBeLessThan(60_000);
    // The minute's whole budget, and not one call more.
    expect(cg.requests).toHaveLength(30);
    expect(Object.fromEntries(answers)).toEqual({ "200 MISS": 30, "200 STALE": 10, "429": 960 });
  });
});
