import type { MemoryRateLimiter } from "./memory-rate-limiter.js";
import type { RateLimiter, RateLimitResult } from "./rate-limiter.js";

/** The verdict for one request under a {@link WindowLimit}. */
export type LimitVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** One rule: at most `limit` requests per client and window. */
export interface WindowLimit<Verdict = LimitVerdict | Promise<LimitVerdict>> {
  /** Counts one request of `client`; in-process stores answer at once, Redis with a promise. */
  hit(client: string): Verdict;
}

/** Options of {@link createWindowLimit}. */
export interface WindowLimitOptions {
  /** Namespace of the rule's keys in its store, e.g. `ip`: rules sharing a store count apart. */
  name: string;
  limit: number;
  /** Window length; windows are aligned to epoch multiples of it, as every limiter's are. */
  windowSeconds: number;
  /** Wall-clock ms; default `Date.now` (injectable so tests need no waiting). */
  now?: () => number;
}

// One shared verdict for every allowed request: a pass allocates no verdict.
const ALLOWED: LimitVerdict = Object.freeze({ allowed: true });

/**
 * A limit per client (an address, a wallet) over a store: a new limit, in this process or shared
 * through Redis, is one call. Refusals carry the whole seconds until the window ends (at least 1),
 * what `Retry-After` says.
 * @example
 * const failedSignIns = createWindowLimit(createMemoryRateLimiter(), { name: "sign-in", limit: 5, windowSeconds: 900 });
 * const verdict = await failedSignIns.hit("203.0.113.7");
 */
export function createWindowLimit(
  store: MemoryRateLimiter,
  options: WindowLimitOptions,
): WindowLimit<LimitVerdict>;
export function createWindowLimit(store: RateLimiter, options: WindowLimitOptions): WindowLimit;
export function createWindowLimit(store: RateLimiter, options: WindowLimitOptions): WindowLimit {
  const { limit, windowSeconds } = options;
  const now = options.now ?? Date.now;
  const prefix = `${options.name}:`;
  return {
    hit(client) {
      const at = now();
      const result = store.consume(prefix + client, limit, windowSeconds, at);
      if (result instanceof Promise) return result.then((settled) => verdictOf(settled, at));
      return verdictOf(result, at);
    },
  };
}

function verdictOf(result: RateLimitResult, nowMs: number): LimitVerdict {
  if (result.allowed) return ALLOWED;
  return {
    allowed: false,
    retryAfterSeconds: Math.max(1, Math.ceil((result.resetAt.getTime() - nowMs) / 1_000)),
  };
}
