import type { RouterOutputs } from "@keyport/server";
import { z } from "zod";
import { formatDuration } from "../../lib/duration";
import { describeEventType } from "../../lib/event-type-words";
import { checksummed, formatCount, formatDateTime } from "../../lib/format";
import { formatCredits, formatPermissions } from "../../lib/policy-words";
import { describeRateLimit, formatRateLimit } from "../../lib/rate-limit";

/** One audit event as `events.list` returns it. */
export type KeyEvent = RouterOutputs["events"]["list"]["events"][number];

const ACTIONS: Record<KeyEvent["action"], string> = {
  "key.created": "Key created",
  "key.updated": "Key updated",
  "key.rolled": "Key rolled",
  "key.revoked": "Key revoked",
  "key.leaked": "Key found in public and revoked",
  "session.created": "Signed in",
  "session.ended": "Signed out",
  "limits.updated": "Wallet-wide limit changed",
  "key.topped_up": "Credits topped up",
  "webhook.created": "Webhook endpoint added",
  "webhook.updated": "Webhook endpoint changed",
  "webhook.deleted": "Webhook endpoint deleted",
  "webhook.disabled": "Webhook endpoint disabled",
  "wallet.suspended": "Wallet suspended by the operator",
  "wallet.unsuspended": "Wallet suspension lifted by the operator",
  "wallet.plan_changed": "Plan changed",
};

/** The action in words: "Key created", "Signed in" (the action filter's options). */
export function describeAction(action: KeyEvent["action"]): string {
  return ACTIONS[action];
}

/**
 * The event's headline: its action in words, and for a wallet-limit change the limit now in force,
 * "Wallet-wide limit set to 100 per minute" or "Wallet-wide limit removed".
 */
export function describeEvent(event: KeyEvent): string {
  if (event.action !== "limits.updated") return describeAction(event.action);
  const now = rateLimit.safeParse(event.changes.rateLimit);
  if (!now.success) return describeAction(event.action);
  return now.data === null
    ? "Wallet-wide limit removed"
    : `Wallet-wide limit set to ${describeRateLimit(now.data)}`;
}

/** One changed field as the list shows it. */
export interface ChangeLine {
  label: string;
  value: string;
  /** True for a value people copy whole (a transaction hash): the list puts a Copy button beside it. */
  copyable?: true;
}

// `changes` is JSON the server wrote (times as ISO strings): each known field is read by its shape,
// and anything else is shown as its JSON, so a field added later is still visible.
const isoTime = z.iso.datetime({ offset: true }).nullable();
const rateLimit = z.object({ limit: z.number(), windowSeconds: z.number() }).nullable();
const credits = z
  .object({
    remaining: z.number(),
    refill: z.object({ interval: z.enum(["daily", "monthly"]), amount: z.number() }).nullable(),
  })
  .nullable();
const stringList = z.array(z.string());
const namedLimits = z.array(
  z.object({ name: z.string(), limit: z.number(), windowSeconds: z.number(), autoApply: z.boolean() }),
);

/**
 * Whether an event's `rateLimits` says nothing its `rateLimit` line does not: no limits, or only the one
 * named `default` applied to every verification (what `rateLimit` always meant).
 */
function onlyTheDefaultLimit(value: unknown): boolean {
  const parsed = namedLimits.safeParse(value);
  if (!parsed.success) return false;
  const [first, ...rest] = parsed.data;
  return first === undefined || (rest.length === 0 && first.name === "default" && first.autoApply);
}

/** Named limits in words: "default 100 / 60 s, tokens 200,000 / 60 s (when asked)". */
function describeNamedLimits(value: unknown): string | null {
  const parsed = namedLimits.safeParse(value);
  if (!parsed.success) return null;
  return parsed.data
    .map((limit) => `${limit.name} ${formatRateLimit(limit)}${limit.autoApply ? "" : " (when asked)"}`)
    .join(", ");
}

// Each kind of event has its own words for its fields: a webhook endpoint's `url` is where it receives
// events, a leaked key's where it was found. Their order is the dialogs' order.
const KEY_LABELS: Record<string, string> = {
  name: "Name",
  expiresAt: "Expiry",
  rateLimit: "Rate limit",
  rateLimits: "Rate limits",
  permissions: "Permissions",
  credits: "Credits",
  meta: "Metadata",
  allowedIps: "Allowed IP addresses",
  rolledTo: "New key",
  revokedAt: "Revoked",
  gracePeriodSeconds: "Grace period",
};
const LEAK_LABELS: Record<string, string> = { revokedAt: "Revoked", url: "Found at", source: "Reported by" };
const WEBHOOK_LABELS: Record<string, string> = {
  url: "Endpoint URL",
  events: "Events",
  description: "Description",
  enabled: "Deliveries",
  secretRotated: "Signing secret",
  previousSecretExpiresAt: "Previous secret accepted until",
  reason: "Why",
  webhookId: "Endpoint id",
};

// A suspension by the deployment's operator (docs/operator.md#suspension): why, and by whom in
// general ("operator"): the wallet never learns which operator acted.
const WALLET_LABELS: Record<string, string> = { reason: "Why", actor: "By" };

function labelsFor(action: KeyEvent["action"]): Record<string, string> {
  if (action === "key.leaked") return LEAK_LABELS;
  if (action.startsWith("wallet.")) return WALLET_LABELS;
  if (action.startsWith("webhook.")) return WEBHOOK_LABELS;
  return KEY_LABELS;
}

/** A field no table knows yet, in words: `previousLimit` reads "Previous limit". */
function fieldWords(field: string): string {
  const words = field
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_.]+/g, " ")
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The event's changes as lines of words: `Rate limit: 10 / 60 s`, `Permissions: a, b`. Key ids in
 * `rolledTo` are shown by name when `keyNames` knows them. A session's `expiresAt` reads "Session ends";
 * a revocation still ahead of `now` (a roll's grace) reads "Revokes at", one past "Revoked". Each kind
 * of event words its own fields (a webhook endpoint's URL is its "Endpoint URL"); a field no table
 * knows is named in words and a list is joined, never shown as a raw name or a JSON array.
 */
export function describeChanges(
  event: KeyEvent,
  keyNames: ReadonlyMap<string, string>,
  now: Date = new Date(),
): ChangeLine[] {
  if (event.action === "limits.updated") return describeLimitChange(event.changes);
  if (event.action === "key.topped_up") return describeTopUp(event.changes);
  const labels = labelsFor(event.action);
  const order = Object.keys(labels);
  const rank = (field: string) => (order.indexOf(field) === -1 ? order.length : order.indexOf(field));
  // The stored JSON keeps no field order (PostgreSQL's jsonb sorts keys): show them in the dialogs' order.
  const entries = Object.entries(event.changes)
    .filter(([field, value]) => field !== "rateLimits" || !onlyTheDefaultLimit(value))
    .sort(([a], [b]) => rank(a) - rank(b));
  return entries.map(([field, value]) => {
    const label =
      field === "expiresAt" && event.action === "session.created"
        ? "Session ends"
        : field === "revokedAt" && isAfter(value, now)
          ? "Revokes at"
          : (labels[field] ?? fieldWords(field));
    const words = event.action.startsWith("webhook.")
      ? describeWebhookValue(field, value)
      : describeValue(field, value, keyNames);
    return { label, value: words };
  });
}

/** A webhook endpoint's changed field in words. */
function describeWebhookValue(field: string, value: unknown): string {
  switch (field) {
    case "events": {
      const parsed = stringList.safeParse(value);
      if (parsed.success) return parsed.data.map(describeEventType).join(", ");
      break;
    }
    case "description":
      if (value === null) return "none";
      break;
    case "enabled":
      if (typeof value === "boolean") return value ? "resumed" : "paused";
      break;
    case "secretRotated":
      if (value === true) return "rotated";
      break;
    case "previousSecretExpiresAt": {
      const time = isoTime.safeParse(value);
      if (time.success) return formatDateTime(time.data === null ? null : new Date(time.data), "now");
      break;
    }
    case "reason":
      if (value === "gone") return "the endpoint answered 410 Gone";
      if (value === "failing") return "deliveries failed for 3 days";
      break;
  }
  return plainValue(value);
}

/** Any other value in words: a string as it is, a list joined, anything else as its JSON. */
function plainValue(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null) return "none";
  const list = z.array(z.union([z.string(), z.number()])).safeParse(value);
  if (list.success) return list.data.length === 0 ? "none" : list.data.join(", ");
  return JSON.stringify(value);
}

/** A wallet-limit change: the headline says the new limit, the line the one before ("Before: none"). */
function describeLimitChange(changes: KeyEvent["changes"]): ChangeLine[] {
  const before = rateLimit.safeParse(changes.previousRateLimit);
  if (!before.success) return [];
  return [{ label: "Before", value: describeRateLimit(before.data) }];
}

const topUp = z.object({
  amount: z.string(),
  credits: z.number(),
  payer: z.string(),
  transaction: z.string(),
});

/** A top-up: the amount paid, the credits it added, who paid and the settlement's transaction. */
function describeTopUp(changes: KeyEvent["changes"]): ChangeLine[] {
  const parsed = topUp.safeParse(changes);
  if (!parsed.success) {
    return Object.entries(changes).map(([field, value]) => ({
      label: fieldWords(field),
      value: plainValue(value),
    }));
  }
  return [
    { label: "Amount", value: `${parsed.data.amount} USDC` },
    { label: "Credits added", value: formatCount(parsed.data.credits) },
    { label: "Payer", value: checksummed(parsed.data.payer) },
    { label: "Transaction", value: parsed.data.transaction, copyable: true },
  ];
}

function isAfter(value: unknown, now: Date): boolean {
  const time = isoTime.safeParse(value);
  return time.success && time.data !== null && new Date(time.data).getTime() > now.getTime();
}

function describeValue(field: string, value: unknown, keyNames: ReadonlyMap<string, string>): string {
  switch (field) {
    case "name":
      if (typeof value === "string") return `“${value}”`;
      break;
    case "expiresAt":
    case "revokedAt": {
      const time = isoTime.safeParse(value);
      if (time.success) return formatDateTime(time.data === null ? null : new Date(time.data), "never");
      break;
    }
    case "rateLimit": {
      const parsed = rateLimit.safeParse(value);
      if (parsed.success) return formatRateLimit(parsed.data);
      break;
    }
    case "rateLimits": {
      const words = describeNamedLimits(value);
      if (words !== null) return words;
      break;
    }
    case "credits": {
      const parsed = credits.safeParse(value);
      if (parsed.success) return formatCredits(parsed.data);
      break;
    }
    case "permissions": {
      const parsed = stringList.safeParse(value);
      if (parsed.success) return formatPermissions(parsed.data, 10);
      break;
    }
    case "meta":
      return value === null ? "none" : JSON.stringify(value);
    case "allowedIps": {
      if (value === null) return "any address";
      const parsed = stringList.safeParse(value);
      if (parsed.success) return formatPermissions(parsed.data, 10);
      break;
    }
    case "rolledTo":
      if (typeof value === "string") return keyNames.get(value) ?? value;
      break;
    case "url":
      if (value === null) return "reported by its holder";
      break;
    case "source":
      if (value === "self-report") return "its holder";
      break;
    case "gracePeriodSeconds":
      if (typeof value === "number") return value === 0 ? "none" : formatDuration(value * 1000);
      break;
  }
  return plainValue(value);
}

/** The key an event is about, by name when known: `“billing” (key_7dG…)`, or null for session events. */
export function describeKey(keyId: string | null, keyNames: ReadonlyMap<string, string>): string | null {
  if (keyId === null) return null;
  const name = keyNames.get(keyId);
  return name === undefined ? keyId : `“${name}”`;
}
