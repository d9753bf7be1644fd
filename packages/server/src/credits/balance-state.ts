import type { KeyCreditsRow } from "../db/schema/index.js";
import { type BalanceState, epochMs } from "./state.js";

/** The columns of a `key_credits` row that make a balance's state. */
export type BalanceColumns = Pick<
  KeyCreditsRow,
  | "remaining"
  | "purchased"
  | "version"
  | "refillInterval"
  | "refillAmount"
  | "refilledAt"
  | "lastTopUp"
  | "exhaustedNotified"
>;

/**
 * The state both sides hold (Redis and PostgreSQL) of a `key_credits` row: the one builder of it, for
 * the balance writer, the drainer and cold loads alike.
 */
export function balanceStateOf(row: BalanceColumns): BalanceState {
  return {
    remaining: row.remaining,
    purchased: row.purchased,
    version: row.version,
    interval: row.refillInterval,
    amount: row.refillAmount ?? 0,
    refilledAt: row.refilledAt?.getTime() ?? null,
    lastTopUp: row.lastTopUp ?? 0,
    exhausted: row.exhaustedNotified,
  };
}

/** The `key_credits` columns a raw query selected (snake_case, as PostgreSQL names them). */
export const BALANCE_COLUMNS_SQL =
  "remaining, purchased, version, refill_interval, refill_amount, refilled_at, last_top_up, exhausted_notified";

/**
 * A raw query's row (the columns of {@link BALANCE_COLUMNS_SQL}, under a table alias or not) as the
 * columns drizzle would give, so {@link balanceStateOf} reads both.
 */
export function balanceColumnsOf(row: object): BalanceColumns {
  const field = (name: string): unknown => Reflect.get(row, name);
  const interval = field("refill_interval");
  const refilledAt = epochMs(field("refilled_at"));
  const amount = field("refill_amount");
  const lastTopUp = field("last_top_up");
  return {
    remaining: Number(field("remaining")),
    purchased: Number(field("purchased")),
    version: Number(field("version")),
    refillInterval: interval === "daily" || interval === "monthly" ? interval : null,
    refillAmount: amount === null || amount === undefined ? null : Number(amount),
    refilledAt: refilledAt === null ? null : new Date(refilledAt),
    lastTopUp: lastTopUp === null || lastTopUp === undefined ? null : Number(lastTopUp),
    exhaustedNotified: field("exhausted_notified") === true,
  };
}
