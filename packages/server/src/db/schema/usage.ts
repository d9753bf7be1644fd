import { sql } from "drizzle-orm";
import { bigint, check, index, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { apiKeys } from "./api-keys.js";

/**
 * Hourly usage rollups: one row per (key, UTC hour, outcome) holding how many verifications ended
 * that way. Written in batches by the usage buffer (see usage/rollup.ts), read by usage.get.
 * `wallet` is the key's owner, copied so a wallet's usage reads never join. The (wallet, hour)
 * index also carries key_id, outcome and count (drizzle cannot declare INCLUDE, trailing key
 * columns do the same job) so a usage read can be an index-only scan: a 30-day read over 50
 * keys touches ~36k index entries and no heap pages once the table is vacuumed.
 */
export const usageHourly = pgTable(
  "usage_hourly",
  {
    keyId: text("key_id")
      .notNull()
      .references(() => apiKeys.id),
    wallet: text("wallet").notNull(),
    hour: timestamp("hour", { withTimezone: true }).notNull(),
    outcome: text("outcome").notNull(),
    count: bigint("count", { mode: "number" }).notNull(),
  },
  (table) => [
    primaryKey({ name: "usage_hourly_pkey", columns: [table.keyId, table.hour, table.outcome] }),
    index("usage_hourly_wallet_hour_idx").on(
      table.wallet,
      table.hour,
      table.keyId,
      table.outcome,
      table.count,
    ),
    check(
      "usage_hourly_outcome_check",
      sql`${table.outcome} IN ('VALID', 'RATE_LIMITED', 'EXPIRED', 'REVOKED', 'INSUFFICIENT_PERMISSIONS', 'USAGE_EXCEEDED', 'IP_NOT_ALLOWED', 'WALLET_SUSPENDED')`,
    ),
  ],
);
