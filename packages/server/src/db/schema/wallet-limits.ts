import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * A wallet-wide rate limit (docs/verifying-keys.md): one window shared by all of a wallet's keys, checked after
 * each key's own. No row means no wallet-wide limit.
 */
export const walletLimits = pgTable("wallet_limits", {
  wallet: text("wallet").primaryKey(),
  rateLimitLimit: integer("rate_limit_limit").notNull(),
  rateLimitWindowSeconds: integer("rate_limit_window_seconds").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});
