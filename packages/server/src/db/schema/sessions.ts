import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Sign-in sessions. The bearer token itself is never stored, only its SHA-256 `token_hash`; `id` is a
 * random public id (`ses_...`) a wallet uses to name one of its sessions (docs/api.md#sessions).
 */
export const sessions = pgTable(
  "sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    id: text("id").notNull().unique(),
    wallet: text("wallet").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true, precision: 3 }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true, precision: 3 }),
    /** Written at most once a minute a session (auth/last-seen.ts). */
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /** The signing-in browser's `User-Agent`, bounded; null when it sent none. */
    userAgent: text("user_agent"),
    /** The signing-in client's address (TRUSTED_PROXIES decides whose `X-Forwarded-For` counts). */
    ip: text("ip"),
  },
  (table) => [
    index("sessions_wallet_idx").on(table.wallet),
    index("sessions_expires_at_idx").on(table.expiresAt),
  ],
);
