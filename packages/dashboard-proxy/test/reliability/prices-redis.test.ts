import type { Redis } from "ioredis";
import { pino } from "pino";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { CreateAppOptions } from "../../src/index.js";
import { createRedisCacheStore } from "../../src/redis/cache-store.js";
import { connectRedis } from "../../src/redis/connect.js";
import { SESSION_COOKIE } from "../../src/session/cookies.js";
import { type CoinGeckoStandIn, startCoinGecko } from "../support/coingecko-stand-in.js";
import { COINGECKO_KEY, type RunningProxy, startProxy } from "../support/proxy.js";
import { openTestRedis, TEST_REDIS_URL, type TestRedis } from "../support/redis.js";

// Scale-out: two proxy instances (separate apps, servers and Redis connections) on one Redis
// share the cache, one upstream call per key, the upstream budget and the per-IP limit.

const SIMPLE = "/api/prices/simple?ids=bitcoin,ethereum&vs_currencies=usd";

let cg: CoinGeckoStandIn;

beforeAll(async () => {
  cg = await startCoinGecko("x-cg-demo-api-key", COINGECKO_KEY);
});
afterAll(async () => {
  await cg.close();
});

describe.runIf(TEST_REDIS_URL)("two proxy instances on one Redis", () => {
  let redis: TestRedis;
  const proxies: RunningProxy[] = [];

  beforeEach(() => {
    cg.requests.length = 0;
    cg.behave({ kind: "default" });
    redis = openTestRedis(TEST_REDIS_URL ?? "");
  });
  afterEach(async () => {
    const transcript = proxies.map((proxy) => proxy.transcript()).join("\n");
    await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
    await redis.cleanup();
    expect(transcript).not.toContain(COINGECKO_KEY);
  });

  async function instance(
    env: Record<string, string> = {},
    options: CreateAppOptions = {},
  ): Promise<RunningProxy> {
    const proxy = await startProxy(
      {
        COINGECKO_BASE_URL: cg.baseUrl,
        COINGECKO_API_KEY: COINGECKO_KEY,
        COINGECKO_STARTUP_CHECK: "off",
        REDIS_KEY_PREFIX: redis.prefix,
        RATE_LIMIT_PER_MINUTE: "1000000",
        ...env,
      },
      // A window of a day, aligned to UTC midnight: the test never straddles two windows.
      { redis: redis.client(), rateLimitWindowMs: 86_400_000, ...options },
    );
    proxies.push(proxy);
    return proxy;
  }

  it("200 concurrent identical cold requests split between the two make ONE upstream call", async () => {
    const [a, b] = await Promise.all([instance(), instance()]);
    let open: () => void = () => {};
    cg.behave({ kind: "gated", until: new Promise<void>((resolve) => (open = resolve)) });

    const answers = Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? a : b).call(SIMPLE)));
    // Hold the upstream's answer until every request is in: the call is made, and each instance
    // holds its 100 open requests.
    await expect.poll(() => cg.requests.length).toBe(1);
    await expect.poll(async () => [await a.connections(), await b.connections()]).toEqual([100, 100]);
    open();
    const responses = await answers;

    expect(responses.map((response) => response.status)).toEqual(Array(200).fill(200));
    expect(new Set(responses.map((response) => response.text)).size).toBe(1);
    expect(cg.requests).toHaveLength(1);
    // Later requests on either instance are hits, still without a call.
    expect((await b.call(SIMPLE)).headers["x-cache"]).toBe("HIT");
    expect((await a.call(SIMPLE)).headers["x-cache"]).toBe("HIT");
    expect(cg.requests).toHaveLength(1);
  });

  it("a copy one instance loaded is a HIT on the other", async () => {
    const [a, b] = await Promise.all([instance(), instance()]);
    expect((await a.call(SIMPLE)).headers["x-cache"]).toBe("MISS");
    const fromB = await b.call(SIMPLE);
    expect(fromB.status).toBe(200);
    expect(fromB.headers["x-cache"]).toBe("HIT");
    expect(cg.requests).toHaveLength(1);
  });

  it("shares the per-IP limit: 10 a window across both, the rest refused with Retry-After", async () => {
    const [a, b] = await Promise.all([
      instance({ RATE_LIMIT_PER_MINUTE: "10" }),
      instance({ RATE_LIMIT_PER_MINUTE: "10" }),
    ]);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const response = await (i % 2 === 0 ? a : b).call(SIMPLE);
      statuses.push(response.status);
      if (response.status === 429) expect(Number(response.headers["retry-after"])).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([...Array(10).fill(200), 429, 429]);
  });

  it("shares the upstream budget: 3 a minute across both instances", async () => {
    // One client, the dashboard's cookie: neither its share nor the reserve is under test here.
    const settings = { COINGECKO_CALLS_PER_MINUTE: "3", COINGECKO_CLIENT_CALLS_PER_MINUTE: "1000" };
    const [a, b] = await Promise.all([instance(settings), instance(settings)]);
    const dashboard = { headers: { cookie: `${SESSION_COOKIE}=whatever-the-browser-holds` } };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (await (i % 2 === 0 ? a : b).call(`/api/prices/simple?ids=c${i}&vs_currencies=usd`, dashboard))
          .status,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
    expect(cg.requests).toHaveLength(3);
  });

  it("shares each client's share of the calls: 5 a minute across both instances", async () => {
    // A clock held mid-minute: the share's window (a clock minute) cannot turn during the test.
    const midMinute = { clock: () => Date.UTC(2026, 10, 23, 12, 0, 30) };
    const [a, b] = await Promise.all([instance({}, midMinute), instance({}, midMinute)]);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      statuses.push(
        (await (i % 2 === 0 ? a : b).call(`/api/prices/chart/no-such-${i}?vs_currency=usd&days=1`)).status,
      );
    }
    expect(statuses).toEqual([404, 404, 404, 404, 404, 429, 429, 429]);
    expect(cg.requests).toHaveLength(5);
  });
});

describe.runIf(TEST_REDIS_URL)("the Redis lock", () => {
  let redis: TestRedis;
  let client: Redis;

  beforeEach(() => {
    redis = openTestRedis(TEST_REDIS_URL ?? "");
    client = redis.client();
  });
  afterEach(async () => {
    await redis.cleanup();
  });

  it("when the holder dies, its lock expires and a waiter loads instead", async () => {
    const store = createRedisCacheStore(client, {
      prefix: redis.prefix,
      now: Date.now,
      lockMs: 300,
      keepMs: 60_000,
    });
    // A holder that took the lock and died before answering.
    await client.set(`${redis.prefix}lock:/simple/price?ids=x`, "dead-holder", "PX", 300);
    let loads = 0;
    const started = performance.now();
    const result = await store.load("/simple/price?ids=x", 60_000, async () => {
      loads += 1;
      return { ok: true, value: '{"x":{"usd":1}}' };
    });
    expect(result).toMatchObject({ ok: true, entry: { body: '{"x":{"usd":1}}' } });
    expect(loads).toBe(1);
    // It waited for the dead lock to expire, no longer than the lock plus a poll.
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("waiters get the holder's failure instead of calling the upstream themselves", async () => {
    const options = { prefix: redis.prefix, now: Date.now, lockMs: 5_000, keepMs: 60_000 };
    const [one, two] = [
      createRedisCacheStore(client, options),
      createRedisCacheStore(redis.client(), options),
    ];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let loads = 0;
    const failing = async () => {
      loads += 1;
      await held;
      return { ok: false as const, failure: { kind: "bad_gateway" as const, detail: "HTTP 500" } };
    };
    const first = one.load("/k", 60_000, failing);
    await expect.poll(() => loads).toBe(1);
    const second = two.load("/k", 60_000, failing);
    release();
    expect(await first).toMatchObject({ ok: false, failure: { kind: "bad_gateway" } });
    expect(await second).toMatchObject({ ok: false, failure: { kind: "bad_gateway" } });
    expect(loads).toBe(1);
  });
});

describe("Redis unreachable", () => {
  it("answers 503 without a copy (the budget cannot be checked), and the per-IP limit holds per instance", async () => {
    cg.requests.length = 0;
    const redisLog: string[] = [];
    // Nothing listens on port 1.
    const unreachable = connectRedis(
      "redis://127.0.0.1:1",
      pino({}, { write: (line: string) => void redisLog.push(line) }),
    );
    const proxy = await startProxy(
      {
        COINGECKO_BASE_URL: cg.baseUrl,
        COINGECKO_API_KEY: COINGECKO_KEY,
        COINGECKO_STARTUP_CHECK: "off",
        RATE_LIMIT_PER_MINUTE: "2",
      },
      { redis: unreachable, rateLimitWindowMs: 86_400_000 },
    );
    try {
      const first = await proxy.call(SIMPLE);
      expect(first.status).toBe(503);
      expect(JSON.parse(first.text)).toEqual({
        code: "SERVICE_UNAVAILABLE",
        message: "The shared market data cache is unavailable",
        requestId: first.headers["x-request-id"],
      });
      expect((await proxy.call(SIMPLE)).status).toBe(503);
      expect((await proxy.call(SIMPLE)).status).toBe(429);
      expect(cg.requests).toHaveLength(0);
      expect(redisLog.join("\n")).toMatch(/"error":"ECONNREFUSED".*redis unreachable/);
    } finally {
      await proxy.close();
      unreachable.disconnect();
    }
  });
});
