import { type Placeholder, type SQL, sql } from "drizzle-orm";
import { webhookDeliveries, webhookMessages, webhooks } from "../db/schema/index.js";
import type { WebhookEventType } from "../schemas/webhook.js";

/** A value of the enclosing statement: a fragment, or a placeholder of its prepared query. */
type Value = SQL | Placeholder;

/** The values of one outbox message: parameters or placeholders of the enclosing statement. */
export interface OutboxValues {
  /** `msg_` + a ULID (message-id.ts). */
  messageId: Value;
  wallet: Value;
  keyId: Value;
  /** The JSON text of the whole body `{ type, timestamp, data }`. */
  payload: Value;
  /** The change's time (ISO text). */
  at: Value;
}

/**
 * Two CTEs, `wm` and `wd`, that put one `type` message in the outbox for each row `from` (a CTE of
 * the same statement: the change) yields, with a delivery per enabled endpoint of the wallet
 * subscribed to `type`; nothing when there is none. enqueue.ts's statement does the same on its own;
 * this form goes inside a statement that makes the change (the create's insert-under-cap.ts), whose
 * prepared query takes placeholders, so a refused create writes no message.
 */
export function outboxCtes(type: WebhookEventType, values: OutboxValues, from: string): SQL {
  const subscribed = sql`${webhooks.wallet} = ${values.wallet}::text and ${webhooks.enabled} and ${type}::text = any(${webhooks.events})`;
  return sql`wm as (insert into ${webhookMessages} (id, wallet, type, key_id, payload, created_at)
    select ${values.messageId}::text, ${values.wallet}::text, ${type}::text, ${values.keyId}::text, ${values.payload}::jsonb, ${values.at}::timestamptz
    from ${sql.identifier(from)} where exists (select 1 from ${webhooks} where ${subscribed})
    returning id),
  wd as (insert into ${webhookDeliveries} (message_id, webhook_id) select wm.id, ${webhooks.id} from wm cross join ${webhooks} where ${subscribed})`;
}
