import { clientLimitKey, type RateLimiter } from "@keyport/node-edge";

/** NONCE_RATE_LIMIT parsed: at most `limit` nonces per client address per `windowSeconds`. */
export interface NonceRateLimit {
  limit: number;
  windowSeconds: number;
}

const RULE = /^([1-9][0-9]{0,6})\/([1-9][0-9]{0,5})$/;

/**
 * Reads a NONCE_RATE_LIMIT value: `<count>/<seconds>` (count 1-9,999,999, seconds 1-86,400), or
 * `off` for no limit (null). Undefined when the value is neither.
 * @example parseNonceRateLimit("10/60") // { limit: 10, windowSeconds: 60 }
 */
export function parseNonceRateLimit(value: string): NonceRateLimit | null | undefined {
  if (value === "off") return null;
  const match = RULE.exec(value);
  if (!match) return undefined;
  const windowSeconds = Number(match[2]);
  return windowSeconds <= 86_400 ? { limit: Number(match[1]), windowSeconds } : undefined;
}

/** Whose budget a nonce request draws on: `nonce:` and the client (`clientLimitKey`: IPv4, or IPv6 by /64). */
export function nonceBudgetKey(clientIp: string | undefined): string {
  return `nonce:${clientLimitKey(clientIp)}`;
}

/** Whether a client may have another nonce now; when not, when the window ends. */
export type NonceAllowance = { allowed: true } | { allowed: false; resetAt: Date };

/** Counts nonces per client address (see {@link nonceBudgetKey}) with a fixed-window limiter. */
export interface NonceLimiter {
  take(clientIp: string | undefined, nowMs: number): Promise<NonceAllowance>;
}

/**
 * A nonce limiter over `limiter` (in-process, or Redis so every instance shares the count); with no
 * rule (`NONCE_RATE_LIMIT=off`) every request is allowed.
 */
export function createNonceLimiter(limiter: RateLimiter, rule: NonceRateLimit | null): NonceLimiter {
  return {
    async take(clientIp, nowMs) {
      if (rule === null) return { allowed: true };
      const result = await limiter.consume(nonceBudgetKey(clientIp), rule.limit, rule.windowSeconds, nowMs);
      return result.allowed ? { allowed: true } : { allowed: false, resetAt: result.resetAt };
    },
  };
}
