/** The two credit events (docs/webhooks.md#credit-events). */
export type CreditEventType = "credits.low" | "credits.exhausted";

/** Where a credit event's row comes from, as SQL expressions of the statement it joins. */
export interface CreditEventSource {
  type: CreditEventType;
  /**
   * The CTE (or row source) of the balance after the spend: it exposes `allowance`, `purchased`,
   * `refill_interval`, `refill_amount`, `refilled_at` and `mark` (10 × the low threshold).
   */
  from: string;
  /** When the event exists (e.g. the threshold crossing); `true` for always. */
  where: string;
  /** SQL expressions: the key the event is about, the message id, the change's time (ISO text), the dedupe key. */
  keyId: string;
  messageId: string;
  at: string;
  dedupeKey: string;
}

/**
 * Two CTEs (`<name>_message`, `<name>_deliveries`, to follow a WITH) that put a credit event in the
 * webhook outbox, as webhooks/enqueue.ts does for events built in TypeScript: a message only when an
 * enabled endpoint of the key's wallet subscribes to the type, and a delivery to each. The payload
 * is built in SQL (keyport_public_key, migration 0015) because it is written by the spend's own
 * statement, whose balance TypeScript only learns afterwards. When `where` is false for every row,
 * neither CTE touches a table beyond the row source.
 * @example `with s as (update ... returning ...), ${creditEventCtes("low", source)} select ... from s`
 */
export function creditEventCtes(name: string, source: CreditEventSource): string {
  const subscribed = (alias: string, wallet: string) =>
    `${alias}.wallet = ${wallet} and ${alias}.enabled and '${source.type}' = any(${alias}.events)`;
  const threshold = source.type === "credits.low" ? "(src.mark / 10.0)::float8" : "null::float8";
  return `${name}_message as (
  insert into webhook_messages (id, wallet, type, key_id, payload, created_at, dedupe_key)
  select ${source.messageId}::text, k.wallet, '${source.type}', k.id, jsonb_build_object(
    'type', '${source.type}',
    'timestamp', ${source.at}::text,
    'data', jsonb_build_object(
      'key', keyport_public_key(k.id, ${source.at}::timestamptz,
        keyport_public_credits(src.allowance, src.purchased, src.refill_interval, src.refill_amount, src.refilled_at)),
      'credits', jsonb_build_object('remaining', src.allowance + src.purchased, 'purchased', src.purchased,
        'threshold', ${threshold}))), ${source.at}::timestamptz, ${source.dedupeKey}::text
  from ${source.from} src join api_keys k on k.id = ${source.keyId}::text
  where (${source.where}) and exists (select 1 from webhooks w where ${subscribed("w", "k.wallet")})
  on conflict (dedupe_key) do nothing
  returning id, wallet
), ${name}_deliveries as (
  insert into webhook_deliveries (message_id, webhook_id)
  select m.id, w.id from ${name}_message m join webhooks w on ${subscribed("w", "m.wallet")}
)`;
}
