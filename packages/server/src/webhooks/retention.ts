import { and, inArray, lte, notExists, sql } from "drizzle-orm";
import type { Db } from "../db/database.js";
import { webhookDeliveries, webhookMessages } from "../db/schema/index.js";

/** Days the outbox keeps a message (and its delivery log) when the audit trail keeps events longer or forever. */
export const MAX_WEBHOOK_RETENTION_DAYS = 30;

/**
 * Messages created at or before this time may go (docs/webhooks.md, "Delivery"): EVENTS_RETENTION_DAYS
 * when it is shorter than 30 days, else 30, since a message repeats its audit event's data and
 * the delivery log only needs recent ones.
 */
export function webhookRetentionCutoff(now: Date, eventsRetentionDays: number | null): Date {
  const days = Math.min(eventsRetentionDays ?? MAX_WEBHOOK_RETENTION_DAYS, MAX_WEBHOOK_RETENTION_DAYS);
  return new Date(now.getTime() - days * 86_400_000);
}

/**
 * Deletes up to `batchSize` messages created at or before `before` with no delivery still pending
 * (their deliveries go with them), skipping rows another instance's sweep holds. Returns how many.
 */
export async function deleteOldWebhookMessages(db: Db, before: Date, batchSize = 1_000): Promise<number> {
  const pending = db
    .select({ one: sql`1` })
    .from(webhookDeliveries)
    .where(
      and(
        sql`${webhookDeliveries.messageId} = ${webhookMessages.id}`,
        sql`${webhookDeliveries.status} = 'pending'`,
      ),
    );
  const doomed = db
    .select({ id: webhookMessages.id })
    .from(webhookMessages)
    .where(and(lte(webhookMessages.createdAt, before), notExists(pending)))
    .limit(batchSize)
    .for("update", { skipLocked: true });
  const rows = await db
    .delete(webhookMessages)
    .where(inArray(webhookMessages.id, doomed))
    .returning({ id: webhookMessages.id });
  return rows.length;
}
