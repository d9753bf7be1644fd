import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
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
 * Creates an empty PostgreSQL database `keyport_test_<random>` through the admin URL (or a copy of
 * `template`) and returns its URL and a `drop()` that removes it (`DROP DATABASE ... WITH (FORCE)`).
 */
export async function createPostgresTestDatabase(
  adminUrl: string,
  template?: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `keyport_test_${randomBytes(6).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(
    template ? `create database "${name}" template "${template}"` : `create database "${name}"`,
  );
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

const MIGRATIONS = fileURLToPath(new URL("../../drizzle", import.meta.url));

/** The name of the migrated template database for these migrations (kept between runs, like PGlite's). */
function templateName(): string {
  const hash = createHash("sha256");
  for (const file of readdirSync(MIGRATIONS, { recursive: true, encoding: "utf8" }).sort()) {
    if (file.endsWith(".sql") || file.endsWith(".json"))
      hash.update(file).update(readFileSync(join(MIGRATIONS, file)));
  }
  return `keyport_template_${hash.digest("hex").slice(0, 16)}`;
}

const templates = new Map<string, Promise<string>>();

/**
 * A migrated PostgreSQL database to copy with `CREATE DATABASE ... TEMPLATE`: the migrations run once per
 * set of migrations instead of once per test database (half a second each). Built under a name of its
 * own and renamed into place, so concurrent workers and runs never copy half of one; nothing connects to
 * it afterwards (a copy needs its template idle).
 */
function migratedTemplate(adminUrl: string): Promise<string> {
  let template = templates.get(adminUrl);
  if (!template) {
    template = buildTemplate(adminUrl);
    templates.set(adminUrl, template);
    template.catch(() => templates.delete(adminUrl));
  }
  return template;
}

async function buildTemplate(adminUrl: string): Promise<string> {
  const name = templateName();
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const found = await admin`select 1 from pg_database where datname = ${name}`;
    if (found.length > 0) return name;
    const building = await createPostgresTestDatabase(adminUrl);
    const database = await createDatabase(building.url, "");
    await database.close();
    const buildingName = new URL(building.url).pathname.slice(1);
    // The migrating connection's backend may still be closing: a rename needs the database idle.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.unsafe(`alter database "${buildingName}" rename to "${name}"`);
        break;
      } catch (error) {
        const done = await admin`select 1 from pg_database where datname = ${name}`;
        if (done.length > 0) {
          // Another worker or run finished the same template first.
          await building.drop();
          break;
        }
        if (attempt >= 100) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    return name;
  } finally {
    await admin.end();
  }
}

/**
 * Creates a migrated PostgreSQL database `keyport_test_<random>` (a copy of the run's migrated template)
 * and returns its URL and a `drop()` that removes it. Use `createPostgresTestDatabase` for an empty one.
 */
export async function createMigratedPostgresTestDatabase(
  adminUrl: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  return createPostgresTestDatabase(adminUrl, await migratedTemplate(adminUrl));
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
 * instance for the whole block, from `openTestPglite`), and also on a fresh PostgreSQL database when TEST_DATABASE_URL is set
 * (a copy of the migrated template, `createMigratedPostgresTestDatabase`).
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
          const created = await createMigratedPostgresTestDatabase(TEST_DATABASE_URL);
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
