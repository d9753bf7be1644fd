import type { CreditsRefill } from "../schemas/key-policy.js";

// Refill periods are UTC calendar days and months: a balance set in one period is due a refill in the next.

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

/** Start of the refill period after the one holding `ms`: the next UTC day or month. */
export function nextRefill(interval: CreditsRefill["interval"], ms: number): Date {
  const d = new Date(ms);
  return interval === "daily"
    ? new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1))
    : new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
}

/** Start of the refill period holding `ms`: the UTC day or month. */
export function refillPeriodStart(interval: CreditsRefill["interval"], ms: number): Date {
  return interval === "daily" ? utcDayStart(ms) : utcMonthStart(ms);
}
