import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import type { BenchDatabase } from "./databases.js";

/** 5,000,000 verifications over 90 days (2,160 hours) across 50 keys. */
export const USAGE_TOTAL = 5_000_000;
const HOURS = 2_160;

/*
 * The honest equivalent of recording 5,000,000 verifications: the hourly rollup rows they leave
 * behind. Every (key, hour) of the last 90 days gets 46 VALID (50 x 2,160 x 46 = 4,968,000), and
 * the first 32,000 (key, hour) pairs one RATE_LIMITED more, for exactly 5,000,000.
 */
const SEED_SQL = `
WITH k AS (
  SELECT id, wallet, row_number() OVER (ORDER BY id) - 1 AS ki FROM api_keys WHERE wallet = $1
), h AS (
  SELECT hour, n - 1 AS hi
  FROM generate_series(date_trunc('hour', now()) - interval '${HOURS - 1} hours', date_trunc('hour', now()), interval '1 hour')
    WITH ORDINALITY AS g (hour, n)
)
INSERT INTO usage_hourly (key_id, wallet, hour, outcome, count)
SELECT k.id, k.wallet, h.hour, 'VALID', 46 FROM k CROSS JOIN h
UNION ALL
SELECT k.id, k.wallet, h.hour, 'RATE_LIMITED', 1 FROM k CROSS JOIN h WHERE h.hi * 50 + k.ki < 32000`;

const TOTAL_SQL = "SELECT coalesce(sum(count), 0)::float8 AS total FROM usage_hourly WHERE wallet = $1";

function totalOf(rows: readonly unknown[]): number {
  const row = rows[0];
  const total: unknown = typeof row === "object" && row !== null ? Reflect.get(row, "total") : undefined;
  return typeof total === "number" ? total : Number.NaN;
}

/**
 * Writes the rollup rows for `wallet` (which must own exactly 50 keys) straight into the database
 * and returns the recorded total, then ANALYZEs (as autovacuum soon would) so plans see the real sizes.
 * PGlite must not be open in the server meanwhile.
 */
export async function seedUsage(database: BenchDatabase, wallet: string): Promise<number> {
  if (database.kind === "postgres") {
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      await sql.unsafe(SEED_SQL, [wallet]);
      await sql.unsafe("ANALYZE");
      return totalOf(await sql.unsafe(TOTAL_SQL, [wallet]));
    } finally {
      await sql.end();
    }
  }
  // The server keeps its embedded database under DATA_DIR/pglite.
  const pg = await PGlite.create(join(database.dir, "pglite"));
  try {
    await pg.query(SEED_SQL, [wallet]);
    await pg.exec("ANALYZE");
    return totalOf((await pg.query(TOTAL_SQL, [wallet])).rows);
  } finally {
    await pg.close();
  }
}
