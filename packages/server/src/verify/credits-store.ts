import type { RawQuery } from "../db/raw.js";
import { nextRefill, utcDayStart, utcMonthStart } from "../keys/refill-period.js";

/** What a spend or a read of a credit balance answers. */
export interface CreditsResult {
  /** Whether `cost` was spent (always true for a read that found enough). */
  ok: boolean;
  /** The balance after the spend, or now when nothing was spent; 0 when the balance is gone. */
  remaining: number;
  /** When the next refill sets the balance again (the next UTC day or month start); null without a refill rule. */
  refillAt: Date | null;
}

/**
 * The credit balances verification spends, exactly: in the database (below), or with REDIS_URL in
 * Redis (credits/redis-credits-store.ts), never cached in process.
 */
export interface CreditsStore {
  /** Spends `cost` when the balance (after any refill due at `atMs`) holds it: one conditional UPDATE. */
  spend(creditsId: string, cost: number, atMs: number): Promise<CreditsResult>;
  /** Reads the balance at `atMs` (a refill due counts) and whether it holds `cost`, spending nothing. */
  read(creditsId: string, cost: number, atMs: number): Promise<CreditsResult>;
}

/**
 * The balance at $2 (day start) / $3 (month start): a refill is due when the balance was last set
 * before the current period began, and then the balance is the refill amount (refills set, not add).
 */
const PERIOD = `(case refill_interval when 'daily' then $2::timestamptz else $3::timestamptz end)`;
const DUE = `(refill_interval is not null and refilled_at < ${PERIOD})`;
const BALANCE = `(case when ${DUE} then refill_amount else remaining end)`;

const SPEND = `update key_credits set remaining = ${BALANCE} - $4::int, refilled_at = case when ${DUE} then ${PERIOD} else refilled_at end where id = $1 and ${BALANCE} >= $4::int returning remaining, refill_interval`;
const READ = `select ${BALANCE} as remaining, refill_interval from key_credits where id = $1`;

/** The balance and refill time a SPEND or READ row says, or null when there is no row. */
function balanceOf(rows: unknown[], atMs: number): { remaining: number; refillAt: Date | null } | null {
  const row = rows[0];
  if (typeof row !== "object" || row === null || !("remaining" in row)) return null;
  const interval = "refill_interval" in row ? row.refill_interval : null;
  const refillAt = interval === "daily" || interval === "monthly" ? nextRefill(interval, atMs) : null;
  return { remaining: Number(row.remaining), refillAt };
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
      if (balance === null) return { ok: cost === 0, remaining: 0, refillAt: null };
      return { ok: balance.remaining >= cost, ...balance };
    },
    async spend(creditsId, cost, atMs) {
      // Spending nothing needs no row lock: a read answers the same.
      if (cost === 0) return store.read(creditsId, cost, atMs);
      const spent = balanceOf(await query(SPEND, [...params(creditsId, atMs), String(cost)]), atMs);
      if (spent !== null) return { ok: true, ...spent };
      const { remaining, refillAt } = await store.read(creditsId, cost, atMs);
      return { ok: false, remaining, refillAt };
    },
  };
  return store;
}
