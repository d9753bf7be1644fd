import { z } from "zod";
import { USAGE_OUTCOMES } from "./outcome.js";
import type { Granularity, UsageRange, UsageRow } from "./series.js";

/*
 * The usage read: one wallet's (optionally one key's) rollup rows in a range. Ranges are whole
 * UTC buckets of the granularity, so each granularity reads the table already bucketed that way
 * (usage_hourly, or usage_daily, which triggers keep in step with it) and no aggregation is
 * needed: each row is already one (key, bucket, outcome). The (wallet, bucket, key_id, outcome,
 * count) indexes make it an index-only scan; its cost grows with buckets and keys, never with
 * requests. Names come from the wallet's own keys (k.wallet = $1 lets the planner use the
 * wallet index instead of scanning every key). Buckets come back as epoch milliseconds:
 * drizzle's postgres.js client returns timestamptz as text, PGlite as Date; a number is the
 * same on both.
 */
function rowsSql(table: string, column: string): string {
  return `
SELECT u.key_id, k.name, extract(epoch FROM u.${column})::float8 * 1000 AS start_ms, u.outcome,
  u.count::float8 AS count
FROM ${table} AS u JOIN api_keys AS k ON k.id = u.key_id AND k.wallet = $1
WHERE u.wallet = $1 AND u.${column} >= $2::timestamptz AND u.${column} < $3::timestamptz
  AND ($4::text IS NULL OR u.key_id = $4::text)`;
}

/** The usage read for each granularity. Parameters: wallet, from, to, key id or null. */
export const USAGE_ROWS_SQL: Record<Granularity, string> = {
  hour: rowsSql("usage_hourly", "hour"),
  day: rowsSql("usage_daily", "day"),
};

/** The parameters of {@link USAGE_ROWS_SQL}. */
export function usageRowsParams(
  wallet: string,
  range: UsageRange,
  keyId: string | null,
): Array<string | null> {
  return [wallet, range.from.toISOString(), range.to.toISOString(), keyId];
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
