import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Sign-in sessions. The bearer token itself is never stored, only its SHA-256 `token_hash`. */
export const sessions = pgTable(
  "sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    wallet: text("wallet").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true, precision: 3 }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true, precision: 3 }),
  },
  (table) => [
    index("sessions_wallet_idx").on(table.wallet),
    index("sessions_expires_at_idx").on(table.expiresAt),
  ],
);
