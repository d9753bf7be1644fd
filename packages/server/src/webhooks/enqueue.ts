import { type SQL, sql } from "drizzle-orm";
import { webhookDeliveries, webhookMessages, webhooks } from "../db/schema/index.js";
import type { WebhookEventType, WebhookPayload } from "../schemas/webhook.js";
import { newMessageId } from "./message-id.js";

/** One event to send to the wallet's subscribed endpoints. */
export interface WebhookEvent {
  wallet: string;
  type: WebhookEventType;
  /** The key it is about; null for `limits.updated`. */
  keyId: string | null;
  /** The change's commit time: the payload's `timestamp`. */
  at: Date;
  /** The public ApiKey (or the limits) and what changed: never a secret, hash or session. */
  data: Record<string, unknown>;
  /** Set for events several instances may produce (sweeps, thresholds): the event exists once. */
  dedupeKey?: string;
}

/**
 * The statement that puts `event` in the outbox: a message row and one delivery per enabled endpoint
 * of the wallet subscribed to its type, or nothing when there is none (or the dedupe key was
 * taken). Run it with the transaction (or inside the statement) that makes the change, so a change
 * that rolls back sends nothing and one that commits is sent even if the process dies right after.
 * @example await tx.execute(enqueueWebhookSql({ wallet, type: "key.revoked", keyId, at: now, data }));
 */
export function enqueueWebhookSql(event: WebhookEvent): SQL {
  const id = newMessageId(event.at);
  const payload: WebhookPayload = { type: event.type, timestamp: event.at.toISOString(), data: event.data };
  const subscribed = sql`${webhooks.wallet} = ${event.wallet} and ${webhooks.enabled} and ${event.type}::text = any(${webhooks.events})`;
  return sql`with m as (
    insert into ${webhookMessages} (id, wallet, type, key_id, payload, created_at, dedupe_key)
    select ${id}::text, ${event.wallet}::text, ${event.type}::text, ${event.keyId}::text, ${JSON.stringify(payload)}::jsonb, ${event.at.toISOString()}::timestamptz, ${event.dedupeKey ?? null}::text
    where exists (select 1 from ${webhooks} where ${subscribed})
    on conflict (dedupe_key) do nothing
    returning id
  )
  insert into ${webhookDeliveries} (message_id, webhook_id)
  select m.id, ${webhooks.id} from m cross join ${webhooks} where ${subscribed}`;
}
