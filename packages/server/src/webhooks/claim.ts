import { z } from "zod";
import type { RawQuery } from "../db/raw.js";

/** A claim holds a delivery this long: more than a send's 10 s deadline, so it lapses only when its process died. */
export const CLAIM_LEASE_MS = 30_000;

// drizzle's postgres.js setup makes the raw client return timestamptz as text, PGlite as a Date.
const timestamp = z.union([z.date(), z.string().transform((text) => new Date(text))]);

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
  previous_secret_expires_at: timestamp.nullable(),
});

/** A delivery this instance now holds, with what sending it needs. */
export type ClaimedDelivery = z.infer<typeof claimedRow>;

// Fair claiming (docs/webhooks.md, "Fairness"): endpoints with a due delivery and a free slot, the
// least busy in this instance first, then the one waiting longest, get one delivery each in turn (an
// endpoint holds at most `per_endpoint` sends, 1 while it is failing; a wallet at most `per_wallet`),
// so a wallet whose endpoints hang cannot take every slot. Each row is held by pushing its next attempt
// past the lease and counted as an attempt before it is sent, so a process killed mid-send leaves it
// to be sent once more when the lease lapses (docs/webhooks.md, "Delivery"). `payload::text` is the
// same bytes on every attempt: the body the signature covers. A new row's first attempt is stamped
// with the database's clock (the column default), retries with ours: a row is due by either, so a host
// clock behind the database's cannot hold new events back.
const CLAIM_SQL = `with recursive pending_endpoint as (
  -- The endpoints with a pending delivery, one index probe each (a skip scan of
  -- webhook_deliveries_endpoint_due_idx), rather than every endpoint or every pending row.
  (select webhook_id from webhook_deliveries where status = 'pending' order by webhook_id limit 1)
  union all
  select (select d.webhook_id from webhook_deliveries d
    where d.status = 'pending' and d.webhook_id > p.webhook_id order by d.webhook_id limit 1)
  from pending_endpoint p where p.webhook_id is not null
), busy_endpoint as (
  select * from unnest($6::text[], $7::text[]::int[]) as b(id, n)
), busy_wallet as (
  select * from unnest($8::text[], $9::text[]::int[]) as b(wallet, n)
), ready as (
  select w.id, w.wallet, coalesce(be.n, 0) as busy,
    (case when w.failing_since is null then $4::int else 1 end) - coalesce(be.n, 0) as free,
    $5::int - coalesce(bw.n, 0) as wallet_free
  from pending_endpoint pe
  join webhooks w on w.id = pe.webhook_id
  left join busy_endpoint be on be.id = w.id
  left join busy_wallet bw on bw.wallet = w.wallet
  cross join lateral (
    select d.next_attempt_at from webhook_deliveries d
    where d.webhook_id = w.id and d.status = 'pending' and d.next_attempt_at <= greatest($1::timestamptz, now())
    order by d.next_attempt_at limit 1
  ) oldest
  where (case when w.failing_since is null then $4::int else 1 end) > coalesce(be.n, 0)
    and $5::int > coalesce(bw.n, 0)
  order by busy, oldest.next_attempt_at
  limit $3::int
), offered as (
  select r.id as webhook_id, r.wallet, r.busy, r.wallet_free, d.id, d.next_attempt_at
  from ready r cross join lateral (
    select d.id, d.next_attempt_at from webhook_deliveries d
    where d.webhook_id = r.id and d.status = 'pending' and d.next_attempt_at <= greatest($1::timestamptz, now())
    order by d.next_attempt_at, d.id
    limit r.free
    for update skip locked
  ) d
), turns as (
  select o.*, row_number() over (partition by o.webhook_id order by o.next_attempt_at, o.id) as turn
  from offered o
), wallet_turns as (
  select t.*, row_number() over (partition by t.wallet order by t.busy + t.turn, t.next_attempt_at, t.id) as wallet_turn
  from turns t
), due as (
  select id from wallet_turns where wallet_turn <= wallet_free
  order by busy + turn, next_attempt_at, id
  limit $3::int
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

/** How many sends one claim may start, and where this instance's sends are under way. */
export interface ClaimSlots {
  /** Free send slots in this instance. */
  free: number;
  /** Most sends to one endpoint at once (an endpoint that is failing gets one). */
  perEndpoint: number;
  /** Most sends to one wallet's endpoints at once. */
  perWallet: number;
  /** Sends under way in this instance, by endpoint id. */
  busyEndpoints: ReadonlyMap<string, number>;
  /** Sends under way in this instance, by wallet. */
  busyWallets: ReadonlyMap<string, number>;
}

/** What {@link claimDueDeliveries} claims when nothing else is under way (tests, one-off claims). */
export function idleSlots(free: number): ClaimSlots {
  return { free, perEndpoint: free, perWallet: free, busyEndpoints: new Map(), busyWallets: new Map() };
}

/**
 * Claims up to `slots.free` deliveries due at `now` (the injected clock's time, so tests drive the
 * schedule; or the database's, when later) in one statement, fairly across endpoints and wallets
 * (see CLAIM_SQL), using `webhook_deliveries_endpoint_due_idx`.
 */
export async function claimDueDeliveries(
  query: RawQuery,
  now: Date,
  slots: ClaimSlots,
): Promise<ClaimedDelivery[]> {
  const lease = new Date(now.getTime() + CLAIM_LEASE_MS);
  const rows = await query(CLAIM_SQL, [
    now.toISOString(),
    lease.toISOString(),
    String(slots.free),
    String(slots.perEndpoint),
    String(slots.perWallet),
    [...slots.busyEndpoints.keys()],
    [...slots.busyEndpoints.values()].map(String),
    [...slots.busyWallets.keys()],
    [...slots.busyWallets.values()].map(String),
  ]);
  return z.array(claimedRow).parse(rows);
}
