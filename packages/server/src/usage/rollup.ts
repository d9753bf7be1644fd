import type { UsageBatch } from "./buffer.js";

/*
 * The hourly rollup this sink writes (the wiring phase declares it as a drizzle table):
 *
 *   CREATE TABLE usage_hourly (
 *     key_id  text        NOT NULL REFERENCES api_keys (id),
 *     wallet  text        NOT NULL,  -- the key's owner, copied so usage reads never join
 *     hour    timestamptz NOT NULL,  -- start of the UTC hour
 *     outcome text        NOT NULL CHECK (outcome IN USAGE_OUTCOMES),
 *     count   bigint      NOT NULL,
 *     PRIMARY KEY (key_id, hour, outcome)
 *   );
 *   CREATE INDEX usage_hourly_wallet_hour_idx ON usage_hourly (wallet, hour);
 *
 * A flush is one statement whatever its size: rows travel as parallel arrays through
 * unnest(), so the parameter count stays fixed (no 65,535-parameter ceiling) and the plan is
 * cached. Counts and lastUsedAt are written by the same statement, hence atomically: a failed
 * flush is retried whole without ever counting twice. The buffer sends each
 * (key_id, hour, outcome) at most once per batch, as ON CONFLICT requires. Every parameter is
 * declared text[] and cast in SQL: drizzle's postgres.js client passes timestamptz[] parameters
 * through unserialised, so a timestamptz[] parameter would break there.
 */
export const WRITE_USAGE_SQL = `
WITH counted AS (
  INSERT INTO usage_hourly (key_id, wallet, hour, outcome, count)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[]::timestamptz[], $4::text[], $5::text[]::bigint[])
  ON CONFLICT (key_id, hour, outcome) DO UPDATE SET count = usage_hourly.count + EXCLUDED.count
  RETURNING 1
), touched AS (
  UPDATE api_keys AS k SET last_used_at = v.at
  FROM unnest($6::text[], $7::text[]::timestamptz[]) AS v (id, at)
  WHERE k.id = v.id AND (k.last_used_at IS NULL OR k.last_used_at < v.at)
  RETURNING 1
)
SELECT (SELECT count(*) FROM counted) AS counted, (SELECT count(*) FROM touched) AS touched`;

/** Runs one parameterised statement: PGlite's `pg.query(text, params)`, postgres.js's `sql.unsafe(text, params)`. */
export type ExecuteSql = (text: string, params: string[][]) => Promise<unknown>;

/** The parameters of {@link WRITE_USAGE_SQL} for one batch (all text, cast in SQL). */
export function writeUsageParams(batch: UsageBatch): string[][] {
  const { counts, lastUsed } = batch;
  return [
    counts.map((r) => r.keyId),
    counts.map((r) => r.wallet),
    counts.map((r) => r.hour.toISOString()),
    counts.map((r) => r.outcome),
    counts.map((r) => String(r.count)),
    lastUsed.map((r) => r.keyId),
    lastUsed.map((r) => r.at.toISOString()),
  ];
}

/**
 * A usage buffer sink that writes each batch with one SQL statement.
 * @example createUsageBuffer({ sink: createSqlUsageSink((text, params) => pg.query(text, params)) })
 */
export function createSqlUsageSink(execute: ExecuteSql): (batch: UsageBatch) => Promise<void> {
  return async (batch) => {
    if (batch.counts.length === 0 && batch.lastUsed.length === 0) return;
    await execute(WRITE_USAGE_SQL, writeUsageParams(batch));
  };
}
