import { and, desc, eq } from "drizzle-orm";
import type { Db, Tx } from "../db/database.js";
import { webhookDeliveries, webhookMessages, webhooks } from "../db/schema/index.js";
import {
  MAX_WEBHOOK_DELIVERIES_LISTED,
  type WebhookDelivery,
  type WebhookPayload,
} from "../schemas/webhook.js";
import { newMessageId } from "./message-id.js";
import { toWebhookDelivery } from "./rows.js";
import type { WebhookRef } from "./webhook-service.js";

/** What a test event's `data.message` says (docs/webhooks.md). */
export const TEST_EVENT_MESSAGE = "This is a test event from Keyport";

/** The endpoint, locked until the transaction ends (so it cannot be disabled or deleted meanwhile). */
async function lockEndpoint(tx: Tx, ref: WebhookRef) {
  const [endpoint] = await tx
    .select({ id: webhooks.id, enabled: webhooks.enabled })
    .from(webhooks)
    .where(and(eq(webhooks.id, ref.id), eq(webhooks.wallet, ref.wallet)))
    .for("update");
  return endpoint;
}

/**
 * The delivery log of the wallet's endpoints, and the two actions that add to it: a test event and
 * a redelivery. Both only write rows; the delivery engine claims and sends them.
 */
export function createDeliveryLog(db: Db) {
  return {
    async deliveries(ref: WebhookRef): Promise<WebhookDelivery[] | null> {
      const [endpoint] = await db
        .select({ id: webhooks.id })
        .from(webhooks)
        .where(and(eq(webhooks.id, ref.id), eq(webhooks.wallet, ref.wallet)));
      if (endpoint === undefined) return null;
      const rows = await db
        .select({ delivery: webhookDeliveries, type: webhookMessages.type })
        .from(webhookDeliveries)
        .innerJoin(webhookMessages, eq(webhookMessages.id, webhookDeliveries.messageId))
        .where(eq(webhookDeliveries.webhookId, ref.id))
        .orderBy(desc(webhookDeliveries.id))
        .limit(MAX_WEBHOOK_DELIVERIES_LISTED);
      return rows.map((row) => toWebhookDelivery(row.delivery, row.type));
    },

    /**
     * A `webhook.test` message to this endpoint alone: no dedupe key (every test is its own event)
     * and one delivery, due now, whatever the endpoint subscribes to.
     */
    test(
      ref: WebhookRef,
      now: Date,
    ): Promise<{ ok: true; delivery: WebhookDelivery } | { ok: false; reason: "not_found" | "disabled" }> {
      return db.transaction(async (tx) => {
        const endpoint = await lockEndpoint(tx, ref);
        if (endpoint === undefined) return { ok: false as const, reason: "not_found" as const };
        if (!endpoint.enabled) return { ok: false as const, reason: "disabled" as const };
        const id = newMessageId(now);
        const payload: WebhookPayload = {
          type: "webhook.test",
          timestamp: now.toISOString(),
          data: { webhookId: ref.id, message: TEST_EVENT_MESSAGE },
        };
        await tx
          .insert(webhookMessages)
          .values({ id, wallet: ref.wallet, type: payload.type, keyId: null, payload, createdAt: now });
        const [row] = await tx
          .insert(webhookDeliveries)
          .values({ messageId: id, webhookId: ref.id, nextAttemptAt: now, createdAt: now })
          .returning();
        if (row === undefined) throw new Error("The test delivery insert returned no row");
        return { ok: true as const, delivery: toWebhookDelivery(row, payload.type) };
      });
    },

    /**
     * Puts a settled delivery back in the queue, due now: the same message, so the same
     * `webhook-id` and body; `attempts` keeps counting.
     */
    redeliver(
      ref: WebhookRef,
      deliveryId: string,
      now: Date,
    ): Promise<
      { ok: true; delivery: WebhookDelivery } | { ok: false; reason: "not_found" | "pending" | "disabled" }
    > {
      return db.transaction(async (tx) => {
        const endpoint = await lockEndpoint(tx, ref);
        if (endpoint === undefined) return { ok: false as const, reason: "not_found" as const };
        const id = Number(deliveryId);
        const [current] = await tx
          .select({ status: webhookDeliveries.status })
          .from(webhookDeliveries)
          .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.webhookId, ref.id)))
          .for("update");
        if (current === undefined) return { ok: false as const, reason: "not_found" as const };
        if (current.status === "pending") return { ok: false as const, reason: "pending" as const };
        if (!endpoint.enabled) return { ok: false as const, reason: "disabled" as const };
        const [row] = await tx
          .update(webhookDeliveries)
          .set({ status: "pending", nextAttemptAt: now })
          .where(eq(webhookDeliveries.id, id))
          .returning();
        const [message] = await tx
          .select({ type: webhookMessages.type })
          .from(webhookMessages)
          .where(eq(webhookMessages.id, row?.messageId ?? ""));
        if (row === undefined || message === undefined) throw new Error("The redelivered row vanished");
        return { ok: true as const, delivery: toWebhookDelivery(row, message.type) };
      });
    },
  };
}

export type DeliveryLog = ReturnType<typeof createDeliveryLog>;
