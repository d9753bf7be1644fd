import { type SQL, sql } from "drizzle-orm";
import { webhookDeliveries, webhookMessages, webhooks } from "../db/schema/index.js";
import { isDeploymentEvent } from "../schemas/operator-webhooks.js";
import type { OutboxEventType, WebhookPayload } from "../schemas/webhook.js";
import { newMessageId } from "./message-id.js";
import { OPERATOR_OWNER } from "./owner.js";

/** One event to send to the wallet's subscribed endpoints (and, for a deployment event, the operator's). */
export interface WebhookEvent {
  /** The wallet it is about (its endpoints' owner); `operator` for the operator's own endpoints' events. */
  wallet: string;
  type: OutboxEventType;
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
 * taken). A deployment event (`payment.settled`, `wallet.suspended`, `wallet.unsuspended`, `wallet.plan_changed`,
 * `key.leaked`: docs/operator.md#webhooks) also goes to the operator's endpoints subscribed to it; for
 * any other type the statement is the wallet's alone. Run it with the transaction (or inside the statement) that makes the change, so a change
 * that rolls back sends nothing and one that commits is sent even if the process dies right after.
 * @example await tx.execute(enqueueWebhookSql({ wallet, type: "key.revoked", keyId, at: now, data }));
 */
export function enqueueWebhookSql(event: WebhookEvent): SQL {
  const id = newMessageId(event.at);
  const payload: WebhookPayload = { type: event.type, timestamp: event.at.toISOString(), data: event.data };
  const owners = isDeploymentEvent(event.type)
    ? sql`${webhooks.wallet} in (${event.wallet}::text, ${OPERATOR_OWNER}::text)`
    : sql`${webhooks.wallet} = ${event.wallet}`;
  const subscribed = sql`${owners} and ${webhooks.enabled} and ${event.type}::text = any(${webhooks.events})`;
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
