import {
  createFallbackRateLimiter,
  createMemoryRateLimiter,
  createRedisRateLimiter,
  createWindowLimit,
  type RateLimiter,
  type WindowLimit,
} from "@keyport/node-edge";
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import type { Registry } from "prom-client";
import type { SharedCacheStore } from "./cache/shared-store.js";
import type { Env } from "./env.js";
import { createBudgetMetrics } from "./metrics/budget.js";
import { createRedisBudget } from "./redis/budget.js";
import { createRedisCacheStore } from "./redis/cache-store.js";
import { closeRedis, connectRedis } from "./redis/connect.js";
import { createMemoryBudget, type RefusalListener, type UpstreamBudget } from "./upstream/budget.js";

/** What every proxy instance shares through Redis, or each keeps to itself without `REDIS_URL`. */
export interface SharedState {
  budget: UpstreamBudget;
  /** Upstream calls each client may cause per minute (COINGECKO_CLIENT_CALLS_PER_MINUTE). */
  clientShare: WindowLimit;
  onBudgetRefused: RefusalListener;
  rateLimiter: WindowLimit;
  /** The cache tier behind each instance's LRU; undefined without Redis. */
  cacheStore: SharedCacheStore | undefined;
  /** Quits the Redis client opened for `REDIS_URL` (never one the caller passed in). */
  close(): Promise<void>;
}

/** What {@link createSharedState} needs besides the settings. */
export interface SharedStateOptions {
  logger: Logger;
  registry: Registry;
  /** A Redis client the caller owns (tests); default: one opened for `REDIS_URL`. */
  redis?: Redis;
  /** Wall-clock ms for the budget and the per-IP limit; default `Date.now` (Redis's own time for the budget). */
  now?: () => number;
  rateLimitWindowMs: number;
  /** The caches' clock (ms since the epoch), read by every instance; default `Date.now`. */
  cacheNow?: () => number;
}

// Copies stay in Redis an hour past their freshness, to be served stale while the upstream fails
// or the budget is spent; the in-process LRU keeps its own until evicted.
const KEEP_STALE_MS = 3_600_000;
// A lock holder gets the upstream timeout plus this before its lock expires.
const LOCK_MARGIN_MS = 2_000;

/**
 * Builds the upstream budget, the per-IP limiter and the shared cache tier: in Redis under
 * `REDIS_KEY_PREFIX` when `REDIS_URL` is set (or a client is passed), else in this process, as
 * before. Logs the budget once, so the start log shows it.
 */
export function createSharedState(env: Env, options: SharedStateOptions): SharedState {
  const limits = { perMinute: env.COINGECKO_CALLS_PER_MINUTE, perMonth: env.COINGECKO_CALLS_PER_MONTH };
  const owned =
    options.redis === undefined && env.REDIS_URL !== undefined
      ? connectRedis(env.REDIS_URL, options.logger, env.REDIS_KEY_PREFIX)
      : undefined;
  const redis = options.redis ?? owned;

  // The per-IP count: this instance's own without Redis, and its fallback while Redis is unreachable.
  // Only the Redis keys need the `ip:` namespace (the budget and the caches share the prefix); the
  // memory store is the rule's alone, so a request there builds no key.
  const local = createMemoryRateLimiter();
  const perIp = (store: RateLimiter, name?: string) =>
    createWindowLimit(store, {
      name,
      limit: env.RATE_LIMIT_PER_MINUTE,
      windowSeconds: options.rateLimitWindowMs / 1_000,
      now: options.now,
    });

  // Each client's share of the upstream calls, counted like the per-IP limit (the same fallback).
  const shareLocal = createMemoryRateLimiter();
  const share = (store: RateLimiter, name?: string) =>
    createWindowLimit(store, {
      name,
      limit: env.COINGECKO_CLIENT_CALLS_PER_MINUTE,
      windowSeconds: 60,
      now: options.now,
    });

  let state: Omit<SharedState, "onBudgetRefused" | "close">;
  if (redis === undefined) {
    state = {
      budget: createMemoryBudget(limits, options.now),
      clientShare: share(shareLocal),
      rateLimiter: perIp(local),
      cacheStore: undefined,
    };
  } else {
    const prefix = env.REDIS_KEY_PREFIX;
    state = {
      budget: createRedisBudget(redis, limits, { prefix, now: options.now }),
      clientShare: share(
        createFallbackRateLimiter(createRedisRateLimiter(redis, { prefix }), shareLocal),
        "upstream-share",
      ),
      rateLimiter: perIp(createFallbackRateLimiter(createRedisRateLimiter(redis, { prefix }), local), "ip"),
      cacheStore: createRedisCacheStore(redis, {
        prefix,
        now: options.cacheNow ?? Date.now,
        lockMs: env.UPSTREAM_TIMEOUT_MS + LOCK_MARGIN_MS,
        keepMs: KEEP_STALE_MS,
      }),
    };
  }
  options.logger.info(
    {
      coingeckoCallsPerMinute: limits.perMinute,
      coingeckoCallsPerMonth: limits.perMonth ?? "unlimited",
      coingeckoClientCallsPerMinute: env.COINGECKO_CLIENT_CALLS_PER_MINUTE,
      shared: redis !== undefined,
    },
    redis === undefined ? "upstream budget (this instance)" : "upstream budget (shared through Redis)",
  );
  return {
    ...state,
    onBudgetRefused: createBudgetMetrics(options.registry, state.budget),
    close: async () => {
      if (owned !== undefined) await closeRedis(owned);
    },
  };
}
