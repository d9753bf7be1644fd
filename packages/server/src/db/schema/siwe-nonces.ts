import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Nonces issued for Sign-In with Ethereum: single use (`used_at`), short-lived (`expires_at`; the
 * expiry sweep deletes by it, hence the index).
 */
export const siweNonces = pgTable(
  "siwe_nonces",
  {
    nonce: text("nonce").primaryKey(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true, precision: 3 }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true, precision: 3 }),
  },
  (table) => [index("siwe_nonces_expires_at_idx").on(table.expiresAt)],
);
