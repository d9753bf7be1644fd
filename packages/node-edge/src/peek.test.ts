import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { createFallbackRateLimiter } from "./fallback-rate-limiter.js";
import { createMemoryRateLimiter } from "./memory-rate-limiter.js";
import type { RateLimiter } from "./rate-limiter.js";
import { createRedisRateLimiter } from "./redis-rate-limiter.js";

const redisUrl = process.env.TEST_REDIS_URL;
const prefix = `keyport-test:${randomUUID()}:`;
const client = redisUrl ? new Redis(redisUrl, { enableAutoPipelining: true }) : undefined;

afterAll(async () => {
  if (!client) return;
  const keys = await client.keys(`${prefix}*`);
  if (keys.length > 0) await client.del(...keys);
  await client.quit();
});

const targets: Array<{ name: string; make: () => RateLimiter }> = [
  { name: "memory", make: () => createMemoryRateLimiter() },
];
if (client) targets.push({ name: "redis", make: () => createRedisRateLimiter(client, { prefix }) });

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0); // a multiple of every window used below

describe.each(targets)("rate limiter peek ($name)", ({ make }) => {
  it("shows an unused window as full, ending at the aligned window end", async () => {
    const limiter = make();
    expect(await limiter.peek("key_fresh", 3, 60, T0 + 25_000)).toEqual({
      allowed: true,
      limit: 3,
      remaining: 3,
      resetAt: new Date(T0 + 60_000),
    });
  });

  it("counts nothing: any number of peeks leaves every request to consume", async () => {
    const limiter = make();
    for (let i = 0; i < 10; i++) await limiter.peek("key_peeked", 2, 60, T0);
    expect((await limiter.consume("key_peeked", 2, 60, T0)).remaining).toBe(1);
    expect(await limiter.peek("key_peeked", 2, 60, T0)).toMatchObject({ allowed: true, remaining: 1 });
    expect((await limiter.consume("key_peeked", 2, 60, T0)).allowed).toBe(true);
    expect((await limiter.consume("key_peeked", 2, 60, T0)).allowed).toBe(false);
  });

  it("agrees with the next consume: its remaining is one more than what that consume answers", async () => {
    const limiter = make();
    for (let i = 0; i < 4; i++) {
      const peeked = await limiter.peek("key_agree", 5, 60, T0);
      const consumed = await limiter.consume("key_agree", 5, 60, T0);
      expect(consumed.remaining).toBe(peeked.remaining - 1);
      expect(consumed.resetAt).toEqual(peeked.resetAt);
    }
  });

  it("says a spent window allows nothing until it ends, and the next window is full again", async () => {
    const limiter = make();
    await limiter.consume("key_spent", 1, 10, T0);
    expect(await limiter.peek("key_spent", 1, 10, T0 + 9_999)).toMatchObject({
      allowed: false,
      remaining: 0,
    });
    expect(await limiter.peek("key_spent", 1, 10, T0 + 10_000)).toMatchObject({
      allowed: true,
      remaining: 1,
      resetAt: new Date(T0 + 20_000),
    });
    // The peek of the next window started nothing: the old window still refuses within its time.
    expect((await limiter.consume("key_spent", 1, 10, T0 + 9_999)).allowed).toBe(false);
  });
});

describe("fallback rate limiter peek", () => {
  it("reads this process's count while Redis cannot be reached", async () => {
    const unreachable = new Redis("redis://127.0.0.1:1", {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    unreachable.on("error", () => {});
    try {
      const errors: unknown[] = [];
      const limiter = createFallbackRateLimiter(
        createRedisRateLimiter(unreachable, { prefix }),
        createMemoryRateLimiter(),
        (error) => errors.push(error),
      );
      await limiter.consume("key_down", 3, 60, T0);
      expect(await limiter.peek("key_down", 3, 60, T0)).toMatchObject({ allowed: true, remaining: 2 });
      expect(errors).toHaveLength(2);
    } finally {
      unreachable.disconnect();
    }
  });
});
