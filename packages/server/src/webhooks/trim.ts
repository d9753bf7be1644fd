import { z } from "zod";
import type { RawQuery } from "../db/raw.js";

/** Why a dropped delivery was never sent, as its delivery log shows it. */
export function droppedReason(maxUndelivered: number): string {
  return `dropped: the endpoint held more than ${maxUndelivered.toLocaleString("en-US")} undelivered messages`;
}

// Endpoints past the bound, then their oldest pending rows beyond it, skipping rows another instance
// holds; `webhook_deliveries_endpoint_due_idx` answers both (pending rows by endpoint).
const TRIM_SQL = `with over as (
  select webhook_id, count(*) - $1::int as excess from webhook_deliveries
  where status = 'pending' group by webhook_id having count(*) > $1::int
), doomed as (
  select d.id from over o cross join lateral (
    select id from webhook_deliveries
    where webhook_id = o.webhook_id and status = 'pending'
    order by id limit o.excess
    for update skip locked
  ) d
)
update webhook_deliveries d set status = 'dropped', next_attempt_at = null, last_response = $2::text
from doomed where d.id = doomed.id
returning d.id`;

/**
 * Drops each endpoint's oldest undelivered deliveries beyond `maxUndelivered` (docs/webhooks.md,
 * "Fairness"): status `dropped`, the reason in the delivery log, never sent. Returns how many.
 */
export async function dropOverflow(query: RawQuery, maxUndelivered: number): Promise<number> {
  const rows = await query(TRIM_SQL, [String(maxUndelivered), droppedReason(maxUndelivered)]);
  return z.array(z.unknown()).parse(rows).length;
}
