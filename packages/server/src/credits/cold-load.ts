import type { RawQuery } from "../db/raw.js";
import { BALANCE_COLUMNS_SQL, balanceColumnsOf, balanceStateOf } from "./balance-state.js";
import { shardOf } from "./layout.js";
import type { BalanceState } from "./state.js";

/** A balance as PostgreSQL holds it, with the last journal entry of its shard applied there. */
export interface StoredBalance {
  state: BalanceState;
  /** The shard's applied mark ("0-0" before its first drain). */
  appliedId: string;
}

// One statement, so the balance and its shard's mark come from one snapshot: the drainer changes
// both in one transaction.
const READ_STORED = `select ${BALANCE_COLUMNS_SQL}, m.applied_id
from key_credits c left join credit_journal_marks m on m.shard = $2::smallint where c.id = $1`;

/** Reads a row of `key_credits` (and its shard's mark); null when the balance does not exist. */
export async function readStoredBalance(query: RawQuery, creditsId: string): Promise<StoredBalance | null> {
  const [row] = await query(READ_STORED, [creditsId, String(shardOf(creditsId))]);
  if (typeof row !== "object" || row === null) return null;
  const applied: unknown = Reflect.get(row, "applied_id");
  return {
    state: balanceStateOf(balanceColumnsOf(row)),
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
