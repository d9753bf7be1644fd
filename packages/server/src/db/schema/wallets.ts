import { sql } from "drizzle-orm";
import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Every wallet the deployment knows (docs/operator.md): one that has signed in or holds a key, EIP-55
 * checksummed as everywhere. A sign-in and a key's creation insert it when missing; `last_active_at` is
 * its last sign-in, key creation or verification (to within the usage flush), which orders the
 * operator's wallet list. `suspended_at` set: the operator suspended it (docs/operator.md#suspension).
 */
export const wallets = pgTable(
  "wallets",
  {
    address: text("address").primaryKey(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    lastSignInAt: timestamp("last_sign_in_at", { withTimezone: true, precision: 3 }),
    lastActiveAt: timestamp("last_active_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    suspendedAt: timestamp("suspended_at", { withTimezone: true, precision: 3 }),
    suspendedReason: text("suspended_reason"),
    /** The wallet's plan (docs/plans.md); null: the default plan. Not a foreign key: plans are never deleted. */
    planId: text("plan_id"),
    /** When the wallet returns to the default plan; null: never. Past: on the default plan already (read lazily). */
    paidUntil: timestamp("paid_until", { withTimezone: true, precision: 3 }),
  },
  (table) => [index("wallets_last_active_idx").on(sql`${table.lastActiveAt} desc`, table.address)],
);

export type WalletRow = typeof wallets.$inferSelect;
