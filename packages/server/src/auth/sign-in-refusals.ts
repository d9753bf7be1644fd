import { clientLimitKey, createWindowLimit, type LimitVerdict, type RateLimiter } from "@keyport/node-edge";
import type { NonceRateLimit } from "./nonce-limit.js";

/** Counts refused sign-ins per client (an IPv4 address or an IPv6 /64). */
export interface SignInRefusals {
  /** Counts one refused `auth.verify` of `clientIp`; refused once the client is past its limit. */
  count(clientIp: string | undefined): Promise<LimitVerdict>;
}

const ALLOWED: LimitVerdict = Object.freeze({ allowed: true });

/**
 * Refused sign-ins per client under `rule` (NONCE_RATE_LIMIT's: a client that may take 10 nonces a
 * minute is refused at most 10 sign-ins a minute before it hears 429), counted in `store` (in-process,
 * or Redis so every instance shares the count). With no rule (`NONCE_RATE_LIMIT=off`) nothing is
 * counted. Only refusals count: a sign-in that succeeds never draws on the budget.
 */
export function createSignInRefusals(store: RateLimiter, rule: NonceRateLimit | null): SignInRefusals {
  if (rule === null) return { count: async () => ALLOWED };
  const limit = createWindowLimit(store, {
    name: "sign-in-refused",
    limit: rule.limit,
    windowSeconds: rule.windowSeconds,
  });
  return { count: async (clientIp) => limit.hit(clientLimitKey(clientIp)) };
}
