import type { WebhookDeliveryRow, WebhookRow } from "../db/schema/index.js";
import { type OperatorWebhook, operatorWebhookEventType } from "../schemas/operator-webhooks.js";
import {
  type Webhook,
  type WebhookDelivery,
  webhookDelivery,
  webhookDisabledReason,
  webhookEventType,
} from "../schemas/webhook.js";

/** An endpoint row as the API shows it: never its secrets. Unknown stored values are dropped, not shown. */
export function toWebhook(row: WebhookRow): Webhook {
  const reason = webhookDisabledReason.safeParse(row.disabledReason);
  return {
    id: row.id,
    url: row.url,
    events: row.events.flatMap((event) => {
      const parsed = webhookEventType.safeParse(event);
      return parsed.success ? [parsed.data] : [];
    }),
    description: row.description,
    enabled: row.enabled,
    createdAt: row.createdAt,
    disabledReason: reason.success ? reason.data : null,
  };
}

/** An operator endpoint row as the operator API shows it (docs/operator.md#webhooks). */
export function toOperatorWebhook(row: WebhookRow): OperatorWebhook {
  return {
    ...toWebhook(row),
    events: row.events.flatMap((event) => {
      const parsed = operatorWebhookEventType.safeParse(event);
      return parsed.success ? [parsed.data] : [];
    }),
  };
}

/** A delivery row and its message's type, as the delivery log shows them. */
export function toWebhookDelivery(row: WebhookDeliveryRow, type: string): WebhookDelivery {
  // The table's CHECK constraint holds the same three values.
  const status = webhookDelivery.shape.status.parse(row.status);
  return {
    id: String(row.id),
    messageId: row.messageId,
    type,
    status,
    attempts: row.attempts,
    nextAttemptAt: row.nextAttemptAt,
    lastAttemptAt: row.lastAttemptAt,
    statusCode: row.lastStatusCode,
    durationMs: row.lastDurationMs,
    response: row.lastResponse,
    createdAt: row.createdAt,
  };
}
