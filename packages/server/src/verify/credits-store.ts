import type { RawQuery } from "../db/raw.js";
import { nextRefill, utcDayStart, utcMonthStart } from "../keys/refill-period.js";
import { creditEventCtes } from "../webhooks/credit-event-sql.js";
import { newMessageId } from "../webhooks/message-id.js";

/** What a spend or a read of a credit balance answers. */
export interface CreditsResult {
  /** Whether `cost` was spent (always true for a read that found enough). */
  ok: boolean;
  /**
   * What a verification can spend after this one: the allowance plus the purchased credits
   * (docs/verifying-keys.md#two-pools); 0 when the balance is gone.
   */
  remaining: number;
  /** The purchased credits in `remaining`. */
  purchased: number;
  /** When the next refill sets the allowance again (the next UTC day or month start); null without a refill rule. */
  refillAt: Date | null;
}

/**
 * The credit balances verification spends, exactly: in the database (below), or with REDIS_URL in
 * Redis (credits/redis-credits-store.ts), never cached in process.
 */
export interface CreditsStore {
  /**
   * Spends `cost` when the allowance (after any refill due at `atMs`) and the purchased credits
   * together hold it, the allowance first: one conditional UPDATE. With `keyId` (the key spending),
   * a spend that crosses the low threshold, or the first one refused since the balance last rose,
   * writes its webhook event in the same statement (docs/webhooks.md#credit-events).
   */
  spend(creditsId: string, cost: number, atMs: number, keyId?: string): Promise<CreditsResult>;
  /** Reads the balance at `atMs` (a refill due counts) and whether it holds `cost`, spending nothing. */
  read(creditsId: string, cost: number, atMs: number): Promise<CreditsResult>;
}

/**
 * The allowance at $2 (day start) / $3 (month start): a refill is due when the allowance was last set
 * before the current period began, and then it is the refill amount (refills set, not add, and never
 * touch the purchased credits).
 */
const PERIOD = `(case refill_interval when 'daily' then $2::timestamptz else $3::timestamptz end)`;
const DUE = `(refill_interval is not null and refilled_at < ${PERIOD})`;
const ALLOWANCE = `(case when ${DUE} then refill_amount else remaining end)`;

// Ten times the credits.low threshold: the larger of the refill amount and the last top-up.
const MARK = `greatest(coalesce(refill_amount, 0), coalesce(last_top_up, 0))`;
// What a credit event's payload reads from the balance (creditEventCtes).
const EVENT_ROW = `remaining as allowance, purchased, refill_interval, refill_amount, refilled_at`;
// $5 the spending key, $6 a message id, $7 the spend's time: used only when an event is written.
const EVENT_PARAMS = { keyId: "$5", messageId: "$6", at: "$7", dedupeKey: "null" };

// The allowance is spent first, the rest of the cost from the purchased credits. Every expression
// of a SET reads the row as it was, so both pools are computed from one snapshot under the row lock.
// A refill due starts a new period, so credits.exhausted may be sent again. The spend took exactly
// $4 after any refill, so the balance before it is the one after plus $4: credits.low is written
// when that crossed the threshold, which spends serialised on the row do once (docs/webhooks.md).
const SPEND = `with s as (update key_credits set remaining = greatest(${ALLOWANCE} - $4::bigint, 0),
purchased = purchased - greatest($4::bigint - ${ALLOWANCE}, 0),
refilled_at = case when ${DUE} then ${PERIOD} else refilled_at end,
exhausted_notified = exhausted_notified and not coalesce(${DUE}, false)
where id = $1 and ${ALLOWANCE} + purchased >= $4::bigint returning ${EVENT_ROW}, ${MARK} as mark),
${creditEventCtes("low", {
  type: "credits.low",
  from: "s",
  where:
    "(src.allowance + src.purchased) * 10 < src.mark and (src.allowance + src.purchased + $4::bigint) * 10 >= src.mark",
  ...EVENT_PARAMS,
})}
select allowance as remaining, purchased, refill_interval from s`;

// A refused spend reads the balance; the first refusal since the balance last rose (a refill due
// counts: it is applied then, as a spend would) also marks it and writes credits.exhausted. Later
// refusals match no row in the UPDATE: no write.
const REFUSED = `with x as (update key_credits set exhausted_notified = true, remaining = ${ALLOWANCE},
refilled_at = case when ${DUE} then ${PERIOD} else refilled_at end
where id = $1 and (not exhausted_notified or ${DUE}) and ${ALLOWANCE} + purchased < $4::bigint
returning ${EVENT_ROW}, 0::bigint as mark),
${creditEventCtes("exhausted", { type: "credits.exhausted", from: "x", where: "true", ...EVENT_PARAMS })}
select ${ALLOWANCE} as remaining, purchased, refill_interval from key_credits where id = $1`;
const READ = `select ${ALLOWANCE} as remaining, purchased, refill_interval from key_credits where id = $1`;
// The read after a refusal also says whether credits.exhausted is due, so only the first refusal
// of a period pays for REFUSED's UPDATE and its outbox CTEs; later ones cost what they always did.
const READ_REFUSED = `select ${ALLOWANCE} as remaining, purchased, refill_interval,
(not exhausted_notified or coalesce(${DUE}, false)) and ${ALLOWANCE} + purchased < $4::bigint as notify
from key_credits where id = $1`;

type Balance = Omit<CreditsResult, "ok">;

/** The balance and refill time a SPEND or READ row says, or null when there is no row. */
function balanceOf(rows: unknown[], atMs: number): Balance | null {
  const row = rows[0];
  if (typeof row !== "object" || row === null || !("remaining" in row) || !("purchased" in row)) return null;
  const interval = "refill_interval" in row ? row.refill_interval : null;
  const refillAt = interval === "daily" || interval === "monthly" ? nextRefill(interval, atMs) : null;
  const purchased = Number(row.purchased);
  return { remaining: Number(row.remaining) + purchased, purchased, refillAt };
}

/**
 * Credits over the database. A spend is one statement, so concurrent spends on one balance (from
 * any number of instances) serialise on its row and never overdraw it; a refill due is applied by
 * the same statement, so refills need no timer.
 * @example const credits = createCreditsStore(rawQuery); await credits.spend(record.creditsId, 1, Date.now());
 */
export function createCreditsStore(query: RawQuery): CreditsStore {
  function params(creditsId: string, atMs: number): string[] {
    return [creditsId, utcDayStart(atMs).toISOString(), utcMonthStart(atMs).toISOString()];
  }
  const store: CreditsStore = {
    async read(creditsId, cost, atMs) {
      const balance = balanceOf(await query(READ, params(creditsId, atMs)), atMs);
      if (balance === null) return { ok: cost === 0, remaining: 0, purchased: 0, refillAt: null };
      return { ok: balance.remaining >= cost, ...balance };
    },
    async spend(creditsId, cost, atMs, keyId) {
      // Spending nothing needs no row lock: a read answers the same.
      if (cost === 0) return store.read(creditsId, cost, atMs);
      const at = new Date(atMs);
      const args = [
        ...params(creditsId, atMs),
        String(cost),
        keyId ?? null,
        newMessageId(at),
        at.toISOString(),
      ];
      const spent = balanceOf(await query(SPEND, args), atMs);
      if (spent !== null) return { ok: true, ...spent };
      // Without a key there is no event to send: the plain read.
      let rows = await query(
        keyId === undefined ? READ : READ_REFUSED,
        [...params(creditsId, atMs), String(cost)].slice(0, keyId === undefined ? 3 : 4),
      );
      const [row] = rows;
      // REFUSED checks again under the row lock: of concurrent refusals, one writes the event.
      if (typeof row === "object" && row !== null && "notify" in row && row.notify === true) {
        rows = await query(REFUSED, args);
      }
      const balance = balanceOf(rows, atMs);
      if (balance === null) return { ok: false, remaining: 0, purchased: 0, refillAt: null };
      return { ...balance, ok: false };
    },
  };
  return store;
}
