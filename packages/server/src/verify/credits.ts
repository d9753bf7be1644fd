import type { RawQuery } from "../db/raw.js";
import type { CreditsRefill } from "../schemas/key-policy.js";

/** What a spend or a read of a credit balance answers. */
export interface CreditsResult {
  /** Whether `cost` was spent (always true for a read that found enough). */
  ok: boolean;
  /** The balance after the spend, or now when nothing was spent; 0 when the balance is gone. */
  remaining: number;
}

/** The credit balances verification spends: exact, in the database (never cached, never Redis). */
export interface CreditsStore {
  /** Spends `cost` when the balance (after any refill due at `atMs`) holds it: one conditional UPDATE. */
  spend(creditsId: string, cost: number, atMs: number): Promise<CreditsResult>;
  /** Reads the balance at `atMs` (a refill due counts) and whether it holds `cost`, spending nothing. */
  read(creditsId: string, cost: number, atMs: number): Promise<CreditsResult>;
}

/** Start of the UTC day holding `ms`. */
export function utcDayStart(ms: number): Date {
  const d = new Date(ms);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
}

/** Start of the UTC month holding `ms`. */
export function utcMonthStart(ms: number): Date {
  const d = new Date(ms);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
}

/** Start of the refill period holding `ms`: the UTC day or month. */
export function refillPeriodStart(interval: CreditsRefill["interval"], ms: number): Date {
  return interval === "daily" ? utcDayStart(ms) : utcMonthStart(ms);
}

/**
 * The balance at $2 (day start) / $3 (month start): a refill is due when the balance was last set
 * before the current period began, and then the balance is the refill amount (refills set, not add).
 */
const PERIOD = `(case refill_interval when 'daily' then $2::timestamptz else $3::timestamptz end)`;
const DUE = `(refill_interval is not null and refilled_at < ${PERIOD})`;
const BALANCE = `(case when ${DUE} then refill_amount else remaining end)`;

const SPEND = `update key_credits set remaining = ${BALANCE} - $4::int, refilled_at = case when ${DUE} then ${PERIOD} else refilled_at end where id = $1 and ${BALANCE} >= $4::int returning remaining`;
const READ = `select ${BALANCE} as remaining from key_credits where id = $1`;

function remainingOf(rows: unknown[]): number | null {
  const row = rows[0];
  if (typeof row !== "object" || row === null || !("remaining" in row)) return null;
  return Number(row.remaining);
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
      const remaining = remainingOf(await query(READ, params(creditsId, atMs))) ?? 0;
      return { ok: remaining >= cost, remaining };
    },
    async spend(creditsId, cost, atMs) {
      // Spending nothing needs no row lock: a read answers the same.
      if (cost === 0) return store.read(creditsId, cost, atMs);
      const spent = remainingOf(await query(SPEND, [...params(creditsId, atMs), String(cost)]));
      if (spent !== null) return { ok: true, remaining: spent };
      const { remaining } = await store.read(creditsId, cost, atMs);
      return { ok: false, remaining };
    },
  };
  return store;
}
