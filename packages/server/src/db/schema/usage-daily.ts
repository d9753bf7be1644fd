import { sql } from "drizzle-orm";
import { bigint, check, index, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { apiKeys } from "./api-keys.js";

/**
 * Daily usage rollups, derived from usage_hourly by statement-level triggers (see the 0002
 * migration): whoever writes hourly counts, the daily ones follow in the same transaction. They
 * exist for reading speed: a 30-day daily query over 50 keys reads ~1,500-6,000 index entries
 * and needs no aggregation, instead of summing ~36,000 hourly rows.
 */
export const usageDaily = pgTable(
  "usage_daily",
  {
    keyId: text("key_id")
      .notNull()
      .references(() => apiKeys.id),
    wallet: text("wallet").notNull(),
    /** Start of the UTC day. */
    day: timestamp("day", { withTimezone: true }).notNull(),
    outcome: text("outcome").notNull(),
    count: bigint("count", { mode: "number" }).notNull(),
  },
  (table) => [
    primaryKey({ name: "usage_daily_pkey", columns: [table.keyId, table.day, table.outcome] }),
    index("usage_daily_wallet_day_idx").on(table.wallet, table.day, table.keyId, table.outcome, table.count),
    check(
      "usage_daily_outcome_check",
      sql`${table.outcome} IN ('VALID', 'RATE_LIMITED', 'EXPIRED', 'REVOKED', 'INSUFFICIENT_PERMISSIONS', 'USAGE_EXCEEDED', 'IP_NOT_ALLOWED', 'WALLET_SUSPENDED')`,
    ),
  ],
);
