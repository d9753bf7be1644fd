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
  /**
   * Namespace of the rule's keys in its store (`ip`: `ip:<client>`), so rules sharing a store count
   * apart. Leave it out only for a store no other rule uses (a key then is the client as given).
   */
  name?: string;
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
export function createWindowLimit(
  store: RateLimiter | MemoryRateLimiter,
  options: WindowLimitOptions,
): WindowLimit {
  const { limit, windowSeconds } = options;
  const now = options.now ?? Date.now;
  const prefix = options.name === undefined ? "" : `${options.name}:`;
  // Without a name no key is built per request (a string concatenation and its hashing).
  const keyOf = prefix === "" ? (client: string) => client : (client: string) => prefix + client;
  if ("hit" in store) {
    // In this process a pass allocates nothing (no result object, no Date): a per-request limit pays for it.
    return {
      hit(client) {
        const at = now();
        const refusedUntil = store.hit(keyOf(client), limit, windowSeconds, at);
        return refusedUntil === 0 ? ALLOWED : refusal(refusedUntil, at);
      },
    };
  }
  return {
    hit(client) {
      const at = now();
      const result = store.consume(keyOf(client), limit, windowSeconds, at);
      if (result instanceof Promise) return result.then((settled) => verdictOf(settled, at));
      return verdictOf(result, at);
    },
  };
}

function verdictOf(result: RateLimitResult, nowMs: number): LimitVerdict {
  return result.allowed ? ALLOWED : refusal(result.resetAt.getTime(), nowMs);
}

/** A refusal until `windowEnd`: the whole seconds left, at least 1 (what `Retry-After` says). */
function refusal(windowEnd: number, nowMs: number): LimitVerdict {
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((windowEnd - nowMs) / 1_000)) };
}
