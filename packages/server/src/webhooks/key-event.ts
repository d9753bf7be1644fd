import type { Tx } from "../db/database.js";
import type { ApiKeyRow, KeyCreditsRow } from "../db/schema/index.js";
import type { EventChanges } from "../events/changes.js";
import { type NewKeyEvent, recordEvent } from "../events/record-event.js";
import { loadCredits } from "../keys/key-credits.js";
import { toApiKey } from "../keys/status.js";
import type { WebhookEventType } from "../schemas/webhook.js";
import { enqueueWebhookSql } from "./enqueue.js";

/** The webhook side of a change: its type, the key it is about (null for the wallet's limits) and its data. */
export interface WebhookOfChange {
  type: WebhookEventType;
  keyId: string | null;
  data: Record<string, unknown>;
}

/**
 * The `data` of a key event (docs/webhooks.md, Events): the key as GET /api-keys/:wallet shows it
 * at `at` (never its hash) and what changed. `credits` is the key's balance row, when it has one.
 */
export function keyEventData(
  row: ApiKeyRow,
  credits: KeyCreditsRow | undefined,
  at: Date,
  changes: EventChanges,
): Record<string, unknown> {
  return { key: toApiKey(row, at, credits), changes };
}

/** The key's balance row read inside `tx` (the change's own view of it), or undefined for a key without credits. */
export async function creditsOfKey(tx: Tx, row: ApiKeyRow): Promise<KeyCreditsRow | undefined> {
  if (row.creditsId === null) return undefined;
  return (await loadCredits(tx, [row])).get(row.creditsId);
}

/**
 * Records `event` in the audit trail and puts its webhook in the outbox, both with `tx`, the
 * transaction making the change: a change that rolls back leaves neither, one that commits is
 * sent even if the process dies right after (docs/webhooks.md). The payload's timestamp is the
 * event's `at`, the time the change wrote.
 */
export async function recordEventWithWebhook(
  tx: Tx,
  event: NewKeyEvent,
  webhook: WebhookOfChange,
): Promise<void> {
  await recordEvent(tx, event);
  await tx.execute(enqueueWebhookSql({ wallet: event.wallet, at: event.at, ...webhook }));
}

/**
 * The usual case: a key event whose webhook has the same type and the key's data, read in `tx`.
 * @example await recordKeyEvent(tx, { wallet, keyId, action: "key.revoked", at: now, changes }, row);
 */
export async function recordKeyEvent(
  tx: Tx,
  event: NewKeyEvent & { action: "key.updated" | "key.revoked" },
  row: ApiKeyRow,
): Promise<void> {
  const credits = await creditsOfKey(tx, row);
  await recordEventWithWebhook(tx, event, {
    type: event.action,
    keyId: row.id,
    data: keyEventData(row, credits, event.at, event.changes),
  });
}
