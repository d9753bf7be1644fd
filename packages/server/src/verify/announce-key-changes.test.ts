import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestPglite } from "../../test/support/databases.js";
import type { Database } from "../db/database.js";
import { createKeyChanges } from "./announce-key-changes.js";
import { createKeyCache } from "./cache.js";
import { createInvalidationBus, type Invalidation } from "./invalidation.js";
import type { KeyRecord } from "./key-record.js";

const record = (id: string): KeyRecord => ({
  id,
  wallet: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
  name: "k",
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

describe("key changes", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestPglite();
  });
  afterAll(() => database.close());

  it("forgets a changed key in this instance's cache as soon as the transaction commits, and notifies the others", async () => {
    if (database.driver.kind !== "pglite") throw new Error("openTestPglite opened no PGlite");
    const cache = createKeyCache();
    cache.set("hash_a", record("key_a"), cache.generation());
    const bus = await createInvalidationBus({ kind: "pglite", client: database.driver.client });
    const heard: Invalidation[] = [];
    bus.subscribe((event) => heard.push(event));
    const changes = createKeyChanges(cache);

    const result = await changes.transaction(database.db, async (_tx, keyChanged) => {
      await keyChanged("key_a");
      // Not yet: another request must not see the change before it commits.
      expect(cache.get("hash_a")).toEqual(record("key_a"));
      return "done";
    });

    expect(result).toBe("done");
    expect(cache.get("hash_a")).toBeUndefined();
    await expect.poll(() => heard).toEqual([{ kind: "key", keyId: "key_a" }]);
    await bus.close();
  });

  it("keeps the cache and notifies nobody when the transaction rolls back", async () => {
    if (database.driver.kind !== "pglite") throw new Error("openTestPglite opened no PGlite");
    const cache = createKeyCache();
    cache.set("hash_b", record("key_b"), cache.generation());
    const bus = await createInvalidationBus({ kind: "pglite", client: database.driver.client });
    const heard: Invalidation[] = [];
    bus.subscribe((event) => heard.push(event));
    const changes = createKeyChanges(cache);

    const failed = changes.transaction(database.db, async (_tx, keyChanged) => {
      await keyChanged("key_b");
      throw new Error("abort");
    });

    await expect(failed).rejects.toThrow("abort");
    expect(cache.get("hash_b")).toEqual(record("key_b"));
    // A notification committed after the rollback arrives alone: the rolled-back one never does.
    await changes.transaction(database.db, (_tx, keyChanged) => keyChanged("key_c"));
    await expect.poll(() => heard).toEqual([{ kind: "key", keyId: "key_c" }]);
    await bus.close();
  });
});
