import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import type { RateLimiter, RateLimitResult } from "./types.js";
import { windowStart } from "./window.js";

/**
 * Check and increment in one atomic step, so concurrent instances can never both take the
 * last slot, and a rejected request leaves the count untouched.
 * KEYS[1] window counter; ARGV[1] limit; ARGV[2] milliseconds until the key may expire.
 * Returns { allowed (0|1), count after this request }.
 */
const CONSUME_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count >= tonumber(ARGV[1]) then
  return {0, count}
end
count = redis.call('INCR', KEYS[1])
if count == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return {1, count}
`;

const CONSUME_SHA = createHash("sha1").update(CONSUME_SCRIPT).digest("hex");

/**
 * Gives one request back, never below zero and never to a counter that has expired (a missing key
 * stays missing, so a give-back cannot create a window). KEYS[1] window counter.
 */
const REFUND_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then
  redis.call('DECR', KEYS[1])
end
return 0
`;
const REFUND_SHA = createHash("sha1").update(REFUND_SCRIPT).digest("hex");

// Kept past the window end so a process whose clock runs slightly behind still finds the count.
const EXPIRY_SLACK_MS = 5_000;

/** Options of {@link createRedisRateLimiter}. */
export interface RedisRateLimiterOptions {
  /** Namespace for the counters, e.g. `keyport:rl:`. Tests use a unique one per run. */
  prefix?: string;
}

/**
 * A rate limiter shared and exact across processes: one Lua script per request, sent with
 * EVALSHA, falling back to EVAL (which caches the script again) when Redis answers NOSCRIPT.
 * Turn on `enableAutoPipelining` on the client to batch concurrent requests into one round trip.
 */
export function createRedisRateLimiter(redis: Redis, options: RedisRateLimiterOptions = {}): RateLimiter {
  const prefix = options.prefix ?? "keyport:rl:";
  const counter = (keyId: string, windowSeconds: number, start: number) =>
    `${prefix}${keyId}:${windowSeconds}:${start}`;
  async function run(script: string, sha: string, key: string, ...args: number[]): Promise<unknown> {
    try {
      return await redis.evalsha(sha, 1, key, ...args);
    } catch (error) {
      if (!(error instanceof Error && error.message.startsWith("NOSCRIPT"))) throw error;
      return await redis.eval(script, 1, key, ...args);
    }
  }

  return {
    async consume(keyId, limit, windowSeconds, nowMs): Promise<RateLimitResult> {
      const start = windowStart(nowMs, windowSeconds);
      const end = start + windowSeconds * 1000;
      const ttlMs = end - nowMs + EXPIRY_SLACK_MS;
      const reply = await run(
        CONSUME_SCRIPT,
        CONSUME_SHA,
        counter(keyId, windowSeconds, start),
        limit,
        ttlMs,
      );
      const [allowed, count] = parseReply(reply);
      return { allowed, limit, remaining: Math.max(0, limit - count), resetAt: new Date(end) };
    },
    async refund(keyId, windowSeconds, nowMs): Promise<void> {
      await run(REFUND_SCRIPT, REFUND_SHA, counter(keyId, windowSeconds, windowStart(nowMs, windowSeconds)));
    },
  };
}

function parseReply(reply: unknown): [allowed: boolean, count: number] {
  if (Array.isArray(reply) && reply.length === 2) {
    const [allowed, count] = reply;
    if ((allowed === 0 || allowed === 1) && typeof count === "number") return [allowed === 1, count];
  }
  throw new Error("Unexpected reply from the rate limit script");
}
