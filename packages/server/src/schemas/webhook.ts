import { z } from "zod";
import { timestamp, walletInput } from "./common.js";
import type { OperatorWebhookEventType } from "./operator-webhooks.js";
import { storedText } from "./stored-text.js";

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
  "webhook.disabled",
  "wallet.suspended",
  "wallet.unsuspended",
  "wallet.plan_changed",
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Any event the outbox carries: a type a wallet's endpoint or the operator's may subscribe to. */
export type OutboxEventType = WebhookEventType | OperatorWebhookEventType;

/** A type a message may carry: a subscribable event, or the test event. */
export type WebhookMessageType = OutboxEventType | "webhook.test";

export const webhookEventType = z.enum(WEBHOOK_EVENT_TYPES);

/** At most this many endpoints a wallet (an eleventh is 409). */
export const MAX_WEBHOOKS_PER_WALLET = 10;

/** Why an endpoint was disabled: it answered 410 Gone, it failed for 3 days straight, or its owner disabled it. */
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

/** Longest endpoint URL, in characters. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;
/** Longest endpoint description, in characters. */
export const MAX_WEBHOOK_DESCRIPTION_LENGTH = 200;
/** Most deliveries the delivery log lists (newest first). */
export const MAX_WEBHOOK_DELIVERIES_LISTED = 100;

/**
 * An endpoint URL's shape, checkable in a browser: an absolute http(s) URL of at most 2048
 * characters with no user name or password (they would be sent to, and logged by, whoever answers).
 * Whether plain http and private addresses are allowed is the server's policy (webhooks/target.ts).
 */
export const webhookUrl = storedText
  .trim()
  .min(1, "must not be empty")
  .max(MAX_WEBHOOK_URL_LENGTH)
  .superRefine((value, ctx) => {
    const parsed = URL.canParse(value) ? new URL(value) : undefined;
    if (parsed === undefined) {
      ctx.addIssue({ code: "custom", message: "must be an absolute URL, e.g. https://example.com/webhooks" });
    } else if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
      ctx.addIssue({ code: "custom", message: "must be an https URL" });
    } else if (parsed.username !== "" || parsed.password !== "") {
      ctx.addIssue({ code: "custom", message: "must not contain a user name or password" });
    }
  })
  .meta({
    description:
      "Where events are POSTed: an https URL (plain http only with WEBHOOKS_ALLOW_PRIVATE) of at most 2048 characters, without credentials, whose host is not and does not resolve to a loopback, private, link-local or metadata address",
    example: "https://example.com/webhooks/keyport",
  });

/** The events an endpoint receives: at least one, each a known type, none twice. */
export const webhookEvents = z
  .array(webhookEventType)
  .min(1, "must name at least one event type")
  .max(WEBHOOK_EVENT_TYPES.length)
  .refine((events) => new Set(events).size === events.length, "must not name an event type twice")
  .meta({ description: "The event types to receive: at least one, none twice" });

/** An endpoint's free-text note, trimmed; at most 200 characters. */
export const webhookDescription = storedText
  .trim()
  .max(MAX_WEBHOOK_DESCRIPTION_LENGTH)
  .meta({ description: "A note for the owner, at most 200 characters" });

/** A delivery id: the row's id as a decimal string. */
export const webhookDeliveryId = z
  .string()
  .regex(/^[1-9][0-9]{0,17}$/, "must be a delivery id (a decimal number)")
  .meta({ description: "Delivery id (a decimal number)" });

/** One message to one endpoint and the state of its attempts, as the delivery log shows it. */
export const webhookDelivery = z
  .object({
    id: webhookDeliveryId,
    messageId: z.string().meta({
      description: "The message's id (`msg_...`): the `webhook-id` header, the same on every attempt",
    }),
    type: z.string().meta({ description: "The event type (or `webhook.test`)" }),
    status: z.enum(["pending", "succeeded", "failed", "dropped"]).meta({
      description:
        "`dropped`: never sent, because the endpoint held more undelivered messages than it may (the reason is in `response`)",
    }),
    attempts: z.number().int().nonnegative().meta({ description: "Attempts made so far" }),
    nextAttemptAt: timestamp
      .nullable()
      .meta({ description: "When the next attempt is due; null once settled" }),
    lastAttemptAt: timestamp.nullable(),
    statusCode: z
      .number()
      .int()
      .nullable()
      .meta({ description: "The last answer's HTTP status; null when none came" }),
    durationMs: z.number().int().nullable().meta({ description: "How long the last attempt took" }),
    response: z
      .string()
      .nullable()
      .meta({ description: "The first 1 KiB of the last answer's body, or why no answer came" }),
    createdAt: timestamp,
  })
  .meta({ id: "WebhookDelivery" });

export type WebhookDelivery = z.infer<typeof webhookDelivery>;

/** Input of `webhooks.list`. */
export const listWebhooksInput = z.object({ wallet: walletInput });
export const listWebhooksOutput = z.object({ webhooks: z.array(webhook) });

/** Body of create. */
export const createWebhookInput = z.object({
  wallet: walletInput,
  url: webhookUrl,
  events: webhookEvents,
  description: webhookDescription.optional(),
});

/** Create's and rotate's answer: the signing secret, shown here once and never again. */
export const webhookWithSecret = z.object({
  webhook,
  secret: z.string().meta({
    description:
      "The signing secret (`whsec_...`), for a Standard Webhooks library. Returned once, here, and never again.",
  }),
});

/** Body of update (PATCH): an absent field is unchanged; `description: null` clears it. */
export const updateWebhookInput = z.object({
  wallet: walletInput,
  id: webhookId,
  url: webhookUrl.optional(),
  events: webhookEvents.optional(),
  description: webhookDescription.nullable().optional(),
  enabled: z.boolean().optional().meta({
    description:
      "false stops deliveries (disabledReason `manual`); true resumes them and clears disabledReason",
  }),
});
export const updateWebhookOutput = z.object({ webhook });

/** Input of delete, rotateSecret, test and deliveries: one endpoint of the wallet. */
export const webhookInput = z.object({ wallet: walletInput, id: webhookId });
export const deleteWebhookOutput = z.object({ deleted: z.literal(true) });

export const listWebhookDeliveriesOutput = z.object({ deliveries: z.array(webhookDelivery) });

/** Input of redeliver. */
export const redeliverWebhookInput = z.object({
  wallet: walletInput,
  id: webhookId,
  deliveryId: webhookDeliveryId,
});
/** Test's and redeliver's answer: the delivery now pending. */
export const webhookDeliveryOutput = z.object({ delivery: webhookDelivery });

export type CreateWebhookInput = z.infer<typeof createWebhookInput>;
export type UpdateWebhookInput = z.infer<typeof updateWebhookInput>;

/**
 * The body of every webhook request: `timestamp` is the change's commit time (ISO-8601), `data` the
 * public ApiKey (or the wallet's limits) and what changed. Never a secret, hash or session.
 */
export interface WebhookPayload {
  type: WebhookMessageType;
  timestamp: string;
  data: Record<string, unknown>;
}
