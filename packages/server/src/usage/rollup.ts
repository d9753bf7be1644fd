import type { UsageBatch } from "./buffer.js";
import { RECENT_VERIFICATIONS_PER_KEY } from "./recent.js";

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
 *
 * The same statement keeps each key's recent verifications (db/schema/key-verifications.ts): it
 * ranks the batch's samples together with the stored rows of the keys they name (newest first:
 * time, then a batch's sample over a stored row, then order in the batch), inserts the batch's
 * samples that rank within the newest RECENT_VERIFICATIONS_PER_KEY and deletes the stored rows that
 * rank beyond, so a key never holds more once a flush commits, and a failed flush leaves nothing
 * half-done. Its cost is one index range read of at most that many rows per key touched, once a
 * flush, never once a verification. An empty ip (or refusing limit) travels as '' (never a real
 * address or limit name) and is stored as NULL, sparing drivers a NULL inside an array parameter.
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
), incoming AS (
  SELECT * FROM unnest($8::text[], $9::text[]::timestamptz[], $10::text[], $11::text[]::jsonb[], $12::text[]::integer[], $13::text[], $14::text[], $15::text[])
    WITH ORDINALITY AS s (key_id, at, outcome, permissions, cost, ip, limit_name, limit_scope, ord)
), ranked AS (
  SELECT r.id, r.ord, row_number() OVER (PARTITION BY r.key_id ORDER BY r.at DESC, r.fresh DESC, r.ord DESC, r.id DESC) AS rank
  FROM (
    SELECT NULL::bigint AS id, key_id, at, ord, true AS fresh FROM incoming
    UNION ALL
    SELECT v.id, v.key_id, v.at, 0, false FROM key_verifications AS v
    WHERE v.key_id IN (SELECT DISTINCT key_id FROM incoming)
  ) AS r
), kept AS (
  INSERT INTO key_verifications (key_id, at, outcome, permissions, cost, ip, limit_name, limit_scope)
  SELECT i.key_id, i.at, i.outcome, i.permissions, i.cost, NULLIF(i.ip, ''), NULLIF(i.limit_name, ''), NULLIF(i.limit_scope, '')
  FROM incoming AS i JOIN ranked AS r ON r.id IS NULL AND r.ord = i.ord
  WHERE r.rank <= ${RECENT_VERIFICATIONS_PER_KEY}
  ORDER BY i.ord
  RETURNING 1
), trimmed AS (
  DELETE FROM key_verifications
  WHERE id IN (SELECT id FROM ranked WHERE id IS NOT NULL AND rank > ${RECENT_VERIFICATIONS_PER_KEY})
  RETURNING 1
)
SELECT (SELECT count(*) FROM counted) AS counted, (SELECT count(*) FROM touched) AS touched,
  (SELECT count(*) FROM kept) AS kept, (SELECT count(*) FROM trimmed) AS trimmed`;

/** Runs one parameterised statement: PGlite's `pg.query(text, params)`, postgres.js's `sql.unsafe(text, params)`. */
export type ExecuteSql = (text: string, params: string[][]) => Promise<unknown>;

/** The parameters of {@link WRITE_USAGE_SQL} for one batch (all text, cast in SQL). */
export function writeUsageParams(batch: UsageBatch): string[][] {
  const { counts, lastUsed, recent } = batch;
  return [
    counts.map((r) => r.keyId),
    counts.map((r) => r.wallet),
    counts.map((r) => r.hour.toISOString()),
    counts.map((r) => r.outcome),
    counts.map((r) => String(r.count)),
    lastUsed.map((r) => r.keyId),
    lastUsed.map((r) => r.at.toISOString()),
    recent.map((r) => r.keyId),
    recent.map((r) => r.at.toISOString()),
    recent.map((r) => r.outcome),
    recent.map((r) => JSON.stringify(r.permissions)),
    recent.map((r) => String(r.cost)),
    recent.map((r) => r.ip ?? ""),
    recent.map((r) => r.refusedBy?.name ?? ""),
    recent.map((r) => r.refusedBy?.scope ?? ""),
  ];
}

/**
 * A usage buffer sink that writes each batch with one SQL statement.
 * @example createUsageBuffer({ sink: createSqlUsageSink((text, params) => pg.query(text, params)) })
 */
export function createSqlUsageSink(execute: ExecuteSql): (batch: UsageBatch) => Promise<void> {
  return async (batch) => {
    if (batch.counts.length === 0 && batch.lastUsed.length === 0 && batch.recent.length === 0) return;
    await execute(WRITE_USAGE_SQL, writeUsageParams(batch));
  };
}
