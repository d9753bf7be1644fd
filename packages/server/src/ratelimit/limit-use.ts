import type { RateLimitUse } from "../schemas/key-rate-limit-use.js";
import type { NamedRateLimit } from "../schemas/rate-limits.js";
import { everyLimit } from "./applied-limits.js";
import type { LimitStore } from "./limit-store.js";
import { remainingOf, weightedPrevious, windowStartMs } from "./sliding-window.js";

/**
 * The live use of every limit of a key and of its wallet, read (never spent) from the counters
 * verification spends (docs/verifying-keys.md#sliding-windows).
 * @example await readLimitUse(limits, wallet, key.id, key.rateLimits, walletLimits, Date.now())
 */
export async function readLimitUse(
  store: LimitStore,
  wallet: string,
  keyId: string,
  own: readonly NamedRateLimit[],
  walletLimits: readonly NamedRateLimit[],
  atMs: number,
): Promise<RateLimitUse[]> {
  const checks = everyLimit(keyId, own, walletLimits);
  if (checks.length === 0) return [];
  const counts = await store.peek(wallet, checks, atMs);
  return checks.map((check, i) => {
    const c = counts[i] ?? { previous: 0, current: 0 };
    const start = windowStartMs(atMs, check.windowMs);
    const elapsed = atMs - start;
    return {
      name: check.name,
      scope: check.scope,
      limit: check.limit,
      windowSeconds: check.windowMs / 1000,
      autoApply: check.autoApply,
      used: c.current + weightedPrevious(c.previous, check.windowMs, elapsed),
      remaining: remainingOf(check.limit, check.windowMs, elapsed, c),
      resetAt: new Date(start + check.windowMs),
    };
  });
}
