import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { createFallbackRateLimiter } from "./fallback-rate-limiter.js";
import { createMemoryRateLimiter } from "./memory-rate-limiter.js";
import { createRedisRateLimiter } from "./redis-rate-limiter.js";
import { createWindowLimit } from "./window-limit.js";

const redisUrl = process.env.TEST_REDIS_URL;
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

// Nothing listens on port 1: every command fails at once instead of waiting for a reconnect.
const unreachable = new Redis("redis://127.0.0.1:1", {
  lazyConnect: true,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  retryStrategy: () => null,
});
// The failed connection is reported as an "error" event too; the commands' rejections are what count.
unreachable.on("error", () => {});
const reachable = redisUrl ? new Redis(redisUrl) : undefined;
const prefix = `keyport-test:${randomUUID()}:`;

afterAll(async () => {
  unreachable.disconnect();
  if (!reachable) return;
  const keys = await reachable.keys(`${prefix}*`);
  if (keys.length > 0) await reachable.del(...keys);
  await reachable.quit();
});

describe("fallback rate limiter", () => {
  it("counts in this process while Redis cannot be reached, and says why", async () => {
    const errors: unknown[] = [];
    const limiter = createFallbackRateLimiter(
      createRedisRateLimiter(unreachable, { prefix }),
      createMemoryRateLimiter(),
      (error) => errors.push(error),
    );
    const limit = createWindowLimit(limiter, { name: "ip", limit: 2, windowSeconds: 60, now: () => T0 });
    expect(await limit.hit("a")).toEqual({ allowed: true });
    expect(await limit.hit("a")).toEqual({ allowed: true });
    expect(await limit.hit("a")).toEqual({ allowed: false, retryAfterSeconds: 60 });
    expect(errors).toHaveLength(3);
    expect(errors.every((error) => error instanceof Error)).toBe(true);
  });

  it.runIf(reachable)("counts in Redis while it answers, so instances share the count", async () => {
    if (!reachable) return;
    const instance = () =>
      createWindowLimit(
        createFallbackRateLimiter(createRedisRateLimiter(reachable, { prefix }), createMemoryRateLimiter()),
        {
          name: "ip",
          limit: 2,
          windowSeconds: 60,
          now: () => T0,
        },
      );
    const [a, b] = [instance(), instance()];
    expect(await a.hit("shared")).toEqual({ allowed: true });
    expect(await b.hit("shared")).toEqual({ allowed: true });
    expect(await a.hit("shared")).toEqual({ allowed: false, retryAfterSeconds: 60 });
  });
});
