import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  check,
  index,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/**
 * A top-up payment (docs/payments.md): recorded before it is settled, unique on the EIP-3009
 * authorization it spends (network, asset, payer, nonce), so one authorization credits once. `status`
 * runs pending (recorded, settlement may be in flight) -> settled (its transaction known) ->
 * credited, or -> failed; `answer` is what the request answered, given again to a replay. The worker
 * settling it holds `locked_until` and pushes it forward while it works; a payment whose lock lapsed
 * is taken up by the next replay or by the reconciler. The PAYMENT-SIGNATURE itself is never stored,
 * only its SHA-256.
 */
export const payments = pgTable(
  "payments",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    network: text("network").notNull(),
    asset: text("asset").notNull(),
    /** Lowercase 0x address of the authorization's `from`. */
    payer: text("payer").notNull(),
    /** The EIP-3009 nonce (0x + 64 hex, lowercase). */
    nonce: text("nonce").notNull(),
    /** Lowercase hex SHA-256 of the PAYMENT-SIGNATURE value. */
    signatureHash: text("signature_hash").notNull(),
    keyId: text("key_id").notNull(),
    creditsId: text("credits_id").notNull(),
    wallet: text("wallet").notNull(),
    /** The amount as the caller wrote it (whole tokens). */
    amount: text("amount").notNull(),
    baseUnits: numeric("base_units", { precision: 78, scale: 0 }).notNull(),
    credits: bigint("credits", { mode: "number" }).notNull(),
    /** The authorization's `validBefore`: a payment never settled is failed after it. */
    validBefore: timestamp("valid_before", { withTimezone: true, precision: 3 }).notNull(),
    status: text("status", { enum: ["pending", "settled", "credited", "failed"] }).notNull(),
    transaction: text("transaction"),
    answer: jsonb("answer"),
    lockedUntil: timestamp("locked_until", { withTimezone: true, precision: 3 }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("payments_authorization_idx").on(table.network, table.asset, table.payer, table.nonce),
    // The reconciler reads the few payments still open.
    index("payments_open_idx").on(table.lockedUntil).where(sql`${table.status} IN ('pending', 'settled')`),
    check("payments_status_check", sql`${table.status} IN ('pending', 'settled', 'credited', 'failed')`),
  ],
);

export type PaymentRow = typeof payments.$inferSelect;
