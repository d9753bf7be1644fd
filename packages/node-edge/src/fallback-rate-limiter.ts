import type { RateLimiter, RateLimitResult } from "./rate-limiter.js";

/**
 * A limiter that answers from `fallback` whenever `primary` fails (Redis unreachable): each
 * instance then limits on its own count, so a server neither stops nor opens wide. `onError` is
 * told why; the request is not refused for it.
 * @example createFallbackRateLimiter(createRedisRateLimiter(redis, { prefix }), createMemoryRateLimiter())
 */
export function createFallbackRateLimiter(
  primary: RateLimiter,
  fallback: RateLimiter,
  onError?: (error: unknown) => void,
): RateLimiter {
  return {
    async consume(key, limit, windowSeconds, nowMs): Promise<RateLimitResult> {
      try {
        return await primary.consume(key, limit, windowSeconds, nowMs);
      } catch (error) {
        onError?.(error);
        return await fallback.consume(key, limit, windowSeconds, nowMs);
      }
    },
    async peek(key, limit, windowSeconds, nowMs): Promise<RateLimitResult> {
      try {
        return await primary.peek(key, limit, windowSeconds, nowMs);
      } catch (error) {
        onError?.(error);
        return await fallback.peek(key, limit, windowSeconds, nowMs);
      }
    },
    async refund(key, windowSeconds, nowMs): Promise<void> {
      try {
        await primary.refund(key, windowSeconds, nowMs);
      } catch (error) {
        onError?.(error);
        await fallback.refund(key, windowSeconds, nowMs);
      }
    },
  };
}
