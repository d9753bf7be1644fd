import { Redis } from "ioredis";
import type { Logger } from "pino";
import type { Database } from "../db/database.js";
import type { RawQuery } from "../db/raw.js";
import { createRawTransaction } from "../db/raw-transaction.js";
import { errorSummary } from "../logger.js";
import type { CreditsMetrics } from "../metrics/credits.js";
import type { CreditsStore } from "../verify/credits-store.js";
import { type BalanceWriter, createRedisBalanceWriter } from "./balance-writer.js";
import { startDrainLoop } from "./drain-loop.js";
import { createCreditsDrainer } from "./drainer.js";
import { createCreditsLayout } from "./layout.js";
import type { LiveCredits } from "./overlay-live.js";
import { warnAboutRedisDurability } from "./redis-checks.js";
import { createRedisCreditsStore } from "./redis-credits-store.js";

/** The credits over Redis, as the verification services use them. */
export interface RedisCredits {
  credits: CreditsStore;
  balances: BalanceWriter;
  liveCredits: LiveCredits;
  /** Stops the drain loop after a last full drain, then closes the connection. */
  close(): Promise<void>;
}

/**
 * Connects the credits' own Redis client and starts this instance's drainer
 * (docs/verifying-keys.md#credits-with-redis). The client never queues or resends a command: while
 * Redis cannot answer, a spend fails at once (503), and a spend whose reply was lost is never run a
 * second time on reconnect. Redis unreachable at start is logged, not fatal.
 * @example const redisCredits = await connectRedisCredits({ url, prefix, drainIntervalMs, database, rawQuery, logger, metrics });
 */
export async function connectRedisCredits(options: {
  url: string;
  prefix: string;
  drainIntervalMs: number;
  database: Database;
  rawQuery: RawQuery;
  logger: Logger;
  metrics: CreditsMetrics;
}): Promise<RedisCredits> {
  const { logger, metrics } = options;
  const redis = new Redis(options.url, {
    enableAutoPipelining: true,
    lazyConnect: true,
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: 0,
  });
  redis.on("error", (error: unknown) => logger.warn({ err: errorSummary(error) }, "credits redis error"));
  redis.once("ready", () => void warnAboutRedisDurability(redis, logger));
  await redis.connect().catch((error: unknown) => {
    logger.warn(
      { err: errorSummary(error) },
      "redis unreachable at start; metered keys answer 503 until it answers",
    );
  });

  const layout = createCreditsLayout(options.prefix);
  const store = createRedisCreditsStore(redis, options.rawQuery, { layout });
  let overdrawn = false;
  const drainer = createCreditsDrainer({
    redis,
    transaction: createRawTransaction(options.database.driver),
    layout,
    onOverdraw: () => {
      if (overdrawn) return;
      overdrawn = true;
      logger.error(
        "credits journal replay went below 0 (clamped at 0); the Redis balance and PostgreSQL disagreed",
      );
    },
  });
  let failing = false;
  const ready = () => redis.status === "ready";
  const loop = startDrainLoop(drainer, options.drainIntervalMs, {
    ready,
    onError: (error) => {
      if (failing) return;
      failing = true;
      logger.warn({ err: errorSummary(error) }, "credits drain failed; retrying");
    },
    onDrained: (applied) => {
      failing = false;
      metrics.drained(applied);
    },
  });
  metrics.watchJournal(async () => (ready() ? drainer.pending() : 0));

  return {
    credits: store,
    balances: createRedisBalanceWriter(redis, { layout }),
    liveCredits: store.live,
    async close() {
      await loop.stop();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
