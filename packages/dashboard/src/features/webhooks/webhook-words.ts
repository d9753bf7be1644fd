import type { RouterOutputs } from "@keyport/server";
import { MAX_WEBHOOKS_PER_WALLET, WEBHOOK_EVENT_TYPES, type WebhookEventType } from "@keyport/server/schemas";
import { describeEventType } from "../../lib/event-type-words";

/** A webhook endpoint as `webhooks.list` returns it (never its secret). */
export type Webhook = RouterOutputs["webhooks"]["list"]["webhooks"][number];

/** One delivery of a message to an endpoint, as `webhooks.deliveries` returns it. */
export type WebhookDelivery = RouterOutputs["webhooks"]["deliveries"]["deliveries"][number];

/** An event type in words ("Key created"); see lib/event-type-words.ts. */
export { describeEventType };

/** The groups the "Add endpoint" dialog shows its event checkboxes in, in this order. */
export const EVENT_GROUPS: readonly { label: string; events: readonly WebhookEventType[] }[] = [
  { label: "Keys", events: WEBHOOK_EVENT_TYPES.filter((event) => event.startsWith("key.")) },
  { label: "Credits", events: WEBHOOK_EVENT_TYPES.filter((event) => event.startsWith("credits.")) },
  { label: "Limits", events: WEBHOOK_EVENT_TYPES.filter((event) => event.startsWith("limits.")) },
  { label: "Wallet", events: WEBHOOK_EVENT_TYPES.filter((event) => event.startsWith("wallet.")) },
  { label: "Endpoints", events: WEBHOOK_EVENT_TYPES.filter((event) => event.startsWith("webhook.")) },
];

/** The subscribed events in words, "All events" when it is every one. */
export function describeEvents(events: readonly WebhookEventType[]): string {
  if (WEBHOOK_EVENT_TYPES.every((event) => events.includes(event))) return "All events";
  return events.map((event) => describeEventType(event)).join(", ");
}

/** Whether the endpoint receives events, and if not, why, in words. */
export function describeWebhookState(webhook: Pick<Webhook, "enabled" | "disabledReason">): string {
  if (webhook.enabled) return "Enabled";
  switch (webhook.disabledReason) {
    case "gone":
      return "Disabled: the endpoint answered 410 Gone";
    case "failing":
      return "Disabled after 3 days of failed deliveries";
    default:
      return "Disabled by you";
  }
}

/** A delivery's status in words: a pending one that was tried already is being retried. */
export function describeDeliveryStatus(delivery: Pick<WebhookDelivery, "status" | "attempts">): string {
  if (delivery.status === "succeeded") return "Delivered";
  if (delivery.status === "failed") return "Failed";
  if (delivery.status === "dropped") return "Dropped";
  return delivery.attempts > 0 ? "Retrying" : "Pending";
}

/** The number of endpoints at which the view warns ahead of the cap (one short of it). */
export function webhookCapNotice(count: number, cap: number): "near" | "full" | null {
  if (count >= cap) return "full";
  return count >= cap - 1 ? "near" : null;
}

/** The most endpoints a wallet may have: the server's own bound (an eleventh is 409). */
export const MAX_WEBHOOKS = MAX_WEBHOOKS_PER_WALLET;
