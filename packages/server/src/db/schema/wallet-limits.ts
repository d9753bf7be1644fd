import { sql } from "drizzle-orm";
import { jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import type { NamedRateLimit } from "../../schemas/rate-limits.js";

/**
 * A wallet's wallet-wide named limits (docs/verifying-keys.md#named-limits), shared by all of its keys and
 * checked with each key's own. No row means none.
 */
export const walletLimits = pgTable("wallet_limits", {
  wallet: text("wallet").primaryKey(),
  /** The wallet-wide named limits, applied to every verification of the wallet's keys; never empty (no row: none). */
  rateLimits: jsonb("rate_limits").$type<NamedRateLimit[]>().notNull().default(sql`'[]'::jsonb`),
  updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});
