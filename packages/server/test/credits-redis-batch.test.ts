import { describe, expect, it } from "vitest";
import { shardOf } from "../src/credits/layout.js";
import { type JournalEntry, parseEntry } from "../src/credits/state.js";
import type { RawQuery } from "../src/db/raw.js";
import { isDatabaseUnavailable } from "../src/db/unavailable.js";
import { type CreditsWorld, useCreditsWorld } from "./support/credits-redis.js";
import { TEST_DATABASE_URL } from "./support/databases.js";

const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;
const NOW = Date.parse("2026-05-10T10:00:00Z");

/** The journal entries of one balance still in its shard's stream, in order. */
async function journalOf(w: CreditsWorld, id: string): Promise<JournalEntry[]> {
  const raw = await w.redis.xrange(w.layout.journal(shardOf(id)), "-", "+");
  return raw.flatMap((item) => {
    const entry = parseEntry(item);
    return entry !== null && entry.creditsId === id ? [entry] : [];
  });
}

// Spends of one balance asked while its script call is in flight go together in the next call
// (credits/spend-lanes.ts): each asked in one tick after the first rides in one batch behind it.
describe.runIf(TEST_DATABASE_URL && TEST_REDIS_URL)(
  "spends of one balance batched into one script call",
  () => {
    const world = useCreditsWorld(TEST_DATABASE_URL ?? "", TEST_REDIS_URL ?? "");

    it("admits exactly the balance of 40 concurrent spends, journaled in fewer entries that drain to the same total", async () => {
      const w = world();
      const id = await w.balance(20, null, NOW, 5);
      const store = w.store();
      const answers = await Promise.all(Array.from({ length: 40 }, () => store.spend(id, 1, NOW)));
      expect(answers.filter((answer) => answer.ok)).toHaveLength(25);
      // In order: the k-th spend leaves 25 - k, the allowance first; every one after the 25th is refused.
      expect(answers.map((answer) => answer.remaining)).toEqual(
        Array.from({ length: 40 }, (_, i) => Math.max(24 - i, 0)),
      );
      expect(answers.map((answer) => answer.purchased)).toEqual(
        Array.from({ length: 40 }, (_, i) => Math.min(5, Math.max(24 - i, 0))),
      );
      // The first spend alone, the 39 behind it in one call: one entry, the split summed.
      const entries = await journalOf(w, id);
      expect(entries.map((entry) => [entry.fromAllowance, entry.fromPurchased])).toEqual([
        [1, 0],
        [19, 5],
      ]);
      await w.drainer().drainAll();
      expect(await w.stored(id)).toMatchObject({ remaining: 0, purchased: 0 });
    });

    it("carries at most 256 operations in one call", async () => {
      const w = world();
      const id = await w.balance(1_000, null, NOW);
      const store = w.store();
      const answers = await Promise.all(Array.from({ length: 600 }, () => store.spend(id, 1, NOW)));
      expect(answers.every((answer) => answer.ok)).toBe(true);
      expect((await journalOf(w, id)).map((entry) => entry.fromAllowance)).toEqual([1, 256, 256, 87]);
    });

    it("journals credits.low and then credits.exhausted in order when one batch crosses the threshold and runs out", async () => {
      const w = world();
      // A daily refill of 100: credits.low when a spend takes the balance from 10 or more to below 10.
      const id = await w.balance(12, { interval: "daily", amount: 100 }, NOW);
      const store = w.store();
      const answers = await Promise.all(
        Array.from({ length: 15 }, () => store.spend(id, 1, NOW, "key_batch")),
      );
      expect(answers.map((answer) => answer.ok)).toEqual(Array.from({ length: 15 }, (_, i) => i < 12));
      const entries = await journalOf(w, id);
      expect(
        entries.map((entry) => ({
          n: entry.fromAllowance,
          event: entry.event?.type ?? null,
          after: entry.event?.allowance ?? null,
        })),
      ).toEqual([
        { n: 1, event: null, after: null }, // the first spend, alone: 12 to 11
        { n: 1, event: null, after: null }, // 11 to 10, folded
        { n: 1, event: "credits.low", after: 9 }, // 10 to 9: its own entry
        { n: 9, event: null, after: null }, // 9 to 0, folded
        { n: 0, event: "credits.exhausted", after: 0 }, // the first refusal only
      ]);
      expect(entries.every((entry) => entry.event === null || entry.event.keyId === "key_batch")).toBe(true);
      await w.drainer().drainAll();
      expect(await w.stored(id)).toMatchObject({ remaining: 0 });
      // The flag reached PostgreSQL: a balance loaded again from there does not send credits.exhausted twice.
      await w.redis.del(w.layout.balance(id));
      expect((await store.spend(id, 1, NOW, "key_batch")).ok).toBe(false);
      expect(await journalOf(w, id)).toEqual([]);
    });

    it("answers a read inside a batch from the balance the spends before it left", async () => {
      const w = world();
      const id = await w.balance(5, null, NOW);
      const store = w.store();
      const [first, spent, read, spentAgain, readEmpty] = await Promise.all([
        store.spend(id, 1, NOW),
        store.spend(id, 2, NOW),
        store.read(id, 3, NOW),
        store.spend(id, 2, NOW),
        store.read(id, 0, NOW),
      ]);
      expect(first).toMatchObject({ ok: true, remaining: 4 });
      expect(spent).toMatchObject({ ok: true, remaining: 2 });
      expect(read).toMatchObject({ ok: false, remaining: 2 });
      expect(spentAgain).toMatchObject({ ok: true, remaining: 0 });
      expect(readEmpty).toMatchObject({ ok: true, remaining: 0 });
      // The read journals nothing and does not split the fold.
      expect((await journalOf(w, id)).map((entry) => entry.fromAllowance)).toEqual([1, 4]);
    });

    it("applies a refill due inside a batch to the spend that first sees the new day, in its own entry", async () => {
      const w = world();
      const id = await w.balance(3, { interval: "daily", amount: 4 }, NOW);
      const store = w.store();
      const nextDay = NOW + 86_400_000;
      const answers = await Promise.all([
        store.spend(id, 1, NOW),
        store.spend(id, 2, NOW),
        store.spend(id, 1, nextDay),
        store.spend(id, 1, NOW), // asked at the old day's time: the new day's balance, no second refill
        store.spend(id, 3, nextDay),
      ]);
      expect(answers.map((answer) => [answer.ok, answer.remaining])).toEqual([
        [true, 2],
        [true, 0],
        [true, 3],
        [true, 2],
        [false, 2],
      ]);
      const entries = await journalOf(w, id);
      expect(entries.map((entry) => [entry.fromAllowance, entry.refill !== null])).toEqual([
        [1, false],
        [2, false],
        [1, true],
        [1, false],
      ]);
      await w.drainer().drainAll();
      expect(await w.stored(id)).toMatchObject({
        remaining: 2,
        refilledAt: new Date("2026-05-11T00:00:00Z"),
      });
    });

    it("loads a balance gone from Redis once for a whole batch, counting the spends journaled before", async () => {
      const w = world();
      const id = await w.balance(10, null, NOW);
      let reads = 0;
      const counting: RawQuery = (text, params) => {
        reads++;
        return w.query(text, params);
      };
      const store = w.store({ query: counting });
      expect(await store.spend(id, 1, NOW)).toMatchObject({ ok: true, remaining: 9 });
      reads = 0;
      // The hash is deleted right behind the first spend's call (one connection, in order), so the
      // batch queued behind that spend finds it gone.
      const first = store.spend(id, 1, NOW);
      const dropped = w.redis.del(w.layout.balance(id));
      const batch = Array.from({ length: 4 }, () => store.spend(id, 2, NOW));
      expect(await first).toMatchObject({ ok: true, remaining: 8 });
      expect(await dropped).toBe(1);
      expect((await Promise.all(batch)).map((answer) => [answer.ok, answer.remaining])).toEqual([
        [true, 6],
        [true, 4],
        [true, 2],
        [true, 0],
      ]);
      expect(reads).toBe(1);
      await w.drainer().drainAll();
      expect((await w.stored(id)).remaining).toBe(0);
    });

    it("makes a whole batch wait out a short fence, then spends it in order", async () => {
      const w = world();
      const id = await w.balance(10, null, NOW);
      const store = w.store();
      await store.spend(id, 1, NOW);
      const written = await w.change(
        w.writer(),
        id,
        { kind: "set", input: { remaining: 4, refill: null } },
        NOW,
        {
          install: false,
        },
      );
      const waiting = Array.from({ length: 6 }, () => store.spend(id, 1, NOW));
      await new Promise((resolve) => setTimeout(resolve, 40));
      await written.settle(true);
      expect((await Promise.all(waiting)).map((answer) => answer.remaining)).toEqual([3, 2, 1, 0, 0, 0]);
    });

    it("fails every caller of a batch with 503 when the fence outlasts their wait, spending nothing", async () => {
      const w = world();
      const id = await w.balance(10, null, NOW);
      const store = w.store({ fenceWaitMs: 60 });
      await store.spend(id, 1, NOW);
      await w.change(w.writer(), id, { kind: "set", input: { remaining: 4, refill: null } }, NOW, {
        install: false,
      });
      const failed = await Promise.all(
        Array.from({ length: 5 }, () => store.spend(id, 1, NOW).catch((error: unknown) => error)),
      );
      expect(failed.every(isDatabaseUnavailable)).toBe(true);
      await w.redis.del(w.layout.fence(id)); // the fence's TTL ran out
      expect(await store.spend(id, 1, NOW)).toMatchObject({ ok: true, remaining: 3 });
    });

    it("fails every caller of a batch with 503 when Redis answers an error", async () => {
      const w = world();
      const id = await w.balance(10, null, NOW);
      const store = w.store();
      // A key of the wrong type: HMGET answers WRONGTYPE for the call and for the batch behind it.
      await w.redis.set(w.layout.balance(id), "not a hash");
      const failed = await Promise.all(
        Array.from({ length: 5 }, () => store.spend(id, 1, NOW).catch((error: unknown) => error)),
      );
      expect(failed.every(isDatabaseUnavailable)).toBe(true);
      expect(await journalOf(w, id)).toEqual([]);
    });
  },
);
