// The names of what the Redis credits store, defined once for the Lua (scripts.ts, spend-script.ts)
// and the TypeScript that reads it (state.ts): docs/decisions.md, Credits in Redis.

/**
 * A journal entry's fields (a Redis stream entry written by the spend script, read by the drainer and
 * replayed by cold loads): one letter each, since every spend writes one.
 */
export const JOURNAL_FIELD = {
  /** The balance's id (`key_credits.id`). */
  creditsId: "c",
  /** Credits taken from the allowance. */
  fromAllowance: "n",
  /** Credits taken from the purchased pool; absent when 0. */
  fromPurchased: "p",
  /** The balance version the spend was made against. */
  version: "v",
  /** The refill period (epoch ms) this spend applied first, when it did. */
  refill: "r",
  /** A credit event's type: `low` | `exhausted` (docs/webhooks.md#credit-events). */
  event: "e",
  /** The key whose spend raised the event. */
  keyId: "k",
  /** Ten times the low threshold. */
  mark: "m",
  /** The allowance after the spend. */
  allowance: "a",
  /** The purchased credits after the spend. */
  purchased: "b",
  /** The refill period after the spend (epoch ms, -1: never). */
  refilledAt: "t",
} as const;

/** A balance hash's fields, read by every script and written by the spend, fence and install scripts. */
export const BALANCE_FIELD = {
  /** The allowance. */
  remaining: "remaining",
  purchased: "purchased",
  version: "version",
  /** `""` | `daily` | `monthly`. */
  interval: "interval",
  /** The refill amount. */
  amount: "amount",
  /** Epoch ms of the refill period the balance belongs to; -1: never refilled. */
  refilledAt: "refilledAt",
  /** Credits of the last top-up (0: none). */
  lastTopUp: "top",
  /** "1" once credits.exhausted was sent since the balance last rose. */
  exhausted: "x",
} as const;

/** A field name as a Lua string literal. */
export function luaName(name: string): string {
  return JSON.stringify(name);
}
