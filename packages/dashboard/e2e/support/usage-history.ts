/**
 * A week of hourly usage for the wallet's keys, written as the rollup rows the server's usage buffer
 * would have left (the usage view and the README's screenshot need history that live traffic would
 * take days to make). Deterministic: each key and outcome follows its own smooth daily rhythm.
 */
export const SEED_USAGE_SQL = `
WITH k AS (
  SELECT id, wallet, row_number() OVER (ORDER BY created_at) AS n FROM api_keys
), h AS (
  SELECT hour, i
  FROM generate_series(date_trunc('hour', now()) - interval '167 hours', date_trunc('hour', now()) - interval '1 hour', interval '1 hour')
    WITH ORDINALITY AS g (hour, i)
), o AS (
  SELECT * FROM (VALUES ('VALID', 30.0), ('RATE_LIMITED', 4.0), ('EXPIRED', 1.0), ('REVOKED', 1.5)) AS v (outcome, base)
)
INSERT INTO usage_hourly (key_id, wallet, hour, outcome, count)
SELECT k.id, k.wallet, h.hour, o.outcome,
  greatest(1, round(o.base * (1.2 + sin(h.i / 3.8 + k.n)) * (1 + (h.i % 24) / 24.0) / k.n))::bigint
FROM k CROSS JOIN h CROSS JOIN o`;
