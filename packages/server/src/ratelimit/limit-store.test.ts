import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import type { LimitCheck, LimitStore } from "./limit-store.js";
import { createMemoryLimitStore } from "./memory-limits.js";
import { createRedisLimitStore } from "./redis-limits.js";
import { earliestFit, fits, weightedPrevious } from "./sliding-window.js";

const W = "0x000000000000000000000000000000000000dEaD";
const MINUTE = 60_000;
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

const check = (id: string, limit: number, cost = 1, windowMs = MINUTE): LimitCheck => ({
  id,
  limit,
  windowMs,
  cost,
});

describe("the sliding-window arithmetic", () => {
  it("weighs the previous window by its remaining overlap, rounded down", () => {
    expect(weightedPrevious(10, MINUTE, 0)).toBe(10);
    expect(weightedPrevious(10, MINUTE, 30_000)).toBe(5);
    expect(weightedPrevious(10, MINUTE, 30_001)).toBe(4);
    expect(weightedPrevious(10, MINUTE, MINUTE)).toBe(0);
  });

  it("answers the earliest moment a refused cost fits, and never one where it would not", () => {
    const counts = { previous: 10, current: 4 };
    const at = earliestFit(10, MINUTE, T0 + 20_000, counts, 1);
    const elapsed = at - T0;
    expect(fits(10, MINUTE, elapsed, counts, 1)).toBe(true);
    expect(fits(10, MINUTE, elapsed - 1, counts, 1)).toBe(false);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
const clients: Redis[] = [];
const prefix = `keyport-test:${randomUUID()}:`;
afterAll(async () => {
  const [client] = clients;
  if (client) {
    const keys = await client.keys(`${prefix}*`);
    if (keys.length > 0) await client.del(...keys);
  }
  await Promise.all(clients.map((c) => c.quit()));
});

const stores: Array<{ name: string; make: () => LimitStore }> = [
  { name: "memory", make: () => createMemoryLimitStore() },
];
if (redisUrl) {
  stores.push({
    name: "redis",
    make: () => {
      const client = new Redis(redisUrl);
      clients.push(client);
      return createRedisLimitStore(client, { prefix });
    },
  });
}

describe.each(stores)("the $name limit store", ({ make }) => {
  it("spends nothing of any limit when one of them refuses", async () => {
    const store = make();
    const wallet = `${W}:${randomUUID()}`;
    const small = check("k:a:small", 2);
    const big = check("k:a:big", 100, 10);
    expect((await store.apply(wallet, [small, big], T0)).allowed).toBe(true);
    expect((await store.apply(wallet, [small, big], T0)).allowed).toBe(true);
    const refused = await store.apply(wallet, [small, big], T0);
    expect(refused.allowed).toBe(false);
    // Neither the refusing limit nor the one that had room was spent.
    expect(await store.peek(wallet, [small, big], T0)).toEqual([
      { previous: 0, current: 2 },
      { previous: 0, current: 20 },
    ]);
    // Cost 0 reads: allowed, nothing spent.
    expect((await store.apply(wallet, [check("k:a:small", 2, 0)], T0)).allowed).toBe(true);
  });

  it("carries the last window into the next one, weighted, and gives back what a refund names", async () => {
    const store = make();
    const wallet = `${W}:${randomUUID()}`;
    const limit = check("w:default", 10);
    for (let i = 0; i < 10; i++) expect((await store.apply(wallet, [limit], T0 + i)).allowed).toBe(true);
    expect((await store.apply(wallet, [limit], T0 + 10)).allowed).toBe(false);
    // Half-way through the next window the previous 10 weigh 5: 5 more fit, not 10 (a fixed window's 2x).
    const half = T0 + MINUTE + MINUTE / 2;
    for (let i = 0; i < 5; i++) expect((await store.apply(wallet, [limit], half)).allowed).toBe(true);
    expect((await store.apply(wallet, [limit], half)).allowed).toBe(false);
    await store.refund(wallet, [limit], half);
    expect((await store.apply(wallet, [limit], half)).allowed).toBe(true);
  });
});

describe.runIf(redisUrl)("the Redis limit store", () => {
  it("checks and spends every limit of one verification in one script call", async () => {
    const client = new Redis(redisUrl ?? "");
    clients.push(client);
    let calls = 0;
    // Count what reaches Redis: every command the store sends goes through sendCommand.
    const send = client.sendCommand.bind(client);
    client.sendCommand = (command) => {
      calls++;
      return send(command);
    };
    const store = createRedisLimitStore(client, { prefix });
    const wallet = `${W}:${randomUUID()}`;
    const limits = [
      check("k:b:second", 25, 1, 1_000),
      check("k:b:minute", 600, 1, MINUTE),
      check("k:b:day", 100_000, 1, 86_400_000),
      check("w:default", 1_000, 1, MINUTE),
    ];
    await store.apply(wallet, limits, T0); // loads the script (NOSCRIPT then EVAL) at most once
    calls = 0;
    for (let i = 1; i <= 5; i++) await store.apply(wallet, limits, T0 + i);
    expect(calls).toBe(5);
    const keys = await client.keys(`${prefix}lim:{w:${wallet}}:*`);
    // Every counter under the wallet's hash tag, so one cluster slot holds them all.
    expect(keys.length).toBe(4);
  });
});
