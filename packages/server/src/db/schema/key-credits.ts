import { sql } from "drizzle-orm";
import { bigint, boolean, check, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * A credit balance (docs/verifying-keys.md#key-policies). Keys point at it through `api_keys.credits_id`; a roll points the new
 * key at the same row, so the old key draws on that one balance during its grace period. Spending
 * is one conditional `UPDATE ... WHERE remaining + purchased >= cost RETURNING`, the allowance spent first (verify/credits-store.ts); a refill
 * sets `remaining` to `refill_amount` on the first spend or read after a UTC day or month starts,
 * so no cron is needed. With Redis (docs/verifying-keys.md#credits-with-redis), spends happen there and
 * reach this row through the journal drainer (verify/credits-drainer.ts).
 */
export const keyCredits = pgTable(
  "key_credits",
  {
    id: text("id").primaryKey(),
    /** The allowance: what is left of the credits set by create or PATCH, or of the last refill. */
    remaining: bigint("remaining", { mode: "number" }).notNull(),
    refillInterval: text("refill_interval", { enum: ["daily", "monthly"] }),
    refillAmount: bigint("refill_amount", { mode: "number" }),
    /**
     * Purchased credits (docs/verifying-keys.md#two-pools): changed only by top-ups and spends, never
     * by a refill or a PATCH; spent after the allowance. Never expire.
     */
    purchased: bigint("purchased", { mode: "number" }).notNull().default(0),
    /** Start of the refill period the balance belongs to (null: never refilled). */
    refilledAt: timestamp("refilled_at", { withTimezone: true, precision: 3 }),
    /**
     * Bumped by every administrative change of the balance (a PATCH of credits, a top-up): spends
     * journaled in Redis against an older version were already accounted for by that change, so the
     * drainer skips them (docs/decisions.md, Credits in Redis).
     */
    version: integer("version").notNull().default(0),
    /**
     * Credits of the last top-up (null: never topped up): with the refill amount, it sets the
     * `credits.low` threshold (docs/webhooks.md#credit-events).
     */
    lastTopUp: bigint("last_top_up", { mode: "number" }),
    /**
     * Whether `credits.exhausted` was sent since the balance last rose (a refill, a PATCH, a top-up
     * clear it): the event is sent once a period (docs/webhooks.md#credit-events).
     */
    exhaustedNotified: boolean("exhausted_notified").notNull().default(false),
  },
  (table) => [
    check("key_credits_remaining_check", sql`${table.remaining} >= 0`),
    check("key_credits_purchased_check", sql`${table.purchased} >= 0`),
    // The API carries balances as JSON numbers: their sum stays a safe integer (docs/api.md).
    check("key_credits_total_check", sql`${table.remaining} + ${table.purchased} <= 9007199254740991`),
    check(
      "key_credits_refill_check",
      sql`(${table.refillInterval} IS NULL) = (${table.refillAmount} IS NULL) AND ${table.refillInterval} IN ('daily', 'monthly')`,
    ),
  ],
);

export type KeyCreditsRow = typeof keyCredits.$inferSelect;
