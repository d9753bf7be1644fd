import { defineScript, runScript } from "@keyport/node-edge";
import type { Redis } from "ioredis";
import type { LimitCheck, LimitStore, LimitsOutcome } from "./limit-store.js";
import { type WindowCounts, windowStartMs } from "./sliding-window.js";

/**
 * Every limit of one verification, checked and (only when all fit) spent in one atomic step.
 * KEYS: for each limit, its previous and its current window's counter (all under the wallet's hash
 * tag, so one cluster slot). ARGV: the number of limits, then per limit: limit, window ms, ms
 * elapsed in the current window, cost, ms the current counter must live (it is read as the
 * previous one through the next window). Returns { allowed (0|1), then per limit previous and
 * current after this request }. The admission test is sliding-window.ts's `fits`, in the same
 * integer arithmetic.
 */
const APPLY = defineScript(`
local n = tonumber(ARGV[1])
local counts = {}
local allowed = 1
for i = 1, n do
  local limit = tonumber(ARGV[2 + (i - 1) * 5])
  local window = tonumber(ARGV[3 + (i - 1) * 5])
  local elapsed = tonumber(ARGV[4 + (i - 1) * 5])
  local cost = tonumber(ARGV[5 + (i - 1) * 5])
  local previous = tonumber(redis.call('GET', KEYS[2 * i - 1]) or '0')
  local current = tonumber(redis.call('GET', KEYS[2 * i]) or '0')
  counts[2 * i - 1] = previous
  counts[2 * i] = current
  if current + math.floor(previous * (window - elapsed) / window) + cost > limit then
    allowed = 0
  end
end
if allowed == 1 then
  for i = 1, n do
    local cost = tonumber(ARGV[5 + (i - 1) * 5])
    if cost > 0 then
      local current = redis.call('INCRBY', KEYS[2 * i], cost)
      if current == cost then
        redis.call('PEXPIRE', KEYS[2 * i], ARGV[6 + (i - 1) * 5])
      end
      counts[2 * i] = current
    end
  end
end
local reply = { allowed }
for i = 1, 2 * n do
  reply[i + 1] = counts[i]
end
return reply
`);

/**
 * Gives back what an allowed APPLY spent: never below zero, and a counter that has expired stays
 * missing. KEYS: current window counters; ARGV: the costs in the same order.
 */
const REFUND = defineScript(`
for i = 1, #KEYS do
  local current = tonumber(redis.call('GET', KEYS[i]) or '0')
  local cost = tonumber(ARGV[i])
  if current > 0 and cost > 0 then
    if current > cost then
      redis.call('DECRBY', KEYS[i], cost)
    else
      redis.call('SET', KEYS[i], '0', 'KEEPTTL')
    end
  end
end
return 0
`);

// Kept past the next window's end so a process whose clock runs slightly behind still finds it.
const EXPIRY_SLACK_MS = 5_000;

/**
 * Sliding-window limits shared by every instance through Redis: one script call per verification
 * whatever the number of limits; counters `<prefix>{w:<wallet>}:<id>:<window ms>:<window start>`.
 * Redis errors reject (see createFallbackLimitStore).
 */
export function createRedisLimitStore(redis: Redis, options: { prefix: string }): LimitStore {
  const base = (wallet: string, check: LimitCheck) =>
    `${options.prefix}lim:{w:${wallet}}:${check.id}:${check.windowMs}:`;

  function keysAndArgs(wallet: string, checks: readonly LimitCheck[], nowMs: number) {
    const keys: string[] = [];
    const args: number[] = [checks.length];
    for (const check of checks) {
      const start = windowStartMs(nowMs, check.windowMs);
      const prefix = base(wallet, check);
      keys.push(`${prefix}${start - check.windowMs}`, `${prefix}${start}`);
      const ttl = start + 2 * check.windowMs - nowMs + EXPIRY_SLACK_MS;
      args.push(check.limit, check.windowMs, nowMs - start, check.cost, ttl);
    }
    return { keys, args };
  }

  function countsOf(reply: unknown, n: number, offset: number): WindowCounts[] {
    if (!Array.isArray(reply) || reply.length !== 2 * n + offset)
      throw new Error("Unexpected reply from the limits script");
    const counts: WindowCounts[] = [];
    for (let i = 0; i < n; i++) {
      const previous = Number(reply[offset + 2 * i]);
      const current = Number(reply[offset + 2 * i + 1]);
      if (!Number.isInteger(previous) || !Number.isInteger(current))
        throw new Error("Unexpected reply from the limits script");
      counts.push({ previous, current });
    }
    return counts;
  }

  return {
    async apply(wallet, checks, nowMs): Promise<LimitsOutcome> {
      const { keys, args } = keysAndArgs(wallet, checks, nowMs);
      const reply = await runScript(redis, APPLY, keys, args);
      const allowed = Array.isArray(reply) && reply[0] === 1;
      return { allowed, counts: countsOf(reply, checks.length, 1) };
    },
    async peek(wallet, checks, nowMs): Promise<WindowCounts[]> {
      const { keys } = keysAndArgs(wallet, checks, nowMs);
      if (keys.length === 0) return [];
      const values = await redis.mget(...keys);
      return countsOf(
        values.map((v) => Number(v ?? "0")),
        checks.length,
        0,
      );
    },
    async refund(wallet, checks, nowMs): Promise<void> {
      const spent = checks.filter((check) => check.cost > 0);
      if (spent.length === 0) return;
      const keys = spent.map((check) => `${base(wallet, check)}${windowStartMs(nowMs, check.windowMs)}`);
      await runScript(
        redis,
        REFUND,
        keys,
        spent.map((check) => check.cost),
      );
    },
  };
}
