import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
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

describe.each(targets)("rate limiter give-back ($name)", ({ make }) => {
  it("returns one request to the window it was taken from", async () => {
    const limiter = make();
    await limiter.consume("key_back", 2, 60, T0);
    await limiter.consume("key_back", 2, 60, T0);
    expect((await limiter.consume("key_back", 2, 60, T0)).allowed).toBe(false);
    await limiter.refund("key_back", 60, T0 + 1_000);
    expect(await limiter.consume("key_back", 2, 60, T0 + 2_000)).toMatchObject({
      allowed: true,
      remaining: 0,
    });
  });

  it("never goes below zero: extra give-backs add no headroom", async () => {
    const limiter = make();
    await limiter.consume("key_floor", 2, 60, T0);
    for (let i = 0; i < 5; i++) await limiter.refund("key_floor", 60, T0);
    const after = await Promise.all(Array.from({ length: 4 }, () => limiter.consume("key_floor", 2, 60, T0)));
    expect(after.filter((r) => r.allowed)).toHaveLength(2);
  });

  it("gives nothing to the next window", async () => {
    const limiter = make();
    await limiter.consume("key_next", 1, 10, T0);
    await limiter.consume("key_next", 1, 10, T0 + 10_000);
    // A give-back dated in the first window: the second window's count is untouched.
    await limiter.refund("key_next", 10, T0 + 5_000);
    expect((await limiter.consume("key_next", 1, 10, T0 + 10_001)).allowed).toBe(false);
  });

  it("keeps exact counts when consumes and give-backs interleave concurrently", async () => {
    const limiter = make();
    // 300 requests on a limit of 100, each allowed one given straight back: all 300 fit in turn,
    // and afterwards the window is empty again.
    const results = await Promise.all(
      Array.from({ length: 300 }, async () => {
        const r = await limiter.consume("key_mix", 100, 60, T0);
        if (r.allowed) await limiter.refund("key_mix", 60, T0);
        return r.allowed;
      }),
    );
    expect(results.filter(Boolean).length).toBeGreaterThanOrEqual(100);
    const fresh = await Promise.all(
      Array.from({ length: 150 }, () => limiter.consume("key_mix", 100, 60, T0)),
    );
    expect(fresh.filter((r) => r.allowed)).toHaveLength(100);
  });
});
