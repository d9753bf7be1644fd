import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { createMemoryRateLimiter } from "./memory-rate-limiter.js";
import type { RateLimiter } from "./rate-limiter.js";
import { createRedisRateLimiter } from "./redis-rate-limiter.js";

const redisUrl = process.env.TEST_REDIS_URL;

interface Target {
  name: string;
  /** Two limiters sharing one store, standing in for two instances. */
  make(): { a: RateLimiter; b: RateLimiter };
}

const clients: Redis[] = [];
const prefixes: string[] = [];

const targets: Target[] = [
  {
    name: "memory",
    make() {
      const limiter = createMemoryRateLimiter();
      return { a: limiter, b: limiter };
    },
  },
];
if (redisUrl) {
  targets.push({
    name: "redis",
    make() {
      const prefix = `keyport-test:${randomUUID()}:`;
      prefixes.push(prefix);
      const c1 = new Redis(redisUrl, { enableAutoPipelining: true });
      const c2 = new Redis(redisUrl);
      clients.push(c1, c2);
      return { a: createRedisRateLimiter(c1, { prefix }), b: createRedisRateLimiter(c2, { prefix }) };
    },
  });
}

afterAll(async () => {
  const [first] = clients;
  if (first) {
    for (const prefix of prefixes) {
      const keys = await first.keys(`${prefix}*`);
      if (keys.length > 0) await first.del(...keys);
    }
  }
  await Promise.all(clients.map((c) => c.quit()));
});

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0); // a multiple of every window used below

describe.each(targets)("rate limiter ($name)", ({ make }) => {
  it("allows exactly the limit out of 2,000 concurrent requests, across instances", async () => {
    const { a, b } = make();
    const results = await Promise.all(
      Array.from({ length: 2000 }, (_, i) => (i % 2 === 0 ? a : b).consume("key_conc", 500, 60, T0 + 10)),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(500);
    expect(results.filter((r) => !r.allowed).every((r) => r.remaining === 0)).toBe(true);
  });

  it("counts down remaining and reports the aligned window end as resetAt", async () => {
    const { a } = make();
    const now = T0 + 25_000;
    const first = await a.consume("key_count", 3, 60, now);
    const second = await a.consume("key_count", 3, 60, now);
    expect(first).toEqual({ allowed: true, limit: 3, remaining: 2, resetAt: new Date(T0 + 60_000) });
    expect(second.remaining).toBe(1);
  });

  it("starts a fresh window at the boundary", async () => {
    const { a } = make();
    for (let i = 0; i < 2; i++) expect((await a.consume("key_roll", 2, 10, T0 + 1_000)).allowed).toBe(true);
    expect((await a.consume("key_roll", 2, 10, T0 + 9_999)).allowed).toBe(false);
    const next = await a.consume("key_roll", 2, 10, T0 + 10_000);
    expect(next).toEqual({ allowed: true, limit: 2, remaining: 1, resetAt: new Date(T0 + 20_000) });
  });

  it("does not consume on rejected requests: a raised limit still has its full headroom", async () => {
    const { a } = make();
    for (let i = 0; i < 3; i++) await a.consume("key_rej", 3, 60, T0);
    for (let i = 0; i < 10; i++) expect((await a.consume("key_rej", 3, 60, T0)).allowed).toBe(false);
    const raised = await Promise.all(Array.from({ length: 5 }, () => a.consume("key_rej", 5, 60, T0)));
    expect(raised.filter((r) => r.allowed)).toHaveLength(2);
  });

  it("keeps separate counts per key", async () => {
    const { a } = make();
    expect((await a.consume("key_x", 1, 60, T0)).allowed).toBe(true);
    expect((await a.consume("key_y", 1, 60, T0)).allowed).toBe(true);
    expect((await a.consume("key_x", 1, 60, T0)).allowed).toBe(false);
  });
});

describe("memory rate limiter", () => {
  it("hit counts as consume does, answering 0 when allowed and the window's end when refused", () => {
    const limiter = createMemoryRateLimiter();
    expect(limiter.hit("key_hit", 2, 60, T0 + 5_000)).toBe(0);
    expect(limiter.consume("key_hit", 2, 60, T0 + 6_000)).toMatchObject({ allowed: true, remaining: 0 });
    expect(limiter.hit("key_hit", 2, 60, T0 + 7_000)).toBe(T0 + 60_000);
    expect(limiter.consume("key_hit", 2, 60, T0 + 7_000).allowed).toBe(false);
    expect(limiter.hit("key_hit", 2, 60, T0 + 60_000)).toBe(0);
  });

  it("answers synchronously, so the hot path needs no Promise", () => {
    const result = createMemoryRateLimiter().consume("key_sync", 1, 1, T0);
    expect(result).not.toBeInstanceOf(Promise);
    expect(result.allowed).toBe(true);
  });

  it("stays bounded, dropping finished windows before live ones", () => {
    const limiter = createMemoryRateLimiter({ maxKeys: 100 });
    limiter.consume("key_live", 2, 3600, T0);
    for (let i = 0; i < 1000; i++) limiter.consume(`key_short_${i}`, 1, 1, T0 + i * 1000);
    expect(limiter.size).toBeLessThanOrEqual(100);
    // The hour-long window survived the sweeps: its earlier request still counts.
    expect(limiter.consume("key_live", 2, 3600, T0 + 1_000_000).remaining).toBe(0);
  });
});
