import { sql } from "drizzle-orm";
import { check, integer, pgTable, text } from "drizzle-orm/pg-core";

/**
 * An upper bound on each wallet's active keys, so a create can honour MAX_ACTIVE_KEYS_PER_WALLET
 * without counting the wallet's keys (keys/insert-under-cap.ts). Everything that makes a key active
 * (a create, a roll with grace, giving an expired key a future expiry) adds one under this row's
 * lock; keys that expire or are revoked leave it high, and the exact count, taken only when the
 * bound reaches the cap, sets it back. So `at_most` is never below the true count, and the row's
 * lock is the wallet's lock for every path that adds an active key.
 */
export const walletActiveKeys = pgTable(
  "wallet_active_keys",
  {
    wallet: text("wallet").primaryKey(),
    atMost: integer("at_most").notNull(),
  },
  (table) => [check("wallet_active_keys_at_most_check", sql`${table.atMost} >= 0`)],
);
