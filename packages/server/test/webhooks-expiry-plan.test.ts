import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDatabase } from "../src/db/database.js";
import { dueNoticesQuery } from "../src/webhooks/expiry-events.js";
import { createPostgresTestDatabase, TEST_DATABASE_URL } from "./support/databases.js";

// The expiry-notice sweep runs on every instance every minute: it must read only the keys of
// wallets with an endpoint, by expiry, through api_keys_expiry_idx, never every key.
describe.runIf(TEST_DATABASE_URL)("the expiry-notice sweep's plan on PostgreSQL", () => {
  it("reads a subscribed wallet's keys by expiry through api_keys_expiry_idx, not the whole table", async () => {
    const created = await createPostgresTestDatabase(TEST_DATABASE_URL ?? "");
    const database = await createDatabase(created.url, "");
    try {
      await database.db.execute(
        sql.raw(`insert into api_keys (id, wallet, name, hash, start, expires_at)
          select 'k' || i, 'w' || (i % 1000), 'n', 'h' || i, 's', now() + (i % 30) * interval '1 day'
          from generate_series(1, 30000) i`),
      );
      await database.db.execute(
        sql.raw(`insert into webhooks (id, wallet, url, events, secret)
          select 'wh' || i, 'w' || i, 'https://example.com', '{key.expiring,key.expired}', 's' from generate_series(1, 5) i`),
      );
      await database.db.execute(sql.raw("analyze"));
      const now = new Date();
      const query = dueNoticesQuery(database.db, new Date(now.getTime() - 86_400_000), now, 500).toSQL();
      if (database.driver.kind !== "postgres") throw new Error("expected PostgreSQL");
      const plan = await database.driver.client.unsafe(`explain ${query.sql}`, query.params.map(String));
      const text = plan.map((row) => String(Object.values(row)[0])).join("\n");
      expect(text).toContain("api_keys_expiry_idx");
      expect(text).not.toMatch(/Seq Scan on api_keys/);
    } finally {
      await database.close();
      await created.drop();
    }
  }, 120_000);
});
