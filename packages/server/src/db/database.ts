import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres, { type Sql } from "postgres";
import { pgliteOptions, useBaselineWasmCompiler } from "./pglite-options.js";
import { claimPgliteFolder } from "./pglite-owner.js";
import * as schema from "./schema/index.js";

/** The one drizzle type procedures use, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** A drizzle transaction, as `Db.transaction` hands it to its callback. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** The raw client, for what drizzle does not cover (LISTEN/NOTIFY). */
export type Driver = { kind: "pglite"; client: PGlite } | { kind: "postgres"; client: Sql };

/** An open, migrated database. */
export interface Database {
  db: Db;
  kind: Driver["kind"];
  driver: Driver;
  /**
   * Where background work (webhook delivery) runs its statements: on PostgreSQL, connections of its
   * own, so a burst of requests that fills the pool's queue cannot hold deliveries back for seconds
   * (docs/webhooks.md, "Delivery"); on PGlite, the one backend.
   */
  background: { db: Db; driver: Driver };
  /** Runs `select 1`; rejects when the database is unreachable. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

const MIGRATIONS_FOLDER = fileURLToPath(new URL("../../drizzle", import.meta.url));
// Any constant works; it only has to be the same in every process that migrates this database.
const MIGRATION_LOCK_ID = 7_238_455_001;

/**
 * Opens the database `DATABASE_URL` names and applies pending migrations.
 * - unset: PGlite on disk under `dataDir/pglite` (see `initialisePgliteFolder` to create a new folder
 *   in a short-lived process first, so this one never holds initdb's memory)
 * - `memory:`: PGlite in memory
 * - `postgres://` / `postgresql://`: PostgreSQL via postgres.js; migrations run under an advisory lock
 *   so processes starting together do not race.
 * @example const database = await createDatabase("memory:", "./.data");
 */
export async function createDatabase(
  url: string | undefined,
  dataDir: string,
  options: CreateDatabaseOptions = {},
): Promise<Database> {
  if (url?.startsWith("postgres://") || url?.startsWith("postgresql://")) return openPostgres(url);
  if (url !== undefined && url !== "memory:") {
    throw new Error("DATABASE_URL must be unset, `memory:`, or a postgres:// URL");
  }
  return openPglite(url === "memory:" ? undefined : dataDir, options.pgliteTemplate);
}

/** How a new embedded database is made. */
export interface CreateDatabaseOptions {
  /** A gzipped PGlite data folder to unpack instead of running initdb (only for a new, empty folder). */
  pgliteTemplate?: Blob | undefined;
}

async function openPglite(dataDir: string | undefined, template: Blob | undefined): Promise<Database> {
  let path: string | undefined;
  let release = () => {};
  if (dataDir !== undefined) {
    path = join(dataDir, "pglite");
    mkdirSync(path, { recursive: true });
    release = claimPgliteFolder(path);
  }
  useBaselineWasmCompiler();
  let client: PGlite;
  let db: ReturnType<typeof drizzlePglite<typeof schema>>;
  try {
    client = await PGlite.create({ dataDir: path, loadDataDir: template, ...pgliteOptions() });
    db = drizzlePglite(client, { schema });
    await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
  } catch (error) {
    release();
    throw error;
  }
  const driver: Driver = { kind: "pglite", client };
  return {
    db,
    kind: "pglite",
    driver,
    background: { db, driver },
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: async () => {
      if (!client.closed) await client.close();
      release();
    },
  };
}

async function openPostgres(url: string): Promise<Database> {
  // Bounded waits, so with the database down a request fails over to 503 in seconds and service
  // resumes within about a second of it returning: postgres.js waits 30 s for a connect by
  // default, and its reconnect backoff grows with consecutive failures up to 20 s.
  const settings = {
    connect_timeout: 5,
    backoff: (attempts: number) => Math.min(0.05 * 2 ** attempts, 1),
    onnotice: () => {},
  };
  const client = postgres(url, { ...settings, max: 10 });
  const db = drizzlePostgres(client, { schema });
  // Opened on first use (postgres.js connects lazily): two connections for background work.
  const backgroundClient = postgres(url, { ...settings, max: 2 });
  const lock = await client.reserve();
  try {
    await lock`select pg_advisory_lock(${MIGRATION_LOCK_ID})`;
    await migratePostgres(db, { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await lock`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`.catch(() => undefined);
    lock.release();
  }
  return {
    db,
    kind: "postgres",
    driver: { kind: "postgres", client },
    background: {
      db: drizzlePostgres(backgroundClient, { schema }),
      driver: { kind: "postgres", client: backgroundClient },
    },
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: async () => {
      await Promise.all([client.end({ timeout: 5 }), backgroundClient.end({ timeout: 5 })]);
    },
  };
}
