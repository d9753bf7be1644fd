import { Redis } from "ioredis";
import type { Logger } from "pino";

/**
 * Opens the proxy's Redis client for `REDIS_URL`. Commands fail fast while Redis is down (one
 * retry, 1 s timeout) instead of queueing, so a request never hangs on it: the callers then answer
 * from this instance (its cache copies, its own per-IP count) or refuse to spend the budget.
 * Errors are logged by name only (a message can quote the URL, which may hold a password). The
 * connection is named after the key prefix (`CLIENT LIST` shows `<prefix>dashboard-proxy`).
 */
export function connectRedis(url: string, logger: Logger, prefix = ""): Redis {
  const redis = new Redis(url, {
    // Redis refuses a name with spaces or newlines; anything odd in the prefix becomes "_".
    connectionName: `${prefix}dashboard-proxy`.replace(/[^\w:.-]/g, "_"),
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

/**
 * Closes a client the proxy opened: QUIT, so Redis sees a clean goodbye once the replies to every
 * command sent are in; if that fails (Redis down), the socket is dropped instead.
 */
export async function closeRedis(redis: Redis): Promise<void> {
  try {
    await redis.quit();
  } catch {
    redis.disconnect();
  }
}
