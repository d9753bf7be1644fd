import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { createPostgresTestDatabase, TEST_DATABASE_URL } from "./support/databases.js";

// Slow tier: upgrading a database made before migration 0005 must start `wallet_active_keys.at_most` at
// each wallet's active keys (the bound test/active-key-bound.test.ts checks). The PGlite case needs a
// PGlite made from nothing (its initdb: seconds of CPU), since the run's template is already migrated.

const MIGRATIONS = fileURLToPath(new URL("../drizzle", import.meta.url));

/**
 * A copy of the migrations folder as it was before 0005 (which adds the bound): 0005 and every later one
 * left out, since the migrator skips a migration older than the last one applied.
 */
function migrationsBefore0005(): { folder: string; remove(): void } {
  const folder = mkdtempSync(join(tmpdir(), "keyport-migrations-"));
  cpSync(MIGRATIONS, folder, { recursive: true });
  const journalPath = join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: Array<{ tag: string }> };
  journal.entries = journal.entries.filter((entry) => entry.tag < "0005");
  writeFileSync(journalPath, JSON.stringify(journal));
  return { folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

const SEED = `insert into api_keys (id, wallet, name, hash, start, expires_at, revoked_at) values
  ('key_a1', '0xA', 'active', 'h1', 's', null, null),
  ('key_a2', '0xA', 'active until tomorrow', 'h2', 's', now() + interval '1 day', null),
  ('key_a3', '0xA', 'in a grace period', 'h3', 's', null, now() + interval '1 hour'),
  ('key_a4', '0xA', 'expired', 'h4', 's', now() - interval '1 day', null),
  ('key_a5', '0xA', 'revoked', 'h5', 's', null, now() - interval '1 day'),
  ('key_b1', '0xB', 'revoked', 'h6', 's', null, now() - interval '1 hour')`;

const EXPECTED = [{ wallet: "0xA", at_most: 3 }];

describe("migration 0005 on a database that already holds keys", () => {
  it("on PGlite, starts each wallet's bound at its active keys", async () => {
    const before = migrationsBefore0005();
    const client = await PGlite.create();
    try {
      const db = drizzlePglite(client);
      await migratePglite(db, { migrationsFolder: before.folder });
      await client.exec(SEED);
      await migratePglite(db, { migrationsFolder: MIGRATIONS });
      const { rows } = await client.query("select wallet, at_most from wallet_active_keys order by wallet");
      expect(rows).toEqual(EXPECTED);
    } finally {
      before.remove();
      await client.close();
    }
  });

  it.runIf(TEST_DATABASE_URL)("on PostgreSQL, starts each wallet's bound at its active keys", async () => {
    const before = migrationsBefore0005();
    const created = await createPostgresTestDatabase(TEST_DATABASE_URL ?? "");
    const client = postgres(created.url, { max: 1, onnotice: () => {} });
    try {
      const db = drizzlePostgres(client);
      await migratePostgres(db, { migrationsFolder: before.folder });
      await client.unsafe(SEED);
      await migratePostgres(db, { migrationsFolder: MIGRATIONS });
      const rows = await client.unsafe("select wallet, at_most from wallet_active_keys order by wallet");
      expect([...rows]).toEqual(EXPECTED);
    } finally {
      before.remove();
      await client.end();
      await created.drop();
    }
  });
});
