import type { Redis } from "ioredis";
import type { RateLimiter, RateLimitResult } from "./rate-limiter.js";
import { defineScript, integerReply, runScript } from "./redis-script.js";
import { windowStart } from "./window.js";

/**
 * Check and increment in one atomic step, so concurrent instances can never both take the
 * last slot, and a rejected request leaves the count untouched.
 * KEYS[1] window counter; ARGV[1] limit; ARGV[2] milliseconds until the key may expire.
 * Returns { allowed (0|1), count after this request }.
 */
const CONSUME = defineScript(`
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count >= tonumber(ARGV[1]) then
  return {0, count}
end
count = redis.call('INCR', KEYS[1])
if count == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return {1, count}
`);

/**
 * Gives one request back, never below zero and never to a counter that has expired (a missing key
 * stays missing, so a give-back cannot create a window). KEYS[1] window counter.
 */
const REFUND = defineScript(`
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then
  redis.call('DECR', KEYS[1])
end
return 0
`);

// Kept past the window end so a process whose clock runs slightly behind still finds the count.
const EXPIRY_SLACK_MS = 5_000;

/** Options of {@link createRedisRateLimiter}. */
export interface RedisRateLimiterOptions {
  /** Namespace for the counters, e.g. `keyport:rl:`. Tests use a unique one per run. */
  prefix?: string;
}

/**
 * A rate limiter shared and exact across processes: one Lua script per request (see
 * {@link runScript}), one counter per key and window, `<prefix><key>:<windowSeconds>:<start>`.
 * Turn on `enableAutoPipelining` on the client to batch concurrent requests into one round trip.
 * Redis errors reject; {@link createFallbackRateLimiter} answers from this process instead.
 * @example createRedisRateLimiter(redis, { prefix: "keyport:rl:" }).consume("key_1", 100, 60, Date.now())
 */
export function createRedisRateLimiter(redis: Redis, options: RedisRateLimiterOptions = {}): RateLimiter {
  const prefix = options.prefix ?? "keyport:rl:";
  const counter = (key: string, windowSeconds: number, start: number) =>
    `${prefix}${key}:${windowSeconds}:${start}`;

  return {
    async consume(key, limit, windowSeconds, nowMs): Promise<RateLimitResult> {
      const start = windowStart(nowMs, windowSeconds);
      const end = start + windowSeconds * 1000;
      const ttlMs = end - nowMs + EXPIRY_SLACK_MS;
      const reply = await runScript(redis, CONSUME, [counter(key, windowSeconds, start)], [limit, ttlMs]);
      const [allowed, count = 0] = integerReply(reply, 2);
      return { allowed: allowed === 1, limit, remaining: Math.max(0, limit - count), resetAt: new Date(end) };
    },
    async peek(key, limit, windowSeconds, nowMs): Promise<RateLimitResult> {
      const start = windowStart(nowMs, windowSeconds);
      // A plain GET: the counter CONSUME increments, read without touching it or its expiry.
      const count = Number((await redis.get(counter(key, windowSeconds, start))) ?? "0");
      return {
        allowed: count < limit,
        limit,
        remaining: Math.max(0, limit - count),
        resetAt: new Date(start + windowSeconds * 1000),
      };
    },
    async refund(key, windowSeconds, nowMs): Promise<void> {
      await runScript(redis, REFUND, [counter(key, windowSeconds, windowStart(nowMs, windowSeconds))], []);
    },
  };
}
