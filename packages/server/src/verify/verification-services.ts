import type { RateLimiter } from "@keyport/node-edge";
import { createMemoryRateLimiter, createRedisRateLimiter } from "@keyport/node-edge";
import { Redis } from "ioredis";
import type { Logger } from "pino";
import { type BalanceWriter, createDatabaseBalanceWriter } from "../credits/balance-writer.js";
import type { LiveCredits } from "../credits/overlay-live.js";
import { connectRedisCredits, type RedisCredits } from "../credits/redis-credits-services.js";
import type { Database } from "../db/database.js";
import type { RawQuery } from "../db/raw.js";
import { createRawQuery } from "../db/raw.js";
import type { Env } from "../env.js";
import { loadKeyByHash } from "../keys/load-key-by-hash.js";
import { hashKey, isWellFormedKey } from "../keys/secret.js";
import { errorSummary } from "../logger.js";
import type { ServerMetrics } from "../metrics/server-metrics.js";
import { createFallbackLimitStore } from "../ratelimit/fallback-limits.js";
import type { LimitStore } from "../ratelimit/limit-store.js";
import { createMemoryLimitStore } from "../ratelimit/memory-limits.js";
import { createRedisLimitStore } from "../ratelimit/redis-limits.js";
import { createUsageBuffer, type UsageBuffer } from "../usage/buffer.js";
import { createSqlUsageSink } from "../usage/rollup.js";
import { createKeyCache, type KeyCache } from "./cache.js";
import { type CreditsStore, createCreditsStore } from "./credits-store.js";
import { connectCacheToBus, createInvalidationBus } from "./invalidation.js";
import { createKeyVerifier, type KeyVerifier } from "./verify.js";

/** Everything the hot path runs on, built once per process. */
export interface VerificationServices {
  cache: KeyCache;
  verifier: KeyVerifier;
  /** The fixed-window limiter of nonces, sign-ins and leak reports: in-process, or Redis with REDIS_URL. */
  rateLimiter: RateLimiter;
  /** The keys' and wallets' sliding-window limits: in-process, or Redis (falling back to in-process) with REDIS_URL. */
  limits: LimitStore;
  /** The credit balances verification spends (the database, or Redis with REDIS_URL); introspection reads them. */
  credits: CreditsStore;
  /** Counts verifications; with USAGE_RECORDING=off, a no-op. */
  usage: Pick<UsageBuffer, "record" | "flush" | "close" | "pendingRows">;
  /** How administrative changes (a PATCH of credits) write a balance: with Redis, fenced and reinstalled. */
  balances: BalanceWriter;
  /** With Redis: a balance's live value, for the key answers (PostgreSQL lags by the drain interval). */
  liveCredits: LiveCredits | undefined;
  /** Steps `close()` must take, in this order, after HTTP has drained and before the database closes. */
  shutdownSteps: Array<{ name: string; run: () => Promise<void> }>;
}

const NO_USAGE: VerificationServices["usage"] = {
  record: () => undefined,
  flush: async () => undefined,
  close: async () => undefined,
  pendingRows: 0,
};

/**
 * Builds the key cache, the LISTEN/NOTIFY invalidation bus feeding it, the rate limiter (Redis
 * when REDIS_URL is set, else in-process), the usage buffer writing hourly rollups, and the
 * verifier on top. `shutdownSteps` flush usage first, then stop listening, then quit Redis.
 */
export async function createVerificationServices(
  env: Env,
  database: Database,
  rawQuery: RawQuery,
  logger: Logger,
  metrics: ServerMetrics,
  /** The default plan's id: a key's wallet on no other plan verifies under it (docs/plans.md). */
  defaultPlanId: string | null = null,
): Promise<VerificationServices> {
  const cache = createKeyCache({ max: env.KEY_CACHE_MAX, ttlMs: env.KEY_CACHE_TTL_MS });
  const bus = await createInvalidationBus(database.driver);
  connectCacheToBus(cache, bus);

  let redis: Redis | undefined;
  let rateLimiter: RateLimiter;
  let limits: LimitStore;
  if (env.REDIS_URL !== undefined) {
    redis = new Redis(env.REDIS_URL, { enableAutoPipelining: true, lazyConnect: true });
    redis.on("error", (error: unknown) => logger.warn({ err: errorSummary(error) }, "redis error"));
    // Unreachable at start: the server starts anyway (plain keys work; metered ones answer 503)
    // and the client keeps reconnecting.
    await redis.connect().catch(() => undefined);
    rateLimiter = createRedisRateLimiter(redis, { prefix: env.REDIS_KEY_PREFIX });
    // Limits keep counting in this process while Redis cannot answer (docs/verifying-keys.md#when-redis-is-down).
    let warnedAt = 0;
    limits = createFallbackLimitStore(
      createRedisLimitStore(redis, { prefix: env.REDIS_KEY_PREFIX }),
      createMemoryLimitStore(),
      (error) => {
        const now = Date.now();
        if (now - warnedAt < 60_000) return;
        warnedAt = now;
        logger.warn({ err: errorSummary(error) }, "rate limits counted in this process: Redis unavailable");
      },
    );
  } else {
    rateLimiter = createMemoryRateLimiter();
    limits = createMemoryLimitStore();
  }

  // The spend runs on every metered verification: prepared, it is planned once per connection.
  let credits: CreditsStore = createCreditsStore(createRawQuery(database.driver, { prepare: true }));
  let balances: BalanceWriter = createDatabaseBalanceWriter();
  let liveCredits: LiveCredits | undefined;
  let redisCredits: RedisCredits | undefined;
  if (env.REDIS_URL !== undefined) {
    redisCredits = await connectRedisCredits({
      url: env.REDIS_URL,
      prefix: env.REDIS_KEY_PREFIX,
      drainIntervalMs: env.CREDITS_DRAIN_INTERVAL_MS,
      database,
      rawQuery,
      logger,
      metrics: metrics.credits,
    });
    ({ credits, balances, liveCredits } = redisCredits);
  }

  const usage =
    env.USAGE_RECORDING === "on"
      ? createUsageBuffer({
          sink: metrics.usage.countFlushes(createSqlUsageSink((text, params) => rawQuery(text, params))),
          flushIntervalMs: env.USAGE_FLUSH_INTERVAL_MS,
          onError: (error) => logger.error({ err: errorSummary(error) }, "usage flush failed; will retry"),
        })
      : NO_USAGE;

  const verifier = createKeyVerifier({
    isWellFormed: (key) => isWellFormedKey(key, env.KEY_PREFIX),
    hashKey,
    loadKeyByHash: (hash) => loadKeyByHash(database.db, hash, defaultPlanId),
    cache,
    limits,
    credits,
    usage,
    metrics: metrics.verifier,
  });

  const shutdownSteps: VerificationServices["shutdownSteps"] = [
    { name: "usage flush", run: () => usage.close() },
    { name: "invalidation bus", run: () => bus.close() },
  ];
  const closeCredits = redisCredits?.close;
  if (closeCredits !== undefined) shutdownSteps.push({ name: "credits drain", run: closeCredits });
  const client = redis;
  if (client !== undefined) {
    shutdownSteps.push({
      name: "redis",
      run: async () => {
        await client.quit();
      },
    });
  }
  return { cache, verifier, rateLimiter, limits, credits, usage, balances, liveCredits, shutdownSteps };
}
