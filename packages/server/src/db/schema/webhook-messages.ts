import { index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The webhook outbox: one row per event sent to a wallet's endpoints, written in the same
 * transaction (or statement) as the change it reports, and only when at least one enabled endpoint
 * of the wallet subscribes to its type (webhooks/enqueue.ts). `payload` is the exact body sent,
 * `{ type, timestamp, data }`, fixed at the change so every attempt sends the same bytes under the
 * same `webhook-id` (`id`, `msg_` + a ULID). `dedupe_key` makes events that several instances may
 * produce (the expiry sweep's, credit thresholds) exist once.
 */
export const webhookMessages = pgTable(
  "webhook_messages",
  {
    id: text("id").primaryKey(),
    wallet: text("wallet").notNull(),
    type: text("type").notNull(),
    /** The key the event is about; null for `limits.updated` and test events. */
    keyId: text("key_id"),
    payload: jsonb("payload").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    dedupeKey: text("dedupe_key").unique(),
  },
  (table) => [index("webhook_messages_created_at_idx").using("brin", table.createdAt)],
);

export type WebhookMessageRow = typeof webhookMessages.$inferSelect;
