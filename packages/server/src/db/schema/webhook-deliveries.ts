import { sql } from "drizzle-orm";
import { bigserial, check, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { webhookMessages } from "./webhook-messages.js";
import { webhooks } from "./webhooks.js";

/**
 * One message to one endpoint, and the state of its attempts (docs/webhooks.md). A delivery is
 * `pending` until a 2xx (`succeeded`) or the retry schedule runs out or the endpoint is disabled
 * (`failed`), or until the endpoint holds too many undelivered messages and this is one of its oldest
 * (`dropped`, the reason in `last_response`). Instances claim due rows with `FOR UPDATE SKIP LOCKED` and hold them by pushing
 * `next_attempt_at` past the attempt's timeout, so a process killed mid-send leaves its row to be
 * retried once the claim lapses. The last response is kept for the delivery log, at most 1 KiB.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    messageId: text("message_id")
      .notNull()
      .references(() => webhookMessages.id, { onDelete: "cascade" }),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    status: text("status").notNull().default("pending"),
    /** Attempts made so far (0 until the first send). */
    attempts: integer("attempts").notNull().default(0),
    /** When the next attempt is due (pending), or null once settled. */
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, precision: 3 }).defaultNow(),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true, precision: 3 }),
    /** The last answer's HTTP status; null when none came (timeout, refused, blocked address). */
    lastStatusCode: integer("last_status_code"),
    lastDurationMs: integer("last_duration_ms"),
    /** The first 1 KiB of the last answer's body, or why no answer came. */
    lastResponse: text("last_response"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [
    index("webhook_deliveries_due_idx").on(table.nextAttemptAt).where(sql`${table.status} = 'pending'`),
    index("webhook_deliveries_webhook_idx").on(table.webhookId, sql`${table.id} desc`),
    // The claim's round-robin reads each endpoint's oldest due rows; the overflow trim counts its pending ones.
    index("webhook_deliveries_endpoint_due_idx")
      .on(table.webhookId, table.nextAttemptAt)
      .where(sql`${table.status} = 'pending'`),
    index("webhook_deliveries_message_idx").on(table.messageId),
    check(
      "webhook_deliveries_status_check",
      sql`${table.status} IN ('pending', 'succeeded', 'failed', 'dropped')`,
    ),
  ],
);

export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
