import { z } from "zod";
import { USAGE_OUTCOMES } from "./outcome.js";
import type { BucketSum, Granularity, KeySum, UsageRange } from "./series.js";

/*
 * The usage read: one wallet's (optionally one key's) rollup rows in a range, summed by PostgreSQL
 * into what the answer shows: per key and outcome, and per bucket and outcome (`GROUPING SETS`).
 * Ranges are whole UTC buckets of the granularity, so each granularity reads the table already
 * bucketed that way (usage_hourly, or usage_daily, which triggers keep in step with it). The
 * (wallet, bucket, key_id, outcome, count) indexes make the read an index-only scan; the answer is
 * keys x outcomes + buckets x outcomes rows (about 300 for 50 keys over 90 days) however many
 * rollup rows were summed: parsing every (key, bucket, outcome) row in JavaScript was most of a
 * usage request's time. A key row has no bucket (`start_ms` null), a bucket row no key (`key_id`
 * null; `key_id` is never null in the table). Names come from the wallet's own keys (k.wallet = $1
 * lets the planner use the wallet index instead of scanning every key). Buckets come back as epoch
 * milliseconds: drizzle's postgres.js client returns timestamptz as text, PGlite as Date; a number
 * is the same on both.
 */
function sumsSql(table: string, column: string): string {
  return `
SELECT u.key_id, min(k.name) AS name, extract(epoch FROM u.${column})::float8 * 1000 AS start_ms, u.outcome,
  sum(u.count)::float8 AS count
FROM ${table} AS u JOIN api_keys AS k ON k.id = u.key_id AND k.wallet = $1
WHERE u.wallet = $1 AND u.${column} >= $2::timestamptz AND u.${column} < $3::timestamptz
  AND ($4::text IS NULL OR u.key_id = $4::text)
GROUP BY GROUPING SETS ((u.key_id, u.outcome), (u.${column}, u.outcome))`;
}

/** The usage read for each granularity. Parameters: wallet, from, to, key id or null. */
export const USAGE_SUMS_SQL: Record<Granularity, string> = {
  hour: sumsSql("usage_hourly", "hour"),
  day: sumsSql("usage_daily", "day"),
};

/** The parameters of {@link USAGE_SUMS_SQL}. */
export function usageSumsParams(
  wallet: string,
  range: UsageRange,
  keyId: string | null,
): Array<string | null> {
  return [wallet, range.from.toISOString(), range.to.toISOString(), keyId];
}

const usageSumSchema = z.object({
  key_id: z.string().nullable(),
  name: z.string().nullable(),
  start_ms: z.number().nullable(),
  outcome: z.enum(USAGE_OUTCOMES),
  count: z.number(),
});

/** Checks the driver's rows of {@link USAGE_SUMS_SQL} and splits them into key and bucket sums. */
export function parseUsageSums(rows: readonly unknown[]): { byKey: KeySum[]; byBucket: BucketSum[] } {
  const byKey: KeySum[] = [];
  const byBucket: BucketSum[] = [];
  for (const { key_id, name, start_ms, outcome, count } of z.array(usageSumSchema).parse(rows)) {
    if (key_id !== null && name !== null && start_ms === null)
      byKey.push({ keyId: key_id, name, outcome, count });
    else if (key_id === null && start_ms !== null)
      byBucket.push({ start: new Date(start_ms), outcome, count });
    else throw new Error("usage read: a row is neither a key's sum nor a bucket's");
  }
  return { byKey, byBucket };
}
