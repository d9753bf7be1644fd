import { z } from "zod";
import { USAGE_OUTCOMES } from "./outcome.js";
import type { Granularity, UsageRange, UsageRow } from "./series.js";

/**
 * The usage read: rollup rows of one wallet (optionally one key) in a range, summed per key,
 * UTC bucket and outcome. Served by the (wallet, hour) index; its cost grows with hours and
 * keys, never with requests. `date_trunc(unit, timestamptz, 'UTC')` buckets in UTC whatever
 * the session time zone. The bucket comes back as epoch milliseconds: drizzle's postgres.js
 * client returns timestamptz as text, PGlite as Date; a number is the same on both. GROUP BY is
 * positional because `start` would name api_keys.start, not an output column.
 * Parameters: wallet, from, to, 'hour' | 'day', key id or null.
 */
export const USAGE_ROWS_SQL = `
SELECT u.key_id, k.name, extract(epoch FROM date_trunc($4, u.hour, 'UTC'))::float8 * 1000 AS start_ms,
  u.outcome, sum(u.count)::float8 AS count
FROM usage_hourly AS u JOIN api_keys AS k ON k.id = u.key_id
WHERE u.wallet = $1 AND u.hour >= $2::timestamptz AND u.hour < $3::timestamptz
  AND ($5::text IS NULL OR u.key_id = $5::text)
GROUP BY 1, 2, 3, 4`;

/** The parameters of {@link USAGE_ROWS_SQL}. */
export function usageRowsParams(
  wallet: string,
  range: UsageRange,
  keyId: string | null,
): Array<string | null> {
  const unit: Granularity = range.granularity;
  return [wallet, range.from.toISOString(), range.to.toISOString(), unit, keyId];
}

const usageRowSchema = z
  .object({
    key_id: z.string(),
    name: z.string(),
    start_ms: z.number(),
    outcome: z.enum(USAGE_OUTCOMES),
    count: z.number(),
  })
  .transform(
    ({ key_id, name, start_ms, outcome, count }): UsageRow => ({
      keyId: key_id,
      name,
      start: new Date(start_ms),
      outcome,
      count,
    }),
  );

/** Checks the driver's rows of {@link USAGE_ROWS_SQL} and turns them into `UsageRow`s. */
export function parseUsageRows(rows: readonly unknown[]): UsageRow[] {
  return z.array(usageRowSchema).parse(rows);
}
