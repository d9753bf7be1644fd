import { Redis } from "ioredis";
import type { Logger } from "pino";

/**
 * Opens the proxy's Redis client for `REDIS_URL`. Commands fail fast while Redis is down (one
 * retry, 1 s timeout) instead of queueing, so a request never hangs on it: the callers then answer
 * from this instance (its cache copies, its own per-IP count) or refuse to spend the budget.
 * Errors are logged by name only (a message can quote the URL, which may hold a password).
 */
export function connectRedis(url: string, logger: Logger): Redis {
  const redis = new Redis(url, {
    enableAutoPipelining: true,
    maxRetriesPerRequest: 1,
    commandTimeout: 1_000,
    connectTimeout: 2_000,
  });
  let lastLogged = 0;
  redis.on("error", (error: unknown) => {
    // ioredis reports every reconnect attempt; once every 10 s is enough for an operator.
    const at = Date.now();
    if (at - lastLogged < 10_000) return;
    lastLogged = at;
    logger.warn({ error: errorCode(error) }, "redis unreachable");
  });
  return redis;
}

function errorCode(error: unknown): string {
  if (!(error instanceof Error)) return "unknown";
  return "code" in error && typeof error.code === "string" ? error.code : error.name;
}
