import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { startDrainLoop } from "../src/credits/drain-loop.js";
import { createCreditsLayout, JOURNAL_SHARDS, shardOf } from "../src/credits/layout.js";
import { createRedisCreditsStore } from "../src/credits/redis-credits-store.js";
import type { RawQuery } from "../src/db/raw.js";
import { isDatabaseUnavailable } from "../src/db/unavailable.js";
import { useCreditsWorld } from "./support/credits-redis.js";
import { TEST_DATABASE_URL } from "./support/databases.js";

const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;
const at = (iso: string) => Date.parse(iso);
const NOW = at("2026-05-10T10:00:00Z");

describe.runIf(TEST_DATABASE_URL && TEST_REDIS_URL)("credits in Redis, drained to PostgreSQL", () => {
  const world = useCreditsWorld(TEST_DATABASE_URL ?? "", TEST_REDIS_URL ?? "");

  it("admits exactly the balance across two stores, and the drained row equals Redis", async () => {
    const w = world();
    const id = await w.balance(50, null, NOW);
    const [a, b] = [w.store(), w.store()];
    const answers = await Promise.all(
      Array.from({ length: 80 }, (_, i) => (i % 2 === 0 ? a : b).spend(id, 1, NOW)),
    );
    expect(answers.filter((answer) => answer.ok)).toHaveLength(50);
    expect(await a.read(id, 1, NOW)).toMatchObject({ ok: false, remaining: 0, refillAt: null });
    // Nothing reached PostgreSQL yet: the spends wait in the journal, folded into one entry per
    // script call (each store's first spend alone, the 39 it queued meanwhile in one call).
    expect((await w.stored(id)).remaining).toBe(50);
    expect(await w.drainer().drainAll()).toBe(4);
    expect((await w.stored(id)).remaining).toBe(0);
    expect(await w.drainer().pending()).toBe(0);
  });

  it("refills through Redis, and a refused spend's refill is journaled so PostgreSQL ends equal", async () => {
    const w = world();
    const id = await w.balance(2, { interval: "daily", amount: 5 }, at("2026-05-10T08:00:00Z"));
    const store = w.store();
    expect(await store.spend(id, 1, at("2026-05-10T23:00:00Z"))).toMatchObject({ ok: true, remaining: 1 });
    expect(await store.spend(id, 1, at("2026-05-11T01:00:00Z"))).toMatchObject({
      ok: true,
      remaining: 4,
      refillAt: new Date("2026-05-12T00:00:00Z"),
    });
    // A read applies the due refill in its answer only.
    expect(await store.read(id, 5, at("2026-05-12T01:00:00Z"))).toMatchObject({ ok: true, remaining: 5 });
    // Refused (cost 6 > 5), but the day's refill happened: PostgreSQL must learn it too.
    expect(await store.spend(id, 6, at("2026-05-13T01:00:00Z"))).toMatchObject({ ok: false, remaining: 5 });
    expect(await store.spend(id, 2, at("2026-05-13T02:00:00Z"))).toMatchObject({ ok: true, remaining: 3 });
    await w.drainer().drainAll();
    expect(await w.stored(id)).toMatchObject({ remaining: 3, refilledAt: new Date("2026-05-13T00:00:00Z") });
  });

  it("a cold load counts undrained spends once, whether the hash was dropped or never loaded", async () => {
    const w = world();
    const id = await w.balance(10, null, NOW);
    const store = w.store();
    for (let i = 0; i < 3; i++) expect((await store.spend(id, 1, NOW)).ok).toBe(true);
    await w.redis.del(w.layout.balance(id));
    expect(await store.spend(id, 2, NOW)).toMatchObject({ ok: true, remaining: 5 });
    // Part drained, then the hash lost again: the mark and the stream together still count each once.
    await w.drainer().drainShard(shardOf(id), { trim: false });
    expect(await store.spend(id, 1, NOW)).toMatchObject({ ok: true, remaining: 4 });
    await w.redis.del(w.layout.balance(id));
    expect(await store.read(id, 4, NOW)).toMatchObject({ ok: true, remaining: 4 });
    await w.drainer().drainAll();
    expect((await w.stored(id)).remaining).toBe(4);
  });

  it("a cold load whose snapshot the drainer trimmed past reads PostgreSQL again", async () => {
    const w = world();
    const id = await w.balance(10, null, NOW);
    const first = w.store();
    for (let i = 0; i < 4; i++) await first.spend(id, 1, NOW);
    await w.redis.del(w.layout.balance(id));
    let reads = 0;
    // The drainer applies and trims right after this store's PostgreSQL read: its snapshot is stale.
    const racing: RawQuery = async (text, params) => {
      const rows = await w.query(text, params);
      if (reads++ === 0) await w.drainer().drainAll();
      return rows;
    };
    expect(await w.store({ query: racing }).spend(id, 1, NOW)).toMatchObject({ ok: true, remaining: 5 });
    expect(reads).toBe(2);
    await w.drainer().drainAll();
    expect((await w.stored(id)).remaining).toBe(5);
  });

  it("a drainer that died between applying and trimming: the next applies nothing twice", async () => {
    const w = world();
    const ids = await Promise.all([w.balance(100, null, NOW), w.balance(100, null, NOW)]);
    const store = w.store();
    for (let i = 0; i < 30; i++) await store.spend(ids[i % 2] ?? "", 2, NOW);
    const dying = w.drainer();
    for (let shard = 0; shard < JOURNAL_SHARDS; shard++) await dying.drainShard(shard, { trim: false });
    expect(await w.drainer().pending()).toBe(30);
    expect(await w.drainer().drainAll()).toBe(0);
    for (const id of ids) expect((await w.stored(id)).remaining).toBe(70);
    expect(await w.drainer().pending()).toBe(0);
  });

  it("two drainers racing on the same shards apply every spend exactly once", async () => {
    const w = world();
    const ids = await Promise.all(Array.from({ length: 6 }, () => w.balance(1_000, null, NOW)));
    const stores = [w.store(), w.store()];
    let spending = true;
    const drainers = [w.drainer(), w.drainer()].map(async (drainer) => {
      while (spending) await drainer.drainAll();
    });
    const spends = await Promise.all(
      Array.from({ length: 600 }, (_, i) =>
        stores[i % 2]?.spend(ids[i % ids.length] ?? "", 1 + (i % 3), NOW),
      ),
    );
    spending = false;
    await Promise.all(drainers);
    await w.drainer().drainAll();
    for (const [index, id] of ids.entries()) {
      const costs = spends.reduce(
        (sum, answer, i) => sum + (answer?.ok && i % ids.length === index ? 1 + (i % 3) : 0),
        0,
      );
      expect((await w.stored(id)).remaining).toBe(1_000 - costs);
    }
  });

  it("the drain loop keeps draining a shard whose batch was full, within one pass", async () => {
    const w = world();
    const id = await w.balance(1_000, null, NOW);
    const store = w.store();
    // One at a time: concurrent spends would fold into a few entries.
    for (let i = 0; i < 120; i++) await store.spend(id, 1, NOW);
    // `ready` is asked once per shard of a pass, so its calls count the passes.
    let shardVisits = 0;
    let applied = 0;
    let visitsWhenDone = -1;
    const loop = startDrainLoop(w.drainer({ batchSize: 10 }), 20, {
      ready: () => {
        shardVisits++;
        return true;
      },
      onError: () => undefined,
      onDrained: (n) => {
        applied += n;
        if (applied === 120 && visitsWhenDone < 0) visitsWhenDone = shardVisits;
      },
    });
    await expect.poll(() => visitsWhenDone, { timeout: 10_000, interval: 10 }).toBeGreaterThan(0);
    await loop.stop();
    // Twelve batches of ten, all in the first pass (a pass visits each of the 16 shards once).
    expect(visitsWhenDone).toBeLessThanOrEqual(JOURNAL_SHARDS);
    expect((await w.stored(id)).remaining).toBe(880);
  });

  it("a PATCH fences the balance, supersedes older spends, and every store sees the new value", async () => {
    const w = world();
    const id = await w.balance(10, null, NOW);
    const [a, b] = [w.store(), w.store()];
    await a.spend(id, 3, NOW);
    await b.spend(id, 1, NOW);
    const written = await w.change(
      w.writer(),
      id,
      { kind: "set", input: { remaining: 20, refill: null } },
      NOW,
    );
    expect(written.row).toMatchObject({ remaining: 20, version: 1 });
    expect(await b.spend(id, 2, NOW)).toMatchObject({ ok: true, remaining: 18 });
    expect(await a.spend(id, 1, NOW)).toMatchObject({ ok: true, remaining: 17 });
    // The 4 spent before the PATCH were journaled against version 0: the set replaced them.
    await w.drainer().drainAll();
    expect(await w.stored(id)).toMatchObject({ remaining: 17, version: 1 });
  });

  it("a top-up adds to the live purchased credits, loaded or not, and leaves the allowance", async () => {
    const w = world();
    const id = await w.balance(10, null, NOW);
    const store = w.store();
    await store.spend(id, 4, NOW);
    const topped = await w.change(w.writer(), id, { kind: "add", amount: 5 }, NOW);
    expect(topped.row).toMatchObject({ remaining: 6, purchased: 5, version: 1 });
    expect(await store.read(id, 0, NOW)).toMatchObject({ remaining: 11, purchased: 5 });
    await store.spend(id, 1, NOW);
    // Not loaded: PostgreSQL minus this version's undrained spends, plus the top-up.
    await w.redis.del(w.layout.balance(id));
    await w.change(w.writer(), id, { kind: "add", amount: 100 }, NOW);
    // The 5 left of the allowance first, then 5 of the 105 purchased.
    expect(await store.spend(id, 10, NOW)).toMatchObject({ ok: true, remaining: 100, purchased: 100 });
    await w.drainer().drainAll();
    expect(await w.stored(id)).toMatchObject({ remaining: 0, purchased: 100, version: 2 });
  });

  it("a PATCH sets the allowance and keeps the purchased credits as they are live, not as PostgreSQL lags", async () => {
    const w = world();
    const id = await w.balance(2, null, NOW, 10);
    const store = w.store();
    // 2 of the allowance and 3 purchased, journaled but not drained.
    expect(await store.spend(id, 5, NOW)).toMatchObject({ ok: true, remaining: 7, purchased: 7 });
    expect(await w.stored(id)).toMatchObject({ remaining: 2, purchased: 10 });
    const written = await w.change(
      w.writer(),
      id,
      { kind: "set", input: { remaining: 20, refill: null } },
      NOW,
    );
    expect(written.row).toMatchObject({ remaining: 20, purchased: 7, version: 1 });
    expect(await store.spend(id, 1, NOW)).toMatchObject({ ok: true, remaining: 26, purchased: 7 });
    await w.drainer().drainAll();
    expect(await w.stored(id)).toMatchObject({ remaining: 19, purchased: 7, version: 1 });
  });

  it("a refill in Redis sets only the allowance; the drained row and a cold load agree on both pools", async () => {
    const w = world();
    const id = await w.balance(1, { interval: "daily", amount: 5 }, at("2026-05-10T08:00:00Z"), 6);
    const store = w.store();
    // 1 of the allowance, 2 purchased.
    expect(await store.spend(id, 3, at("2026-05-10T09:00:00Z"))).toMatchObject({
      remaining: 4,
      purchased: 4,
    });
    // The next day refills the allowance to 5 and keeps the 4 purchased: 7 of 9 from the allowance first.
    expect(await store.spend(id, 7, at("2026-05-11T09:00:00Z"))).toMatchObject({
      remaining: 2,
      purchased: 2,
    });
    // A cold load replays both splits from the journal.
    await w.redis.del(w.layout.balance(id));
    expect(await store.read(id, 0, at("2026-05-11T10:00:00Z"))).toMatchObject({ remaining: 2, purchased: 2 });
    await w.drainer().drainAll();
    expect(await w.stored(id)).toMatchObject({
      remaining: 0,
      purchased: 2,
      refilledAt: new Date("2026-05-11T00:00:00Z"),
    });
  });

  it("a fence left by a change that committed but never installed: 503 while it holds, the new row after", async () => {
    const w = world();
    const id = await w.balance(10, null, NOW);
    const store = w.store();
    await store.spend(id, 2, NOW);
    await w.change(
      w.writer({ fenceTtlMs: 400 }),
      id,
      { kind: "set", input: { remaining: 7, refill: null } },
      NOW,
      {
        install: false,
      },
    );
    const refused = await store.spend(id, 1, NOW).catch((error: unknown) => error);
    expect(isDatabaseUnavailable(refused)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(await store.spend(id, 1, NOW)).toMatchObject({ ok: true, remaining: 6 });
    await w.drainer().drainAll();
    expect(await w.stored(id)).toMatchObject({ remaining: 6, version: 1 });
  });

  it("a spend waits out a short fence instead of failing", async () => {
    const w = world();
    const id = await w.balance(10, null, NOW);
    const store = w.store();
    await store.spend(id, 1, NOW);
    const written = await w.change(
      w.writer(),
      id,
      { kind: "set", input: { remaining: 3, refill: null } },
      NOW,
      {
        install: false,
      },
    );
    const waiting = store.spend(id, 1, NOW);
    await new Promise((resolve) => setTimeout(resolve, 40));
    await written.settle(true);
    expect(await waiting).toMatchObject({ ok: true, remaining: 2 });
  });

  it("with Redis unreachable, spends and reads throw the unavailable error (503)", async () => {
    const w = world();
    const id = await w.balance(10, null, NOW);
    const closed = new Redis("redis://127.0.0.1:1", { lazyConnect: true, maxRetriesPerRequest: 0 });
    closed.on("error", () => undefined);
    await closed.connect().catch(() => undefined);
    const store = createRedisCreditsStore(closed, w.query, {
      layout: createCreditsLayout("keyport:test:closed:"),
    });
    for (const attempt of [store.spend(id, 1, NOW), store.read(id, 1, NOW)]) {
      expect(isDatabaseUnavailable(await attempt.catch((error: unknown) => error))).toBe(true);
    }
    closed.disconnect();
  });

  it("refuses a key prefix that would move the hash tag", () => {
    expect(() => createCreditsLayout("a{b}:")).toThrow(/must not contain/);
    expect(createCreditsLayout("p:").balance("key_x")).toMatch(/^p:credits:\{s\d+\}:b:key_x$/);
  });
});
