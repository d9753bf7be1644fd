import { clientLimitKey, createWindowLimit, type LimitVerdict, type RateLimiter } from "@keyport/node-edge";
import type { NonceRateLimit } from "../auth/nonce-limit.js";

/**
 * Counts unauthenticated leak lookups per client (an IPv4 address or an IPv6 /64): self-reports
 * (`POST /api-keys/report-leak`) and TruffleHog's verifications (`POST /leaks/trufflehog`).
 */
export interface SelfReportLimit {
  /** Counts one request of `clientIp`; refused once the client is past its limit. */
  hit(clientIp: string | undefined): Promise<LimitVerdict>;
}

const ALLOWED: LimitVerdict = Object.freeze({ allowed: true });

/**
 * Every self-report (or, with `name` "trufflehog", every TruffleHog verification, each up to 1,000
 * strings), real key or not, draws on NONCE_RATE_LIMIT's rule per client, counted in `store`
 * (in-process, or Redis so every instance shares the count) under keys of its own (`<name>:`), so a
 * client cannot try keys faster than it could ask for nonces. No rule (`off`): no limit.
 */
export function createSelfReportLimit(
  store: RateLimiter,
  rule: NonceRateLimit | null,
  name: "report-leak" | "trufflehog" = "report-leak",
): SelfReportLimit {
  if (rule === null) return { hit: async () => ALLOWED };
  const limit = createWindowLimit(store, {
    name,
    limit: rule.limit,
    windowSeconds: rule.windowSeconds,
  });
  return { hit: async (clientIp) => limit.hit(clientLimitKey(clientIp)) };
}
