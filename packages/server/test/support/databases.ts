import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { copyPgliteTemplate } from "@keyport/test-support/pglite-copy";
import postgres from "postgres";
import { afterAll, beforeAll, describe } from "vitest";
import { createDatabase, type Database } from "../../src/db/database.js";

/** One database a matrix block runs against. Read `database` and `url` inside hooks and tests, not at collection time. */
export interface DatabaseTarget {
  kind: "pglite" | "postgres";
  /** Opened (and migrated) in `beforeAll`, closed in `afterAll`; share it between the apps a file starts. */
  readonly database: Database;
  /**
   * A `DATABASE_URL` for this target: `memory:` for PGlite (a new, separate in-memory database if used),
   * or the fresh PostgreSQL database's URL (usable by child processes too).
   */
  readonly url: string;
}

/** The admin URL PostgreSQL runs use, from TEST_DATABASE_URL; undefined runs PGlite only. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

/**
 * Creates an empty PostgreSQL database `keyport_test_<random>` through the admin URL and returns its URL
 * and a `drop()` that removes it (`DROP DATABASE ... WITH (FORCE)`).
 */
export async function createPostgresTestDatabase(
  adminUrl: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `keyport_test_${randomBytes(6).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const dropper = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await dropper.unsafe(`drop database if exists "${name}" with (force)`);
      await dropper.end();
    },
  };
}

/**
 * Opens a new, empty, migrated PGlite database of its own: a copy of the run's template folder (see
 * @keyport/test-support/pglite-template), which skips PGlite's initdb; `memory:` when no template was provided. `close()`
 * also deletes the copy.
 * @example const database = await openTestPglite(); ... await database.close();
 */
export async function openTestPglite(): Promise<Database> {
  const dataDir = copyPgliteTemplate("db");
  if (!dataDir) return createDatabase("memory:", "");
  const database = await createDatabase(undefined, dataDir);
  return {
    ...database,
    close: async () => {
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs the same `describe` block on each database, like h3's `describeMatrix`: always on PGlite (one
 * instance for the whole block, from `openTestPglite`), and also on a fresh PostgreSQL database when TEST_DATABASE_URL is set.
 * @example
 * describeDatabases("keys", (target) => {
 *   let server: TestServer;
 *   beforeAll(async () => { server = await startTestServer(target); });
 *   afterAll(() => server.close());
 *   it("...", async () => { await target.database.db.select().from(apiKeys); });
 * });
 */
export function describeDatabases(name: string, fn: (target: DatabaseTarget) => void): void {
  const kinds: DatabaseTarget["kind"][] = TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];
  for (const kind of kinds) {
    describe(`${name} [${kind}]`, () => {
      let database: Database | undefined;
      let url = "memory:";
      let drop: (() => Promise<void>) | undefined;
      beforeAll(async () => {
        if (kind === "postgres" && TEST_DATABASE_URL) {
          const created = await createPostgresTestDatabase(TEST_DATABASE_URL);
          url = created.url;
          drop = created.drop;
        }
        database = kind === "postgres" ? await createDatabase(url, "") : await openTestPglite();
      });
      afterAll(async () => {
        await database?.close();
        await drop?.();
      });
      fn({
        kind,
        get database() {
          if (!database) throw new Error("target.database is only available inside hooks and tests");
          return database;
        },
        get url() {
          return url;
        },
      });
    });
  }
}
