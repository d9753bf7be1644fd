import { clientLimitKey, createWindowLimit, type LimitVerdict, type RateLimiter } from "@keyport/node-edge";
import type { NonceRateLimit } from "../auth/nonce-limit.js";

/** Counts self-reports (`POST /api-keys/report-leak`) per client (an IPv4 address or an IPv6 /64). */
export interface SelfReportLimit {
  /** Counts one report of `clientIp`; refused once the client is past its limit. */
  hit(clientIp: string | undefined): Promise<LimitVerdict>;
}

const ALLOWED: LimitVerdict = Object.freeze({ allowed: true });

/**
 * Every self-report, real key or not, draws on NONCE_RATE_LIMIT's rule per client, counted in `store`
 * (in-process, or Redis so every instance shares the count) under keys of its own (`report-leak:`),
 * so a client cannot try keys faster than it could ask for nonces. No rule (`off`): no limit.
 */
export function createSelfReportLimit(store: RateLimiter, rule: NonceRateLimit | null): SelfReportLimit {
  if (rule === null) return { hit: async () => ALLOWED };
  const limit = createWindowLimit(store, {
    name: "report-leak",
    limit: rule.limit,
    windowSeconds: rule.windowSeconds,
  });
  return { hit: async (clientIp) => limit.hit(clientLimitKey(clientIp)) };
}
