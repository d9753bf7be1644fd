import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { Redis } from "ioredis";
import { afterAll, beforeAll } from "vitest";
import {
  type BalanceChange,
  type BalanceWriter,
  createRedisBalanceWriter,
  type WrittenBalance,
} from "../../src/credits/balance-writer.js";
import { type CreditsDrainer, createCreditsDrainer } from "../../src/credits/drainer.js";
import { type CreditsLayout, createCreditsLayout } from "../../src/credits/layout.js";
import { createRedisCreditsStore, type RedisCreditsStore } from "../../src/credits/redis-credits-store.js";
import { createDatabase, type Database } from "../../src/db/database.js";
import { createRawQuery, type RawQuery } from "../../src/db/raw.js";
import { createRawTransaction } from "../../src/db/raw-transaction.js";
import { keyCredits } from "../../src/db/schema/index.js";
import { creditsValues } from "../../src/keys/key-credits.js";
import type { CreditsRefill } from "../../src/schemas/key-policy.js";
import { createPostgresTestDatabase } from "./databases.js";

/** PostgreSQL and Redis of a credits test, and builders of the pieces under test over them. */
export interface CreditsWorld {
  readonly database: Database;
  readonly redis: Redis;
  readonly layout: CreditsLayout;
  readonly query: RawQuery;
  store(options?: { query?: RawQuery; fenceWaitMs?: number }): RedisCreditsStore;
  drainer(options?: { batchSize?: number }): CreditsDrainer;
  writer(options?: { fenceTtlMs?: number }): BalanceWriter;
  /** Creates a balance in PostgreSQL set at `at`, with `purchased` credits (default 0). */
  balance(remaining: number, refill: CreditsRefill | null, at: number, purchased?: number): Promise<string>;
  /** PostgreSQL's row of a balance. */
  stored(
    id: string,
  ): Promise<{ remaining: number; purchased: number; refilledAt: Date | null; version: number }>;
  /** Changes a balance through `writer` in its own transaction; `install: false` commits and never installs (a crash). */
  change(
    writer: BalanceWriter,
    id: string,
    change: BalanceChange,
    at: number,
    options?: { install?: boolean },
  ): Promise<WrittenBalance>;
  /** Removes every Redis key of this world (its prefix). */
  flushRedis(): Promise<void>;
}

/**
 * A fresh PostgreSQL database and a Redis key prefix of its own for one test file (removed after).
 * @example const world = useCreditsWorld(TEST_DATABASE_URL, TEST_REDIS_URL); it("...", async () => { world().store() });
 */
export function useCreditsWorld(adminUrl: string, redisUrl: string): () => CreditsWorld {
  let world: CreditsWorld | undefined;
  let drop: (() => Promise<void>) | undefined;
  let n = 0;
  beforeAll(async () => {
    const created = await createPostgresTestDatabase(adminUrl);
    drop = created.drop;
    const database = await createDatabase(created.url, "");
    const redis = new Redis(redisUrl, { enableAutoPipelining: true });
    await redis.ping();
    const prefix = `keyport:test:${randomBytes(6).toString("hex")}:`;
    const layout = createCreditsLayout(prefix);
    const query = createRawQuery(database.driver);
    const transaction = createRawTransaction(database.driver);
    world = {
      database,
      redis,
      layout,
      query,
      store: (options = {}) =>
        createRedisCreditsStore(redis, options.query ?? query, {
          layout,
          ...(options.fenceWaitMs === undefined ? {} : { fenceWaitMs: options.fenceWaitMs }),
        }),
      drainer: (options = {}) => createCreditsDrainer({ redis, transaction, layout, ...options }),
      writer: (options = {}) => createRedisBalanceWriter(redis, { layout, ...options }),
      async balance(remaining, refill, at, purchased = 0) {
        const id = `cr_${n++}_${randomBytes(3).toString("hex")}`;
        await database.db
          .insert(keyCredits)
          .values({ id, ...creditsValues({ remaining, refill }, new Date(at)), purchased });
        return id;
      },
      async stored(id) {
        const [row] = await database.db.select().from(keyCredits).where(eq(keyCredits.id, id));
        if (!row) throw new Error(`no balance ${id}`);
        return {
          remaining: row.remaining,
          purchased: row.purchased,
          refilledAt: row.refilledAt,
          version: row.version,
        };
      },
      async change(writer, id, change, at, { install = true } = {}) {
        let written: WrittenBalance | undefined;
        try {
          await database.db.transaction(async (tx) => {
            written = await writer.write(tx, id, change, new Date(at));
            await written.beforeCommit();
          });
        } catch (error) {
          await written?.settle(false);
          throw error;
        }
        if (!written) throw new Error("nothing written");
        if (install) await written.settle(true);
        return written;
      },
      async flushRedis() {
        const keys = await redis.keys(`${prefix}*`);
        if (keys.length > 0) await redis.del(...keys);
      },
    };
  });
  afterAll(async () => {
    await world?.flushRedis();
    world?.redis.disconnect();
    await world?.database.close();
    await drop?.();
  });
  return () => {
    if (!world) throw new Error("the credits world exists inside hooks and tests only");
    return world;
  };
}
