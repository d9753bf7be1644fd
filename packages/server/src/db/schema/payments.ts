import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/**
 * A payment (docs/payments.md): `kind` says what it bought, `top_up` (credits for the key `key_id`)
 * or `plan` (`plan_id` for `days` days; no key). A payment is recorded before it is settled, unique on
 * the EIP-3009 authorization it spends (network, asset, payer, nonce), so one authorization credits once. `status`
 * runs pending (recorded, settlement may be in flight) -> settled (its transaction known) ->
 * credited, or -> failed; `answer` is what the request answered, given again to a replay. The worker
 * settling it holds `locked_until` and pushes it forward while it works; a payment whose lock lapsed
 * is taken up by the next replay or by the reconciler, at `next_attempt_at`, which backs off per payment
 * (`attempts`); the search for its transaction runs forward from `from_block` in bounded chunks and
 * remembers where it got to (`searched_block`). The PAYMENT-SIGNATURE itself is never stored,
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
    /** What the payment bought; rows from before plans are all `top_up`. */
    kind: text("kind", { enum: ["top_up", "plan"] })
      .notNull()
      .default("top_up"),
    /** The key a top-up credits; null for a plan purchase. */
    keyId: text("key_id"),
    /** The plan a `plan` payment bought; null for a top-up. */
    planId: text("plan_id"),
    /** How many days of the plan a `plan` payment bought; null for a top-up. */
    days: integer("days"),
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
    /**
     * The chain's height when the payment was recorded, less a margin: its transaction cannot be
     * earlier, so the search for it starts here. Null for payments recorded before this column, or
     * when the node did not answer (the search then starts at the block of `created_at`).
     */
    fromBlock: bigint("from_block", { mode: "number" }),
    /** The last block searched for its transaction so far: the next search goes on after it. */
    searchedBlock: bigint("searched_block", { mode: "number" }),
    /** Reconciler turns that left it open; its back-off grows with them. */
    attempts: integer("attempts").notNull().default(0),
    /** When the reconciler takes it up next (docs/payments.md#recovery). */
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("payments_authorization_idx").on(table.network, table.asset, table.payer, table.nonce),
    // The reconciler reads the few payments still open, those due first.
    index("payments_open_idx").on(table.nextAttemptAt).where(sql`${table.status} IN ('pending', 'settled')`),
    // The operator's ledger and CSV export read settled payments by settlement time, then id (operator/payment-ledger.ts).
    index("payments_settled_at_idx").on(table.updatedAt, table.id),
    check("payments_kind_check", sql`${table.kind} IN ('top_up', 'plan')`),
    check("payments_top_up_key_check", sql`${table.kind} <> 'top_up' OR ${table.keyId} IS NOT NULL`),
    check("payments_status_check", sql`${table.status} IN ('pending', 'settled', 'credited', 'failed')`),
  ],
);

export type PaymentRow = typeof payments.$inferSelect;
