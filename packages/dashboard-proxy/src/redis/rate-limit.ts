import type { Redis } from "ioredis";
import type { RateLimiter, RateLimiterOptions, RateLimitVerdict } from "../http/rate-limit.js";
import { defineScript, integerReply, runScript } from "./script.js";

/**
 * Checks and counts in one atomic step, so two instances can never both take the last request.
 * KEYS[1] the client's window counter; ARGV[1] limit; ARGV[2] ms until the counter may expire.
 * Returns { allowed (0|1) }.
 */
const CONSUME = defineScript(`
if tonumber(redis.call('GET', KEYS[1]) or '0') >= tonumber(ARGV[1]) then
  return {0}
end
if redis.call('INCR', KEYS[1]) == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return {1}
`);

/** Options of {@link createRedisRateLimiter}. */
export interface RedisRateLimiterOptions extends RateLimiterOptions {
  /** Namespace, e.g. `keyport:proxy:`; tests use a unique one. */
  prefix: string;
  /** Answers while Redis cannot be reached (this instance's own count), and is told why. */
  fallback: RateLimiter;
  onError?: (error: unknown) => void;
}

// Kept past the window's end, so an instance whose clock runs slightly behind still finds the count.
const EXPIRY_SLACK_MS = 5_000;

/**
 * The per-IP limit shared by every instance: fixed windows aligned to the clock (each minute from
 * :00 with the default window), one counter per client and window in Redis. While Redis is down
 * each instance limits on its own (`fallback`), so the proxy neither stops nor opens wide.
 * @example createRedisRateLimiter(redis, { limit: 600, windowMs: 60_000, prefix, fallback })
 */
export function createRedisRateLimiter(redis: Redis, options: RedisRateLimiterOptions): RateLimiter {
  const now = options.now ?? Date.now;
  const { limit, windowMs, prefix, fallback } = options;

  return {
    async hit(client): Promise<RateLimitVerdict> {
      const at = now();
      const start = at - (at % windowMs);
      const end = start + windowMs;
      try {
        const reply = await runScript(
          redis,
          CONSUME,
          [`${prefix}ip:${client}:${start}`],
          [limit, end - at + EXPIRY_SLACK_MS],
        );
        const [allowed] = integerReply(reply, 1);
        if (allowed === 1) return { allowed: true };
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((end - at) / 1_000)) };
      } catch (error) {
        options.onError?.(error);
        return fallback.hit(client);
      }
    },
  };
}
