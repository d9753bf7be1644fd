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
import { createPostgresTestDatabase } from "./databases.js";

/** The committed migrations. */
export const MIGRATIONS = fileURLToPath(new URL("../../drizzle", import.meta.url));

/**
 * A copy of the migrations folder as it was before `tag` (e.g. "0005"): that one and every later one
 * left out, since drizzle's migrator applies only migrations newer than the last one applied.
 */
export function migrationsBefore(tag: string): { folder: string; remove(): void } {
  const folder = mkdtempSync(join(tmpdir(), "keyport-migrations-"));
  cpSync(MIGRATIONS, folder, { recursive: true });
  const journalPath = join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: Array<{ tag: string }> };
  journal.entries = journal.entries.filter((entry) => entry.tag < tag);
  writeFileSync(journalPath, JSON.stringify(journal));
  return { folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

/**
 * Migrates a new database to just before `tag`, runs `seed`, migrates the rest, and returns what
 * `query` reads then: on a PGlite made from nothing (its initdb takes seconds: the run's template is
 * already migrated), or on a fresh PostgreSQL database from `adminUrl`.
 */
export async function upgradeAcross(
  kind: "pglite" | "postgres",
  tag: string,
  seed: string,
  query: string,
  adminUrl = "",
): Promise<unknown[]> {
  const before = migrationsBefore(tag);
  try {
    if (kind === "pglite") {
      const client = await PGlite.create();
      try {
        const db = drizzlePglite(client);
        await migratePglite(db, { migrationsFolder: before.folder });
        await client.exec(seed);
        await migratePglite(db, { migrationsFolder: MIGRATIONS });
        return (await client.query(query)).rows;
      } finally {
        await client.close();
      }
    }
    const created = await createPostgresTestDatabase(adminUrl);
    const client = postgres(created.url, { max: 1, onnotice: () => {} });
    try {
      const db = drizzlePostgres(client);
      await migratePostgres(db, { migrationsFolder: before.folder });
      await client.unsafe(seed);
      await migratePostgres(db, { migrationsFolder: MIGRATIONS });
      return [...(await client.unsafe(query))];
    } finally {
      await client.end();
      await created.drop();
    }
  } finally {
    before.remove();
  }
}
