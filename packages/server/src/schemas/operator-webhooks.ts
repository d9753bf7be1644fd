import { z } from "zod";
import { webhook, webhookDeliveryId, webhookDescription, webhookId, webhookUrl } from "./webhook.js";

/**
 * The deployment-wide events (docs/operator.md#webhooks): an operator endpoint subscribed to one gets
 * it for every wallet. A wallet's own endpoints never get another wallet's.
 */
export const DEPLOYMENT_EVENT_TYPES = [
  "payment.settled",
  "wallet.suspended",
  "wallet.unsuspended",
  "key.leaked",
  "wallet.plan_changed",
] as const;

export type DeploymentEventType = (typeof DEPLOYMENT_EVENT_TYPES)[number];

/** What an operator endpoint may subscribe to: the deployment's events, and its own endpoints' `webhook.disabled`. */
export const OPERATOR_WEBHOOK_EVENT_TYPES = [...DEPLOYMENT_EVENT_TYPES, "webhook.disabled"] as const;

export type OperatorWebhookEventType = (typeof OPERATOR_WEBHOOK_EVENT_TYPES)[number];

export const operatorWebhookEventType = z.enum(OPERATOR_WEBHOOK_EVENT_TYPES);

/** Whether a message of `type` also goes to the operator's endpoints subscribed to it. */
export function isDeploymentEvent(type: string): type is DeploymentEventType {
  return DEPLOYMENT_EVENT_TYPES.some((event) => event === type);
}

/** At most this many operator endpoints a deployment (one more is 409). */
export const MAX_OPERATOR_WEBHOOKS = 10;

const operatorWebhookEvents = z
  .array(operatorWebhookEventType)
  .min(1, "must name at least one event type")
  .max(OPERATOR_WEBHOOK_EVENT_TYPES.length)
  .refine((events) => new Set(events).size === events.length, "must not name an event type twice")
  .meta({ description: "The event types to receive: at least one, none twice" });

/** An operator endpoint as every route returns it: never its secret. */
export const operatorWebhook = webhook
  .extend({
    events: z
      .array(operatorWebhookEventType)
      .meta({ description: "The event types this endpoint receives, of every wallet" }),
  })
  .meta({ id: "OperatorWebhook" });

export type OperatorWebhook = z.infer<typeof operatorWebhook>;

export const listOperatorWebhooksInput = z.object({}).optional();
export const listOperatorWebhooksOutput = z.object({ webhooks: z.array(operatorWebhook) });

export const createOperatorWebhookInput = z.object({
  url: webhookUrl,
  events: operatorWebhookEvents,
  description: webhookDescription.optional(),
});

export const updateOperatorWebhookInput = z.object({
  id: webhookId,
  url: webhookUrl.optional(),
  events: operatorWebhookEvents.optional(),
  description: webhookDescription.nullable().optional(),
  enabled: z.boolean().optional().meta({
    description:
      "false stops deliveries (disabledReason `manual`); true resumes them and clears disabledReason",
  }),
});

/** Input of get, delete, rotateSecret, test and deliveries: one operator endpoint. */
export const operatorWebhookInput = z.object({ id: webhookId });
export const redeliverOperatorWebhookInput = z.object({ id: webhookId, deliveryId: webhookDeliveryId });

export const operatorWebhookOutput = z.object({ webhook: operatorWebhook });
export const operatorWebhookWithSecret = z.object({
  webhook: operatorWebhook,
  secret: z.string().meta({
    description:
      "The signing secret (`whsec_...`), for a Standard Webhooks library. Returned once, here, and never again.",
  }),
});
