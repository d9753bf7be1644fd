import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";

/** Redis for the shared-state tests; unset, those tests are skipped (CI sets it, see .ci/run). */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;

/** A Redis namespace of one test's own, emptied by `cleanup`. */
export interface TestRedis {
  /** `REDIS_KEY_PREFIX` for the proxies of this test. */
  prefix: string;
  /** A new client (one per proxy instance: instances share Redis, not a connection). */
  client(): Redis;
  /** Deletes every key under `prefix` and quits the clients. */
  cleanup(): Promise<void>;
}

/** Opens a namespace `keyport:test:<random>:` on `url`. */
export function openTestRedis(url: string): TestRedis {
  const prefix = `keyport:test:${randomBytes(6).toString("hex")}:`;
  const clients: Redis[] = [];
  return {
    prefix,
    client() {
      const redis = new Redis(url, { enableAutoPipelining: true, maxRetriesPerRequest: 1 });
      clients.push(redis);
      return redis;
    },
    async cleanup() {
      const admin = new Redis(url);
      try {
        let cursor = "0";
        do {
          const [next, keys] = await admin.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
          if (keys.length > 0) await admin.del(...keys);
          cursor = next;
        } while (cursor !== "0");
      } finally {
        await Promise.all([admin, ...clients].map((client) => client.quit().catch(() => {})));
      }
    },
  };
}
