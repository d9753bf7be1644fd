import type { IntrospectionCredits } from "../schemas/introspection.js";
import type { CreditsResult } from "../verify/credits-store.js";

/**
 * The `credits` of an introspection from a read of the key's balance (docs/api.md, `Introspection`):
 * `remaining` is all a verification can spend now, `purchased` the part of it bought by top-ups.
 * @example creditsView(await credits.read(creditsId, 0, atMs)) // { remaining: 5, purchased: 2, refillAt: null }
 */
export function creditsView(balance: CreditsResult): IntrospectionCredits {
  return { remaining: balance.remaining, purchased: balance.purchased, refillAt: balance.refillAt };
}
