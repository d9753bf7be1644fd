import { JOURNAL_FIELD as J } from "./fields.js";

/** A balance as both sides hold it: the fields a spend and its replay need. */
export interface BalanceState {
  /** The allowance (set by create, PATCH and refills). */
  remaining: number;
  /** Purchased credits (set by top-ups; spent after the allowance). */
  purchased: number;
  version: number;
  interval: "daily" | "monthly" | null;
  amount: number;
  /** Epoch ms of the refill period the balance belongs to; null: never refilled. */
  refilledAt: number | null;
  /** Credits of the last top-up (0: none): with `amount`, it sets the credits.low threshold. */
  lastTopUp: number;
  /** Whether credits.exhausted was sent since the balance last rose (docs/webhooks.md#credit-events). */
  exhausted: boolean;
}

/**
 * A credit event the spend script detected (docs/webhooks.md#credit-events): the drainer writes it
 * to the webhook outbox in the transaction that applies its entry. It carries the balance after the
 * spend, so the event says what the spend saw even when an administrative change superseded it.
 */
export interface CreditEventMarker {
  type: "credits.low" | "credits.exhausted";
  keyId: string;
  /** Ten times the low threshold. */
  mark: number;
  allowance: number;
  purchased: number;
  refilledAt: number | null;
}

/**
 * One journal entry: a spend against `version`, after a refill to the period `refill` when set. It
 * carries the split the spend script made (`fromAllowance` + `fromPurchased` = the cost), so a replay
 * subtracts it as recorded and both pools come out exactly as in Redis.
 */
export interface JournalEntry {
  id: string;
  creditsId: string;
  fromAllowance: number;
  fromPurchased: number;
  version: number;
  refill: number | null;
  event: CreditEventMarker | null;
}

/**
 * Applies one journaled spend to `state` in place (a refill of the allowance first, then the cost
 * from each pool as recorded), as the spend script did: the drainer and a cold load replay entries
 * the same way. Returns false when the entry would take a pool below 0 (then clamped at 0: it must
 * never happen).
 */
export function replayEntry(state: BalanceState, entry: JournalEntry): boolean {
  if (
    entry.refill !== null &&
    state.interval !== null &&
    state.refilledAt !== null &&
    state.refilledAt < entry.refill
  ) {
    state.remaining = state.amount;
    state.refilledAt = entry.refill;
    state.exhausted = false;
  }
  if (entry.event?.type === "credits.exhausted") state.exhausted = true;
  state.remaining -= entry.fromAllowance;
  state.purchased -= entry.fromPurchased;
  if (state.remaining >= 0 && state.purchased >= 0) return true;
  state.remaining = Math.max(state.remaining, 0);
  state.purchased = Math.max(state.purchased, 0);
  return false;
}

/** Reads a stream entry (XRANGE's `[id, [field, value, ...]]`) written by the spend script; null when malformed. */
export function parseEntry(raw: unknown): JournalEntry | null {
  if (!Array.isArray(raw) || typeof raw[0] !== "string" || !Array.isArray(raw[1])) return null;
  const fields: unknown[] = raw[1];
  const get = (name: string) => {
    for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === name) return fields[i + 1];
    return undefined;
  };
  const creditsId = get(J.creditsId);
  const fromAllowance = Number(get(J.fromAllowance));
  // Absent before purchased credits existed, and in entries that took nothing from them.
  const fromPurchased = Number(get(J.fromPurchased) ?? 0);
  const version = Number(get(J.version));
  const refillField = get(J.refill);
  if (
    typeof creditsId !== "string" ||
    !Number.isInteger(fromAllowance) ||
    !Number.isInteger(fromPurchased) ||
    !Number.isInteger(version)
  )
    return null;
  return {
    id: raw[0],
    creditsId,
    fromAllowance,
    fromPurchased,
    version,
    refill: refillField === undefined ? null : Number(refillField),
    event: parseMarker(get),
  };
}

/** The credit event of an entry, or null when it has none. */
function parseMarker(get: (name: string) => unknown): CreditEventMarker | null {
  const type = get(J.event);
  const keyId = get(J.keyId);
  const numbers = [J.mark, J.allowance, J.purchased, J.refilledAt].map((name) => Number(get(name)));
  const [mark, allowance, purchased, refilledAt] = numbers;
  if (
    (type !== "low" && type !== "exhausted") ||
    typeof keyId !== "string" ||
    mark === undefined ||
    allowance === undefined ||
    purchased === undefined ||
    refilledAt === undefined ||
    !numbers.every(Number.isInteger)
  )
    return null;
  return {
    type: type === "low" ? "credits.low" : "credits.exhausted",
    keyId,
    mark,
    allowance,
    purchased,
    refilledAt: refilledAt < 0 ? null : refilledAt,
  };
}

/** Epoch ms of a timestamptz column as a raw query returns it (a `Date`, or text on some paths); null for null. */
export function epochMs(value: unknown): number | null {
  if (value instanceof Date) return value.getTime();
  if (typeof value === "string") {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? null : ms;
  }
  return null;
}
