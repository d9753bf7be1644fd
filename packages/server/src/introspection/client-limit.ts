import { clientLimitKey, createWindowLimit, type LimitVerdict, type RateLimiter } from "@keyport/node-edge";
import type { NonceRateLimit } from "../auth/nonce-limit.js";

/** Counts introspections per client (an IPv4 address or an IPv6 /64). */
export interface IntrospectionLimit {
  /** Counts one introspection of `clientIp`; refused once the client is past its limit. */
  hit(clientIp: string | undefined): Promise<LimitVerdict>;
}

const ALLOWED: LimitVerdict = Object.freeze({ allowed: true });

/**
 * Introspections per client under `rule` (NONCE_RATE_LIMIT's), counted in `store` (in-process, or
 * Redis so every instance shares the count) apart from nonces and refused sign-ins: the same rule,
 * its own budget. With no rule (`NONCE_RATE_LIMIT=off`) nothing is counted.
 */
export function createIntrospectionLimit(
  store: RateLimiter,
  rule: NonceRateLimit | null,
): IntrospectionLimit {
  if (rule === null) return { hit: async () => ALLOWED };
  const limit = createWindowLimit(store, {
    name: "introspect",
    limit: rule.limit,
    windowSeconds: rule.windowSeconds,
  });
  return { hit: async (clientIp) => limit.hit(clientLimitKey(clientIp)) };
}
