import type { IntrospectionCredits } from "../schemas/introspection.js";
import type { CreditsResult } from "../verify/credits-store.js";

/**
 * The `credits` of an introspection from a read of the key's balance (docs/api.md, `Introspection`):
 * `remaining` is all a verification can spend now, `purchased` the part of it bought by top-ups.
 * The balance store does not keep purchased credits apart yet, so every credit is the allowance's.
 * @example creditsView(await credits.read(creditsId, 0, atMs)) // { remaining: 5, purchased: 0, refillAt: null }
 */
export function creditsView(balance: CreditsResult): IntrospectionCredits {
  return { remaining: balance.remaining, purchased: 0, refillAt: balance.refillAt };
}
