import type { RawQuery } from "../db/raw.js";
import { shardOf } from "./layout.js";
import { type BalanceState, epochMs } from "./state.js";

/** A balance as PostgreSQL holds it, with the last journal entry of its shard applied there. */
export interface StoredBalance {
  state: BalanceState;
  /** The shard's applied mark ("0-0" before its first drain). */
  appliedId: string;
}

// One statement, so the balance and its shard's mark come from one snapshot: the drainer changes
// both in one transaction.
const READ_STORED = `select c.remaining, c.purchased, c.version, c.refill_interval, c.refill_amount, c.refilled_at,
c.last_top_up, c.exhausted_notified, m.applied_id
from key_credits c left join credit_journal_marks m on m.shard = $2::smallint where c.id = $1`;

/** Reads a row of `key_credits` (and its shard's mark); null when the balance does not exist. */
export async function readStoredBalance(query: RawQuery, creditsId: string): Promise<StoredBalance | null> {
  const [row] = await query(READ_STORED, [creditsId, String(shardOf(creditsId))]);
  if (typeof row !== "object" || row === null) return null;
  const field = (name: string): unknown => Reflect.get(row, name);
  const interval = field("refill_interval");
  const refilledAt = field("refilled_at");
  const applied = field("applied_id");
  return {
    state: {
      remaining: Number(field("remaining")),
      purchased: Number(field("purchased")),
      version: Number(field("version")),
      interval: interval === "daily" || interval === "monthly" ? interval : null,
      amount: Number(field("refill_amount") ?? 0),
      refilledAt: epochMs(refilledAt),
      lastTopUp: Number(field("last_top_up") ?? 0),
      exhausted: field("exhausted_notified") === true,
    },
    appliedId: typeof applied === "string" ? applied : "0-0",
  };
}

/** The script arguments of a state: remaining, version, interval, amount, refilledAt, purchased, lastTopUp, exhausted. */
export function stateArgs(state: BalanceState): string[] {
  return [
    String(state.remaining),
    String(state.version),
    state.interval ?? "",
    String(state.amount),
    String(state.refilledAt ?? -1),
    String(state.purchased),
    String(state.lastTopUp),
    state.exhausted ? "1" : "0",
  ];
}
