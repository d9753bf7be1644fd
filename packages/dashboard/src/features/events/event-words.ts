import type { RouterOutputs } from "@keyport/server";
import { z } from "zod";
import { formatDuration } from "../../lib/duration";
import { formatCount, formatDateTime } from "../../lib/format";
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

const LABELS: Record<string, string> = {
  name: "Name",
  expiresAt: "Expiry",
  rateLimit: "Rate limit",
  permissions: "Permissions",
  credits: "Credits",
  meta: "Metadata",
  allowedIps: "Allowed IP addresses",
  rolledTo: "New key",
  revokedAt: "Revoked",
  gracePeriodSeconds: "Grace period",
  url: "Found at",
  source: "Reported by",
};

/**
 * The event's changes as lines of words: `Rate limit: 10 / 60 s`, `Permissions: a, b`. Key ids in
 * `rolledTo` are shown by name when `keyNames` knows them. A session's `expiresAt` reads "Session ends";
 * a revocation still ahead of `now` (a roll's grace) reads "Revokes at", one past "Revoked".
 */
export function describeChanges(
  event: KeyEvent,
  keyNames: ReadonlyMap<string, string>,
  now: Date = new Date(),
): ChangeLine[] {
  if (event.action === "limits.updated") return describeLimitChange(event.changes);
  if (event.action === "key.topped_up") return describeTopUp(event.changes);
  // The stored JSON keeps no field order (PostgreSQL's jsonb sorts keys): show them in the dialogs' order.
  const entries = Object.entries(event.changes).sort(([a], [b]) => fieldRank(a) - fieldRank(b));
  return entries.map(([field, value]) => {
    const label =
      field === "expiresAt" && event.action === "session.created"
        ? "Session ends"
        : field === "revokedAt" && isAfter(value, now)
          ? "Revokes at"
          : (LABELS[field] ?? field);
    return { label, value: describeValue(field, value, keyNames) };
  });
}

const FIELD_ORDER = Object.keys(LABELS);

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
    return Object.entries(changes).map(([field, value]) => ({ label: field, value: JSON.stringify(value) }));
  }
  return [
    { label: "Amount", value: `${parsed.data.amount} USDC` },
    { label: "Credits added", value: formatCount(parsed.data.credits) },
    { label: "Payer", value: parsed.data.payer },
    { label: "Transaction", value: parsed.data.transaction },
  ];
}

function isAfter(value: unknown, now: Date): boolean {
  const time = isoTime.safeParse(value);
  return time.success && time.data !== null && new Date(time.data).getTime() > now.getTime();
}

function fieldRank(field: string): number {
  const rank = FIELD_ORDER.indexOf(field);
  return rank === -1 ? FIELD_ORDER.length : rank;
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
    case "gracePeriodSeconds":
      if (typeof value === "number") return value === 0 ? "none" : formatDuration(value * 1000);
      break;
  }
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The key an event is about, by name when known: `“billing” (key_7dG…)`, or null for session events. */
export function describeKey(keyId: string | null, keyNames: ReadonlyMap<string, string>): string | null {
  if (keyId === null) return null;
  const name = keyNames.get(keyId);
  return name === undefined ? keyId : `“${name}”`;
}
