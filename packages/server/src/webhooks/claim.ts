import { z } from "zod";
import type { RawQuery } from "../db/raw.js";

/** A claim holds a delivery this long: more than a send's 10 s deadline, so it lapses only when its process died. */
export const CLAIM_LEASE_MS = 30_000;

const claimedRow = z.object({
  id: z.string(),
  attempts: z.number().int(),
  message_id: z.string(),
  body: z.string(),
  webhook_id: z.string(),
  wallet: z.string(),
  url: z.string(),
  enabled: z.boolean(),
  secret: z.string(),
  previous_secret: z.string().nullable(),
  previous_secret_expires_at: z.date().nullable(),
});

/** A delivery this instance now holds, with what sending it needs. */
export type ClaimedDelivery = z.infer<typeof claimedRow>;

// Due rows oldest first, skipping rows another instance is claiming; each is held by pushing its
// next attempt past the lease and counted as an attempt before it is sent, so a process killed
// mid-send leaves it to be sent once more when the lease lapses (docs/webhooks.md, "Delivery").
// `payload::text` is the same bytes on every attempt: the body the signature covers.
const CLAIM_SQL = `with due as (
  select id from webhook_deliveries
  where status = 'pending' and next_attempt_at <= $1::timestamptz
  order by next_attempt_at
  limit $3::int
  for update skip locked
), claimed as (
  update webhook_deliveries d set next_attempt_at = $2::timestamptz, attempts = d.attempts + 1
  from due where d.id = due.id
  returning d.id, d.attempts, d.message_id, d.webhook_id
)
select c.id::text as id, c.attempts, c.message_id, m.payload::text as body, w.id as webhook_id, w.wallet,
  w.url, w.enabled, w.secret, w.previous_secret, w.previous_secret_expires_at
from claimed c
join webhook_messages m on m.id = c.message_id
join webhooks w on w.id = c.webhook_id`;

/**
 * Claims up to `limit` deliveries due at `now` (the injected clock's time, not the database's, so
 * tests drive the schedule) in one statement, using `webhook_deliveries_due_idx`.
 */
export async function claimDueDeliveries(
  query: RawQuery,
  now: Date,
  limit: number,
): Promise<ClaimedDelivery[]> {
  const lease = new Date(now.getTime() + CLAIM_LEASE_MS);
  const rows = await query(CLAIM_SQL, [now.toISOString(), lease.toISOString(), String(limit)]);
  return z.array(claimedRow).parse(rows);
}
