import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "@keyport/server/schemas";
import { z } from "zod";
import { errorStatus } from "../../lib/errors";
import type { FormError, ParsedForm } from "../../ui/use-form-errors";
import type { Webhook } from "./webhook-words";

/** The "Add endpoint" and "Edit" dialogs' inputs, as typed. */
export interface WebhookFields {
  url: string;
  events: readonly WebhookEventType[];
  description: string;
}

/** An input of the webhook form an error can sit beside (null: the form as a whole). */
export type WebhookFieldName = "url" | "events" | "description";

/** What is wrong, in words, and beside which input. */
export type WebhookFieldError = FormError<WebhookFieldName>;

/** What the form sends: `webhooks.create`'s fields without the wallet. */
export interface WebhookFormInput {
  url: string;
  events: WebhookEventType[];
  description?: string;
}

/** A new endpoint's form: nothing typed, nothing chosen. */
export const EMPTY_WEBHOOK_FIELDS: WebhookFields = { url: "", events: [], description: "" };

/**
 * "Add endpoint" starts with the key events chosen (created, updated, rolled, revoked, found in
 * public, expiring, expired): what most endpoints are for, and one click from submitting.
 */
export const NEW_WEBHOOK_FIELDS: WebhookFields = {
  url: "",
  events: WEBHOOK_EVENT_TYPES.filter((event) => event.startsWith("key.")),
  description: "",
};

/** The edit form starts from the endpoint as it is. */
export function webhookFields(webhook: Webhook): WebhookFields {
  return { url: webhook.url, events: webhook.events, description: webhook.description ?? "" };
}

/**
 * Turns the form into the input to send, or every error found, in the form's order. Only what the page
 * can tell alone is checked here (a URL at all, one event at least); whether the server accepts the
 * address (https, a public host) is its call, and its 400 lands under the URL field (see `serverFieldErrors`).
 */
export function parseWebhookForm(fields: WebhookFields): ParsedForm<WebhookFormInput, WebhookFieldName> {
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

// A refused input's issues, as the server's error formatter sends them beside its one-sentence message
// ("Input validation failed"): read by shape and validated, like lib/errors.ts reads a status.
const withIssues = z.object({
  data: z.object({
    issues: z.array(z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() })),
  }),
});

const FIELD_NAMES: Record<WebhookFieldName, string> = {
  url: "The URL",
  events: "The events",
  description: "The description",
};

function fieldOf(name: unknown): WebhookFieldName | null {
  return name === "url" || name === "events" || name === "description" ? name : null;
}

/**
 * Where a refused create or edit says why, beside the field it is about: a 400 of the input's schema
 * names each field in its issues ("url": "must be an https URL"); the address policy's 400 is one
 * message about the URL ("url must not be a private address"). Anything else (409, 5xx) is the form's.
 */
export function serverFieldErrors(error: unknown, message: string): WebhookFieldError[] {
  if (errorStatus(error) !== 400) return [{ field: null, message }];
  const issues = withIssues.safeParse(error);
  if (issues.success && issues.data.data.issues.length > 0) {
    return issues.data.data.issues.map((issue) => {
      const field = fieldOf(issue.path[0]);
      return field === null
        ? { field: null, message: issue.message }
        : { field, message: `${FIELD_NAMES[field]} ${issue.message}.` };
    });
  }
  const lower = message.toLowerCase();
  if (lower.startsWith("description")) return [{ field: "description", message }];
  if (lower.startsWith("event")) return [{ field: "events", message }];
  return [{ field: "url", message: lower.startsWith("url ") ? `The URL ${message.slice(4)}.` : message }];
}

/** The edit form's changes only: an unchanged field is not sent. Null when nothing changed. */
export function changedWebhookFields(
  webhook: Webhook,
  input: WebhookFormInput,
): { url?: string; events?: WebhookEventType[]; description?: string } | null {
  const changes: { url?: string; events?: WebhookEventType[]; description?: string } = {};
  if (input.url !== webhook.url) changes.url = input.url;
  const sameEvents =
    input.events.length === webhook.events.length &&
    input.events.every((event) => webhook.events.includes(event));
  if (!sameEvents) changes.events = input.events;
  const description = input.description ?? "";
  if (description !== (webhook.description ?? "")) changes.description = description;
  return Object.keys(changes).length === 0 ? null : changes;
}
