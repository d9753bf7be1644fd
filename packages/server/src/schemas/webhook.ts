import { z } from "zod";
import { timestamp } from "./common.js";

/**
 * Every event type a webhook endpoint may subscribe to (docs/webhooks.md). `webhook.test` is sent
 * only by "send a test event" and needs no subscription.
 */
export const WEBHOOK_EVENT_TYPES = [
  "key.created",
  "key.updated",
  "key.rolled",
  "key.revoked",
  "key.leaked",
  "key.expiring",
  "key.expired",
  "credits.low",
  "credits.exhausted",
  "credits.topped_up",
  "limits.updated",
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** A type a message may carry: a subscribable event, or the test event. */
export type WebhookMessageType = WebhookEventType | "webhook.test";

export const webhookEventType = z.enum(WEBHOOK_EVENT_TYPES);

/** At most this many endpoints a wallet (an eleventh is 409). */
export const MAX_WEBHOOKS_PER_WALLET = 10;

/** Why an endpoint was disabled: it answered 410 Gone, its retries ran out, or its owner disabled it. */
export const webhookDisabledReason = z.enum(["gone", "failing", "manual"]);

/** A webhook id: `wh_` + 22 base62 characters. */
export const WEBHOOK_ID_PATTERN = /^wh_[0-9A-Za-z]{22}$/;
export const webhookId = z
  .string()
  .regex(WEBHOOK_ID_PATTERN, "must be a webhook id (wh_ followed by 22 letters and digits)")
  .meta({ description: "Webhook endpoint id (`wh_...`)" });

/** A webhook endpoint as every route returns it: never its secret. */
export const webhook = z
  .object({
    id: webhookId,
    url: z.string().meta({ description: "Where events are POSTed" }),
    events: z.array(webhookEventType).meta({ description: "The event types this endpoint receives" }),
    description: z.string().nullable(),
    enabled: z.boolean(),
    createdAt: timestamp,
    disabledReason: webhookDisabledReason
      .nullable()
      .meta({ description: "Why the endpoint stopped receiving; null while enabled" }),
  })
  .meta({ id: "Webhook" });

export type Webhook = z.infer<typeof webhook>;

/**
 * The body of every webhook request: `timestamp` is the change's commit time (ISO-8601), `data` the
 * public ApiKey (or the wallet's limits) and what changed. Never a secret, hash or session.
 */
export interface WebhookPayload {
  type: WebhookMessageType;
  timestamp: string;
  data: Record<string, unknown>;
}
