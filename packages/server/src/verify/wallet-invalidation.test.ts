import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestPglite } from "../../test/support/databases.js";
import type { Database } from "../db/database.js";
import { walletLimits } from "../db/schema/index.js";
import { createKeyChanges } from "./announce-key-changes.js";
import { createKeyCache } from "./cache.js";
import { connectCacheToBus, createInvalidationBus, type Invalidation } from "./invalidation.js";
import type { KeyRecord } from "./key-record.js";

const ALICE = "0x00000000000000000000000000000000000000A1";
const BOB = "0x00000000000000000000000000000000000000B0";

const record = (id: string, wallet: string): KeyRecord => ({
  id,
  wallet,
  name: id,
  expiresAt: null,
  revokedAt: null,
  rateLimits: [],
  autoLimits: [],
  walletRateLimits: [],
  permissions: [],
  meta: null,
  creditsId: null,
  allowedIps: null,
  suspended: false,
});

describe("key cache, by wallet", () => {
  it("forgets every cached key of one wallet and no other's", () => {
    const cache = createKeyCache();
    cache.set("a1", record("key_a1", ALICE), cache.generation());
    cache.set("a2", record("key_a2", ALICE), cache.generation());
    cache.set("b1", record("key_b1", BOB), cache.generation());
    cache.invalidateWallet(ALICE);
    expect(cache.get("a1")).toBeUndefined();
    expect(cache.get("a2")).toBeUndefined();
    expect(cache.get("b1")).toEqual(record("key_b1", BOB));
    // A key cached again after the change is forgotten by the next one.
    cache.set("a1", record("key_a1", ALICE), cache.generation());
    cache.invalidateWallet(ALICE);
    expect(cache.get("a1")).toBeUndefined();
  });

  it("does not cache a load that a wallet change overtook", () => {
    const cache = createKeyCache();
    const token = cache.generation();
    cache.invalidateWallet(ALICE);
    cache.set("a1", record("key_a1", ALICE), token);
    expect(cache.get("a1")).toBeUndefined();
  });

  it("keeps its wallet index as small as the cache when entries are evicted", () => {
    const cache = createKeyCache({ max: 2 });
    for (let i = 0; i < 10; i++) cache.set(`a${i}`, record(`key_a${i}`, ALICE), cache.generation());
    expect(cache.size).toBe(2);
    cache.invalidateWallet(ALICE);
    expect(cache.size).toBe(0);
  });
});

describe("wallet changes over the invalidation bus (PGlite)", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestPglite();
  });
  afterAll(() => database.close());

  it("tells every instance to forget a wallet's keys once the change commits, and only then", async () => {
    if (database.driver.kind !== "pglite") throw new Error("openTestPglite opened no PGlite");
    const here = createKeyCache();
    const there = createKeyCache();
    const bus = await createInvalidationBus({ kind: "pglite", client: database.driver.client });
    const heard: Invalidation[] = [];
    bus.subscribe((event) => heard.push(event));
    connectCacheToBus(there, bus);
    for (const cache of [here, there]) cache.set("a1", record("key_a1", ALICE), cache.generation());

    const changes = createKeyChanges(here);
    await changes
      .transaction(database.db, async (tx, _keyChanged, walletChanged) => {
        await walletChanged(ALICE);
        await tx.insert(walletLimits).values({
          wallet: ALICE,
          rateLimits: [{ name: "default", limit: 1, windowSeconds: 1, autoApply: true }],
        });
        throw new Error("roll back");
      })
      .catch(() => undefined);
    await changes.transaction(database.db, async (tx, _keyChanged, walletChanged) => {
      await tx.insert(walletLimits).values({
        wallet: ALICE,
        rateLimits: [{ name: "default", limit: 5, windowSeconds: 60, autoApply: true }],
      });
      await walletChanged(ALICE);
    });
    // This instance forgets at once; the other when the notification arrives.
    expect(here.get("a1")).toBeUndefined();
    await expect.poll(() => there.get("a1")).toBeUndefined();
    expect(heard).toEqual([{ kind: "wallet", wallet: ALICE }]);
    await bus.close();
  });
});
