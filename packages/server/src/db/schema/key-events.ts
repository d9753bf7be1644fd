import { sql } from "drizzle-orm";
import { bigserial, check, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The audit trail (docs/decisions.md#audit-trail): one row per key creation, update, roll, revocation, leak report and top-up, and per
 * sign-in and sign-out, and per change of the wallet-wide limit, newest first by `id` (a sequence: exact order, cheap cursors). `changes`
 * says what changed (field names and their new public values, never a secret, token or hash).
 * `key_id` is null for session and wallet-limit events. Events older than EVENTS_RETENTION_DAYS are deleted by the
 * expiry sweep.
 */
export const keyEvents = pgTable(
  "key_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    wallet: text("wallet").notNull(),
    keyId: text("key_id"),
    action: text("action").notNull(),
    at: timestamp("at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    changes: jsonb("changes").notNull().default(sql`'{}'::jsonb`),
  },
  (table) => [
    index("key_events_wallet_id_idx").on(table.wallet, sql`${table.id} desc`),
    // The retention sweep deletes the oldest events (EVENTS_RETENTION_DAYS). Events arrive in time
    // order, so a BRIN index finds them at a fraction of a btree's size and upkeep on every insert.
    index("key_events_at_idx").using("brin", table.at),
    check(
      "key_events_action_check",
      sql`${table.action} IN ('key.created', 'key.updated', 'key.rolled', 'key.revoked', 'key.leaked', 'session.created', 'session.ended', 'limits.updated', 'key.topped_up', 'webhook.created', 'webhook.updated', 'webhook.deleted', 'webhook.disabled', 'wallet.suspended', 'wallet.unsuspended', 'wallet.plan_changed')`,
    ),
  ],
);
