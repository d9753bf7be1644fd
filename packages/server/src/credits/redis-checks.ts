import type { Redis } from "ioredis";
import type { Logger } from "pino";

/** CONFIG GET's answer as a map; null when CONFIG is refused (managed Redis). */
async function readConfig(redis: Redis, name: string): Promise<string | null> {
  try {
    const reply = await redis.config("GET", name);
    return Array.isArray(reply) && typeof reply[1] === "string" ? reply[1] : null;
  } catch {
    return null;
  }
}

/**
 * Warns once when Redis's settings cannot keep credits exact (docs/operations.md): without an AOF
 * fsynced on every write, a Redis crash loses the last spends (they were admitted); with eviction,
 * a journal or balance can be evicted. Says nothing when CONFIG is refused.
 * @example redis.once("ready", () => void warnAboutRedisDurability(redis, logger));
 */
export async function warnAboutRedisDurability(redis: Redis, logger: Logger): Promise<void> {
  const [appendonly, appendfsync, policy] = await Promise.all([
    readConfig(redis, "appendonly"),
    readConfig(redis, "appendfsync"),
    readConfig(redis, "maxmemory-policy"),
  ]);
  if ((appendonly !== null && appendonly !== "yes") || (appendfsync !== null && appendfsync !== "always")) {
    logger.warn(
      { appendonly, appendfsync },
      "exact credits across a Redis crash need appendonly yes with appendfsync always (or replicas acknowledged with WAIT)",
    );
  }
  if (policy !== null && policy !== "noeviction") {
    logger.warn(
      { maxmemoryPolicy: policy },
      "Redis may evict keys: credits need maxmemory-policy noeviction",
    );
  }
}
