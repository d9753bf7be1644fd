import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "@keyport/server/schemas";

// A Record over the server's event types: one added there fails this typecheck until it has words here.
const EVENT_TYPE_WORDS: Record<WebhookEventType, string> = {
  "key.created": "Key created",
  "key.updated": "Key updated",
  "key.rolled": "Key rolled",
  "key.revoked": "Key revoked",
  "key.leaked": "Key found in public",
  "key.expiring": "Key expiring soon",
  "key.expired": "Key expired",
  "credits.low": "Credits low",
  "credits.exhausted": "Credits exhausted",
  "credits.topped_up": "Credits topped up",
  "limits.updated": "Wallet-wide limit changed",
  "webhook.disabled": "Another endpoint disabled",
  "wallet.suspended": "Wallet suspended",
  "wallet.unsuspended": "Wallet suspension lifted",
  "wallet.plan_changed": "Plan changed",
};

/**
 * A webhook event type in words ("Key created"); the test event is "Test event"; anything newer keeps
 * its name. Shared by the webhooks views and the activity list (which names an endpoint's events).
 */
export function describeEventType(type: string): string {
  if (type === "webhook.test") return "Test event";
  const known = WEBHOOK_EVENT_TYPES.find((event) => event === type);
  return known === undefined ? type : EVENT_TYPE_WORDS[known];
}
