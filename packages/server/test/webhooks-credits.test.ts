import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { BalanceChange } from "../src/credits/balance-writer.js";
import { createDatabaseBalanceWriter } from "../src/credits/balance-writer.js";
import { shardOf } from "../src/credits/layout.js";
import type { Db } from "../src/db/database.js";
import { createRawQuery } from "../src/db/raw.js";
import { apiKeys, keyCredits } from "../src/db/schema/index.js";
import { toApiKey } from "../src/keys/status.js";
import { createCreditsStore } from "../src/verify/credits-store.js";
import { createCreditEventKey, outboxOf, typesOf } from "./support/credit-events.js";
import { useCreditsWorld } from "./support/credits-redis.js";
import { describeDatabases, TEST_DATABASE_URL } from "./support/databases.js";

const at = (iso: string) => Date.parse(iso);
const NOW = at("2026-05-10T10:00:00Z");
const DAY = 86_400_000;

async function change(db: Db, id: string, balanceChange: BalanceChange, when: number) {
  await db.transaction(async (tx) => {
    await createDatabaseBalanceWriter().write(tx, id, balanceChange, new Date(when));
  });
}

describeDatabases("credit webhook events, credits in the database", (target) => {
  const db = () => target.database.db;
  const store = () => createCreditsStore(createRawQuery(target.database.driver));

  it("sends credits.low once when a spend crosses 10 % of the refill amount, and again after a refill", async () => {
    const key = await createCreditEventKey(db(), {
      remaining: 15,
      refill: { interval: "daily", amount: 100 },
      at: NOW,
    });
    const credits = store();
    expect(await credits.spend(key.creditsId, 5, NOW, key.keyId)).toMatchObject({ ok: true, remaining: 10 });
    expect(await typesOf(db(), key.wallet)).toEqual([]);
    expect(await credits.spend(key.creditsId, 5, NOW + 1, key.keyId)).toMatchObject({
      ok: true,
      remaining: 5,
    });
    const [low] = await outboxOf(db(), key.wallet);
    expect(low?.type).toBe("credits.low");
    expect(low?.keyId).toBe(key.keyId);
    expect(low?.deliveries).toBe(1);
    expect(low?.payload).toMatchObject({
      type: "credits.low",
      timestamp: new Date(NOW + 1).toISOString(),
      data: {
        key: { id: key.keyId, wallet: key.wallet, status: "active", credits: { remaining: 5, purchased: 0 } },
        credits: { remaining: 5, purchased: 0, threshold: 10 },
      },
    });
    for (let i = 0; i < 5; i++) await credits.spend(key.creditsId, 1, NOW + 2 + i, key.keyId);
    expect(await typesOf(db(), key.wallet)).toEqual(["credits.low"]);
    // The next day's refill sets 100; spending it below 10 again is a new period.
    await credits.spend(key.creditsId, 85, NOW + DAY, key.keyId);
    expect(await typesOf(db(), key.wallet)).toEqual(["credits.low"]);
    await credits.spend(key.creditsId, 10, NOW + DAY + 1, key.keyId);
    expect(await typesOf(db(), key.wallet)).toEqual(["credits.low", "credits.low"]);
  });

  it("never sends credits.low for a key with neither a refill nor a top-up", async () => {
    const key = await createCreditEventKey(db(), { remaining: 15, refill: null, at: NOW });
    for (let i = 0; i < 15; i++) await store().spend(key.creditsId, 1, NOW + i, key.keyId);
    expect(await typesOf(db(), key.wallet)).toEqual([]);
  });

  it("takes the threshold from the last top-up when it is larger than the refill amount", async () => {
    const key = await createCreditEventKey(db(), {
      remaining: 0,
      refill: { interval: "monthly", amount: 20 },
      at: NOW,
    });
    await change(db(), key.creditsId, { kind: "add", amount: 500 }, NOW + 1);
    const credits = store();
    // Threshold 50: 500 → 51 crosses nothing, 51 → 49 crosses.
    await credits.spend(key.creditsId, 449, NOW + 2, key.keyId);
    expect(await typesOf(db(), key.wallet)).toEqual([]);
    await credits.spend(key.creditsId, 2, NOW + 3, key.keyId);
    const [low] = await outboxOf(db(), key.wallet);
    expect(low?.payload).toMatchObject({
      data: { credits: { remaining: 49, purchased: 49, threshold: 50 } },
    });
  });

  it("sends credits.exhausted on the first refused spend only, and again after the balance rose", async () => {
    const key = await createCreditEventKey(db(), { remaining: 2, refill: null, at: NOW });
    const credits = store();
    expect(await credits.spend(key.creditsId, 3, NOW, key.keyId)).toMatchObject({ ok: false, remaining: 2 });
    expect(await credits.spend(key.creditsId, 2, NOW + 1, key.keyId)).toMatchObject({
      ok: true,
      remaining: 0,
    });
    for (let i = 0; i < 3; i++) {
      expect(await credits.spend(key.creditsId, 1, NOW + 2 + i, key.keyId)).toMatchObject({ ok: false });
    }
    const [exhausted, ...rest] = await outboxOf(db(), key.wallet);
    expect(rest).toEqual([]);
    expect(exhausted?.payload).toMatchObject({
      type: "credits.exhausted",
      timestamp: new Date(NOW).toISOString(),
      data: { key: { id: key.keyId }, credits: { remaining: 2, purchased: 0, threshold: null } },
    });
    // A PATCH sets the balance: a new period.
    await change(db(), key.creditsId, { kind: "set", input: { remaining: 1, refill: null } }, NOW + 10);
    await credits.spend(key.creditsId, 1, NOW + 11, key.keyId);
    await credits.spend(key.creditsId, 1, NOW + 12, key.keyId);
    await credits.spend(key.creditsId, 1, NOW + 13, key.keyId);
    expect(await typesOf(db(), key.wallet)).toEqual(["credits.exhausted", "credits.exhausted"]);
  });

  it("sends credits.exhausted again after a refill, even one applied by a refused spend", async () => {
    const key = await createCreditEventKey(db(), {
      remaining: 1,
      refill: { interval: "daily", amount: 1 },
      at: NOW,
    });
    const credits = store();
    await credits.spend(key.creditsId, 2, NOW, key.keyId);
    await credits.spend(key.creditsId, 2, NOW + 1, key.keyId);
    expect(await typesOf(db(), key.wallet)).toEqual(["credits.exhausted"]);
    await credits.spend(key.creditsId, 2, NOW + DAY, key.keyId);
    await credits.spend(key.creditsId, 2, NOW + DAY + 1, key.keyId);
    await credits.spend(key.creditsId, 1, NOW + 2 * DAY, key.keyId);
    await credits.spend(key.creditsId, 2, NOW + 2 * DAY + 1, key.keyId);
    // (Spending the refilled 1 to 0 crosses 10 % of the refill amount: credits.low.)
    expect(await typesOf(db(), key.wallet)).toEqual([
      "credits.exhausted",
      "credits.exhausted",
      "credits.low",
      "credits.exhausted",
    ]);
  });

  it("writes nothing for a wallet without a subscribed endpoint, and the spend answers as before", async () => {
    const key = await createCreditEventKey(
      db(),
      { remaining: 15, refill: { interval: "daily", amount: 100 }, at: NOW },
      { endpoint: false },
    );
    expect(await store().spend(key.creditsId, 10, NOW, key.keyId)).toMatchObject({ ok: true, remaining: 5 });
    expect(await store().spend(key.creditsId, 10, NOW, key.keyId)).toMatchObject({ ok: false, remaining: 5 });
    expect(await typesOf(db(), key.wallet)).toEqual([]);
    const [row] = await db().select().from(keyCredits).where(eq(keyCredits.id, key.creditsId));
    expect(row?.exhaustedNotified).toBe(true);
  });

  it("writes exactly one credits.low when 200 concurrent spends cross the threshold", async () => {
    const key = await createCreditEventKey(db(), {
      remaining: 150,
      refill: { interval: "monthly", amount: 1000 },
      at: NOW,
    });
    const credits = store();
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => credits.spend(key.creditsId, 1, NOW + i, key.keyId)),
    );
    expect(answers.filter((answer) => answer.ok)).toHaveLength(150);
    expect((await typesOf(db(), key.wallet)).sort()).toEqual(["credits.exhausted", "credits.low"]);
  });

  it("builds the payload's key exactly as the API answers it, every field set", async () => {
    const key = await createCreditEventKey(db(), {
      remaining: 7,
      refill: { interval: "monthly", amount: 40 },
      purchased: 3,
      at: NOW,
    });
    await db()
      .update(apiKeys)
      .set({
        expiresAt: new Date(NOW + 3 * DAY + 123),
        lastUsedAt: new Date(NOW - 5_001),
        revokedAt: new Date(NOW + 7 * DAY),
        rateLimits: [{ name: "default", limit: 10, windowSeconds: 60, autoApply: true }],
        permissions: ["prices:read", "chat:*"],
        meta: { plan: "pro", seats: 3, nested: { on: true } },
        leakUrl: "https://github.com/o/r/blob/main/.env",
        leakSource: "github",
        leakReportedAt: new Date(NOW - 1),
        allowedIps: ["203.0.113.0/24", "2001:db8::1"],
      })
      .where(eq(apiKeys.id, key.keyId));
    const [row] = await db().select().from(apiKeys).where(eq(apiKeys.id, key.keyId));
    const [credits] = await db().select().from(keyCredits).where(eq(keyCredits.id, key.creditsId));
    if (!row || !credits) throw new Error("key not created");
    // Active, expired, revoked; within the balance's month (the function takes the balance as the
    // spend left it, after any refill due: the API applies one due at read time).
    for (const when of [NOW, NOW + 4 * DAY, NOW + 8 * DAY]) {
      const iso = new Date(when).toISOString();
      const built = await db().execute<{
        key: unknown;
      }>(sql`select keyport_public_key(${key.keyId}, ${iso}::timestamptz,
        keyport_public_credits(remaining, purchased, refill_interval, refill_amount, refilled_at)) as key
        from key_credits where id = ${key.creditsId}`);
      const answered = JSON.parse(JSON.stringify(toApiKey(row, new Date(when), credits)));
      expect(rowsOf<{ key: unknown }>(built)[0]?.key).toEqual(answered);
    }
  });
});

/** The rows of a drizzle `execute` on either driver (PGlite answers `{ rows }`, postgres.js an array). */
function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result;
  if (typeof result === "object" && result !== null && "rows" in result && Array.isArray(result.rows))
    return result.rows;
  return [];
}

const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;

describe.runIf(TEST_DATABASE_URL && TEST_REDIS_URL)("credit webhook events, credits in Redis", () => {
  const world = useCreditsWorld(TEST_DATABASE_URL ?? "", TEST_REDIS_URL ?? "");

  it("journals the events with the spends and the drainer writes them: low once, exhausted once a period", async () => {
    const w = world();
    const db = w.database.db;
    const key = await createCreditEventKey(db, {
      remaining: 15,
      refill: { interval: "daily", amount: 100 },
      at: NOW,
    });
    const store = w.store();
    await store.spend(key.creditsId, 5, NOW, key.keyId);
    await store.spend(key.creditsId, 5, NOW + 1, key.keyId);
    await store.spend(key.creditsId, 1, NOW + 2, key.keyId);
    expect(await store.spend(key.creditsId, 5, NOW + 3, key.keyId)).toMatchObject({
      ok: false,
      remaining: 4,
    });
    expect(await store.spend(key.creditsId, 5, NOW + 4, key.keyId)).toMatchObject({
      ok: false,
      remaining: 4,
    });
    // Nothing in the outbox until the drainer applies the journal.
    expect(await typesOf(db, key.wallet)).toEqual([]);
    await w.drainer().drainAll();
    const [low, exhausted, ...rest] = await outboxOf(db, key.wallet);
    expect(rest).toEqual([]);
    expect(low?.deliveries).toBe(1);
    expect(low?.payload).toMatchObject({
      type: "credits.low",
      data: {
        key: {
          id: key.keyId,
          credits: { remaining: 5, purchased: 0, refill: { interval: "daily", amount: 100 } },
        },
        credits: { remaining: 5, purchased: 0, threshold: 10 },
      },
    });
    expect(exhausted?.payload).toMatchObject({
      type: "credits.exhausted",
      data: { key: { id: key.keyId }, credits: { remaining: 4, purchased: 0, threshold: null } },
    });
    // The flag reached PostgreSQL: a balance loaded again from it (its hash gone) stays notified.
    expect(
      (await db.select().from(keyCredits).where(eq(keyCredits.id, key.creditsId)))[0]?.exhaustedNotified,
    ).toBe(true);
    await w.flushRedis();
    await store.spend(key.creditsId, 5, NOW + 5, key.keyId);
    await w.drainer().drainAll();
    expect(await typesOf(db, key.wallet)).toEqual(["credits.low", "credits.exhausted"]);
    // A PATCH starts a new period.
    await w.change(
      w.writer(),
      key.creditsId,
      { kind: "set", input: { remaining: 1, refill: null } },
      NOW + 10,
    );
    await store.spend(key.creditsId, 2, NOW + 11, key.keyId);
    await store.spend(key.creditsId, 2, NOW + 12, key.keyId);
    await w.drainer().drainAll();
    expect(await typesOf(db, key.wallet)).toEqual(["credits.low", "credits.exhausted", "credits.exhausted"]);
  });

  it("writes no duplicate when a drain is replayed after a crash before its trim", async () => {
    const w = world();
    const db = w.database.db;
    const key = await createCreditEventKey(db, {
      remaining: 12,
      refill: { interval: "monthly", amount: 100 },
      at: NOW,
    });
    const store = w.store();
    await store.spend(key.creditsId, 3, NOW, key.keyId);
    await w.drainer().drainShard(shardOf(key.creditsId), { trim: false });
    await w.drainer().drainShard(shardOf(key.creditsId), { trim: false });
    await w.drainer().drainAll();
    expect(await typesOf(db, key.wallet)).toEqual(["credits.low"]);
  });

  it("sends the event of a spend that an administrative change superseded before the drain", async () => {
    const w = world();
    const db = w.database.db;
    const key = await createCreditEventKey(db, {
      remaining: 12,
      refill: { interval: "monthly", amount: 100 },
      at: NOW,
    });
    await w.store().spend(key.creditsId, 3, NOW, key.keyId);
    await w.change(w.writer(), key.creditsId, { kind: "add", amount: 5 }, NOW + 1);
    await w.drainer().drainAll();
    expect(await typesOf(db, key.wallet)).toEqual(["credits.low"]);
    expect((await db.select().from(keyCredits).where(eq(keyCredits.id, key.creditsId)))[0]).toMatchObject({
      remaining: 9,
      purchased: 5,
      lastTopUp: 5,
    });
  });

  it("writes exactly one credits.low when 200 concurrent spends over two stores cross the threshold", async () => {
    const w = world();
    const db = w.database.db;
    const key = await createCreditEventKey(db, {
      remaining: 150,
      refill: { interval: "monthly", amount: 1000 },
      at: NOW,
    });
    const [a, b] = [w.store(), w.store()];
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        (i % 2 === 0 ? a : b).spend(key.creditsId, 1, NOW + i, key.keyId),
      ),
    );
    expect(answers.filter((answer) => answer.ok)).toHaveLength(150);
    await w.drainer().drainAll();
    expect((await typesOf(db, key.wallet)).sort()).toEqual(["credits.exhausted", "credits.low"]);
  });
});
