import type { EventChanges } from "../events/changes.js";
import type { OutboxEventType } from "../schemas/webhook.js";
import type { WebhookPatch } from "./webhook-service.js";

// What the webhook.* audit events say (docs/api.md, KeyEvent): the endpoint and its public fields.
// No parameter takes a secret, so none can reach the trail; a rotation says only that it happened.

/** `webhook.created`. */
export function webhookCreatedChanges(webhook: {
  id: string;
  url: string;
  events: OutboxEventType[];
  description: string | null;
}): EventChanges {
  return {
    webhookId: webhook.id,
    url: webhook.url,
    events: webhook.events,
    description: webhook.description,
  };
}

/** `webhook.updated` by a PATCH: each field it carried, with its new value. */
export function webhookUpdatedChanges(id: string, patch: WebhookPatch): EventChanges {
  const changes: EventChanges = { webhookId: id };
  if (patch.url !== undefined) changes.url = patch.url;
  if (patch.events !== undefined) changes.events = patch.events;
  if (patch.description !== undefined) changes.description = patch.description;
  if (patch.enabled !== undefined) changes.enabled = patch.enabled;
  return changes;
}

/** `webhook.updated` by a rotation. */
export function webhookRotatedChanges(id: string, previousSecretExpiresAt: Date): EventChanges {
  return {
    webhookId: id,
    secretRotated: true,
    previousSecretExpiresAt: previousSecretExpiresAt.toISOString(),
  };
}

/** `webhook.deleted`. */
export function webhookDeletedChanges(webhook: { id: string; url: string }): EventChanges {
  return { webhookId: webhook.id, url: webhook.url };
}
