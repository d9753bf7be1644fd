import { errorStatus } from "../../lib/errors";
import type { Webhook, WebhookEventType } from "./webhook-words";

/** The "Add endpoint" and "Edit" dialogs' inputs, as typed. */
export interface WebhookFields {
  url: string;
  events: readonly WebhookEventType[];
  description: string;
}

/** An input of the webhook form an error can sit beside (null: the form as a whole). */
export type WebhookFieldName = "url" | "events" | "description";

/** What is wrong, in words, and beside which input. */
export interface WebhookFieldError {
  field: WebhookFieldName | null;
  message: string;
}

/** What the form sends: `webhooks.create`'s fields without the wallet. */
export interface WebhookFormInput {
  url: string;
  events: WebhookEventType[];
  description?: string;
}

/** A new endpoint's form: nothing typed, nothing chosen. */
export const EMPTY_WEBHOOK_FIELDS: WebhookFields = { url: "", events: [], description: "" };

/** The edit form starts from the endpoint as it is. */
export function webhookFields(webhook: Webhook): WebhookFields {
  return { url: webhook.url, events: webhook.events, description: webhook.description ?? "" };
}

/**
 * Turns the form into the input to send, or every error found, in the form's order. Only what the page
 * can tell alone is checked here (a URL at all, one event at least); whether the server accepts the
 * address (https, a public host) is its call, and its 400 lands under the URL field (see `serverFieldError`).
 */
export function parseWebhookForm(
  fields: WebhookFields,
): { ok: true; input: WebhookFormInput } | { ok: false; errors: WebhookFieldError[] } {
  const errors: WebhookFieldError[] = [];
  const url = fields.url.trim();
  if (url === "") errors.push({ field: "url", message: "Enter the URL that receives the events." });
  else if (!URL.canParse(url))
    errors.push({ field: "url", message: "Enter a full URL, such as https://example.com/webhooks." });
  if (fields.events.length === 0) errors.push({ field: "events", message: "Choose at least one event." });
  if (errors.length > 0) return { ok: false, errors };
  const description = fields.description.trim();
  const input: WebhookFormInput = { url, events: [...fields.events] };
  if (description !== "") input.description = description;
  return { ok: true, input };
}

/**
 * Where a refused create or edit says why: the server's 400 names what it refused (nearly always the
 * URL: not https, a private address), so it sits under the field it is about; anything else is the
 * form's.
 */
export function serverFieldError(error: unknown, message: string): WebhookFieldError {
  if (errorStatus(error) !== 400) return { field: null, message };
  const lower = message.toLowerCase();
  if (lower.includes("description")) return { field: "description", message };
  if (lower.includes("event")) return { field: "events", message };
  return { field: "url", message };
}

/** The edit form's changes only: an unchanged field is not sent. Null when nothing changed. */
export function changedWebhookFields(
  webhook: Webhook,
  input: WebhookFormInput,
): { url?: string; events?: WebhookEventType[]; description?: string } | null {
  const changes: { url?: string; events?: WebhookEventType[]; description?: string } = {};
  if (input.url !== webhook.url) changes.url = input.url;
  const sameEvents =
    input.events.length === webhook.events.length && input.events.every((event) => webhook.events.includes(event));
  if (!sameEvents) changes.events = input.events;
  const description = input.description ?? "";
  if (description !== (webhook.description ?? "")) changes.description = description;
  return Object.keys(changes).length === 0 ? null : changes;
}
