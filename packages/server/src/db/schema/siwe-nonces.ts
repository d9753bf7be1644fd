import { pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Nonces issued for Sign-In with Ethereum: single use (`used_at`), short-lived (`expires_at`). */
export const siweNonces = pgTable("siwe_nonces", {
  nonce: text("nonce").primaryKey(),
  createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  expiresAt: timestamp("expires_at", { withTimezone: true, precision: 3 }).notNull(),
  usedAt: timestamp("used_at", { withTimezone: true, precision: 3 }),
});
