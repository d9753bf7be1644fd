import { z } from "zod";
import { keyId, nextCursor, pageCursor, pageLimit, timestamp, walletInput } from "./common.js";

/** Every action the audit trail records (the table's CHECK constraint holds the same list). */
export const KEY_EVENT_ACTIONS = [
  "key.created",
  "key.updated",
  "key.rolled",
  "key.revoked",
  "key.leaked",
  "session.created",
  "session.ended",
  "limits.updated",
  "key.topped_up",
  "webhook.created",
  "webhook.updated",
  "webhook.deleted",
  "webhook.disabled",
  "wallet.suspended",
  "wallet.unsuspended",
  "wallet.plan_changed",
] as const;

export type KeyEventAction = (typeof KEY_EVENT_ACTIONS)[number];

/** What an event records. */
export const keyEventAction = z.enum(KEY_EVENT_ACTIONS);

/** One audit event as events.list returns it. */
export const keyEvent = z
  .object({
    id: z.string().meta({ description: "Event id (a decimal number, larger for newer events)" }),
    action: keyEventAction,
    keyId: keyId
      .nullable()
      .meta({ description: "The key acted on; null for session and wallet-limit events" }),
    at: timestamp,
    changes: z.record(z.string(), z.unknown()).meta({
      description:
        'Field names and their new public values (times as ISO-8601 strings): key.created {name, expiresAt, rateLimit}; key.rolled {rolledTo, revokedAt, gracePeriodSeconds}; key.revoked {revokedAt}; key.leaked {url, source, revokedAt} (url null for a self-report); session.created {expiresAt}; session.ended {}; limits.updated {rateLimit, previousRateLimit} (the wallet-wide limit now and before, each {limit, windowSeconds} or null when none); key.topped_up {amount, credits, payer, transaction} (amount in whole tokens as sent, credits added, the paying address, the settlement\'s transaction hash). webhook.created {webhookId, url, events, description}; webhook.updated {webhookId, and each changed field: url, events, description, enabled, or secretRotated: true with previousSecretExpiresAt}; webhook.deleted {webhookId, url}; webhook.disabled {webhookId, reason, url} (reason gone or failing); wallet.plan_changed {actor, planId, previousPlanId, paidUntil} (actor "operator"). Never a secret, hash, session token, message or signature.',
    }),
  })
  .meta({ id: "KeyEvent" });

export const listEventsInput = z.object({
  wallet: walletInput,
  limit: pageLimit,
  cursor: pageCursor,
  keyId: keyId.optional().meta({ description: "Only this key's events" }),
  action: keyEventAction.optional().meta({ description: "Only events of this action" }),
});

export const listEventsOutput = z.object({
  events: z.array(keyEvent),
  nextCursor,
});

export type KeyEvent = z.infer<typeof keyEvent>;
