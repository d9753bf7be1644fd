import { randomBytes } from "node:crypto";
import { defineScript, integerReply, runScript } from "@keyport/node-edge";
import type { Redis } from "ioredis";
import {
  type BudgetLimits,
  MINUTE_MS,
  monthEnd,
  monthLabel,
  roomFor,
  secondsUntil,
  type UpstreamBudget,
} from "../upstream/budget.js";

/**
 * Checks both windows and spends one call in one atomic step, so two instances can never both
 * take the last call. The minute window is a sorted set of call times (a sliding log); the month a
 * counter. The time is Redis's own (`TIME`) unless the caller passes one, so instances with
 * drifting clocks still agree on what "the last 60 s" means.
 * KEYS[1] minute log, KEYS[2] month counter. ARGV[1] now in ms or "", ARGV[2] calls per minute
 * this claim may see in the log (the reserve left out for anonymous calls), ARGV[3] the same for
 * the month or -1, ARGV[4] month counter lifetime in ms, ARGV[5] a unique member.
 * Returns { verdict (1 spend, 0 minute full, 2 month spent), now, the call that must leave the log
 * before this claim fits }.
 */
const TAKE = defineScript(`
local now = tonumber(ARGV[1])
if now == nil then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - ${MINUTE_MS})
local count = redis.call('ZCARD', KEYS[1])
local room = tonumber(ARGV[2])
if count >= room then
  local blocking = redis.call('ZRANGE', KEYS[1], count - room, count - room, 'WITHSCORES')
  return {0, now, tonumber(blocking[2])}
end
local perMonth = tonumber(ARGV[3])
if perMonth >= 0 and tonumber(redis.call('GET', KEYS[2]) or '0') >= perMonth then
  return {2, now, 0}
end
redis.call('ZADD', KEYS[1], now, ARGV[5])
redis.call('PEXPIRE', KEYS[1], ${MINUTE_MS + 1_000})
if redis.call('INCR', KEYS[2]) == 1 then
  redis.call('PEXPIRE', KEYS[2], ARGV[4])
end
return {1, now, 0}
`);

/** KEYS[1] minute log, KEYS[2] month counter; ARGV[1] now in ms or "". Returns { minute, month }. */
const USAGE = defineScript(`
local now = tonumber(ARGV[1])
if now == nil then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
return {redis.call('ZCOUNT', KEYS[1], '(' .. (now - ${MINUTE_MS}), '+inf'), tonumber(redis.call('GET', KEYS[2]) or '0')}
`);

/** Options of {@link createRedisBudget}. */
export interface RedisBudgetOptions {
  /** Namespace, e.g. `keyport:proxy:`; tests use a unique one. */
  prefix: string;
  /** A clock for tests (ms since the epoch); default Redis's own time. */
  now?: () => number;
}

// The month counter outlives its month by a day, so a late reader still finds it.
const MONTH_SLACK_MS = 86_400_000;

/**
 * The upstream budget shared by every instance on one Redis. When Redis cannot be reached the
 * verdict is `unavailable` and no call is made: spending without the shared count could overspend.
 * @example createRedisBudget(redis, { perMinute: 30, perMonth: 10_000 }, { prefix: "keyport:proxy:" })
 */
export function createRedisBudget(
  redis: Redis,
  limits: BudgetLimits,
  options: RedisBudgetOptions,
): UpstreamBudget {
  const minuteKey = `${options.prefix}budget:minute`;
  const monthKey = (at: number) => `${options.prefix}budget:month:${monthLabel(at)}`;
  const instance = randomBytes(6).toString("hex");
  let sequence = 0;

  return {
    limits,
    scope: "shared",
    async take(claim) {
      // The month's name comes from this process's clock: only a call within clock skew of midnight
      // on the 1st can land in the neighbouring month.
      const local = options.now?.() ?? Date.now();
      sequence += 1;
      let reply: number[];
      try {
        reply = integerReply(
          await runScript(
            redis,
            TAKE,
            [minuteKey, monthKey(local)],
            [
              options.now === undefined ? "" : local,
              roomFor(limits.perMinute, claim),
              limits.perMonth === undefined ? -1 : roomFor(limits.perMonth, claim),
              monthEnd(local) - local + MONTH_SLACK_MS,
              `${instance}:${sequence}`,
            ],
          ),
          3,
        );
      } catch {
        return { allowed: false, window: "unavailable", retryAfterSeconds: 5 };
      }
      const [verdict, now = local, oldest = 0] = reply;
      if (verdict === 1) return { allowed: true };
      if (verdict === 2) {
        return { allowed: false, window: "month", retryAfterSeconds: secondsUntil(monthEnd(now), now) };
      }
      return { allowed: false, window: "minute", retryAfterSeconds: secondsUntil(oldest + MINUTE_MS, now) };
    },
    async usage() {
      const local = options.now?.() ?? Date.now();
      const reply = await runScript(
        redis,
        USAGE,
        [minuteKey, monthKey(local)],
        [options.now === undefined ? "" : local],
      );
      const [minute = 0, month = 0] = integerReply(reply, 2);
      return { minute, month };
    },
  };
}
