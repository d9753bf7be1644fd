import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import type { LimitStore } from "../../src/ratelimit/limit-store.js";
import { createMemoryLimitStore } from "../../src/ratelimit/memory-limits.js";
import { createRedisLimitStore } from "../../src/ratelimit/redis-limits.js";

// The guarantee of docs/verifying-keys.md#sliding-windows, checked against the real stores: in any
// interval of length t <= W, at most limit + ceil(limit × t / W) admitted (in cost units). Requests
// come in bursts placed at, just before and just after window edges, where a fixed window would
// admit 2 × limit.

const W = 1_000;
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

const request = fc.record({
  window: fc.integer({ min: 0, max: 9 }),
  offset: fc.oneof(
    fc.integer({ min: 0, max: 15 }),
    fc.integer({ min: W - 15, max: W - 1 }),
    fc.integer({ min: 0, max: W - 1 }),
  ),
  cost: fc.integer({ min: 1, max: 3 }),
  burst: fc.integer({ min: 1, max: 8 }),
});

/** The largest admitted total over any interval of length <= W, against its bound (0 when none exceeds it). */
function worstExcess(admitted: ReadonlyArray<{ at: number; cost: number }>, limit: number): number {
  let worst = 0;
  for (let i = 0; i < admitted.length; i++) {
    let total = 0;
    const start = admitted[i]?.at ?? 0;
    for (let j = i; j < admitted.length; j++) {
      const item = admitted[j];
      if (item === undefined || item.at - start > W) break;
      total += item.cost;
      const bound = limit + Math.ceil((limit * (item.at - start)) / W);
      worst = Math.max(worst, total - bound);
    }
  }
  return worst;
}

async function run(
  stores: readonly LimitStore[],
  limit: number,
  requests: ReadonlyArray<{ window: number; offset: number; cost: number; burst: number }>,
) {
  const wallet = `0xmodel:${randomUUID()}`;
  const times = requests
    .flatMap((r) =>
      Array.from({ length: r.burst }, () => ({ at: T0 + r.window * W + r.offset, cost: r.cost })),
    )
    .sort((a, b) => a.at - b.at);
  const admitted: Array<{ at: number; cost: number }> = [];
  for (const [i, { at, cost }] of times.entries()) {
    const store = stores[i % stores.length];
    if (store === undefined) continue;
    const outcome = await store.apply(wallet, [{ id: "k:model:default", limit, windowMs: W, cost }], at);
    if (outcome.allowed) admitted.push({ at, cost });
  }
  return worstExcess(admitted, limit);
}

describe("the sliding-window guarantee", () => {
  it("holds on one instance", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 20 }),
        fc.array(request, { maxLength: 60 }),
        async (limit, rs) => {
          expect(await run([createMemoryLimitStore()], limit, rs)).toBe(0);
        },
      ),
      { numRuns: 300 },
    );
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

  it.runIf(redisUrl)(
    "holds on two instances sharing Redis",
    async () => {
      const stores = [0, 1].map(() => {
        const client = new Redis(redisUrl ?? "");
        clients.push(client);
        return createRedisLimitStore(client, { prefix });
      });
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 20 }),
          fc.array(request, { maxLength: 40 }),
          async (limit, rs) => {
            expect(await run(stores, limit, rs)).toBe(0);
          },
        ),
        { numRuns: 60 },
      );
    },
    120_000,
  );

  it("finds a fixed window's edge burst, which the guarantee forbids", () => {
    // limit at the end of one window and limit at the start of the next: 2 × limit within 2 ms.
    const burst = [
      { at: T0 + W - 1, cost: 10 },
      { at: T0 + W + 1, cost: 10 },
    ];
    expect(worstExcess(burst, 10)).toBeGreaterThan(0);
  });
});
