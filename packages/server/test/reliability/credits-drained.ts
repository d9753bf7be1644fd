import { Redis } from "ioredis";
import type postgres from "postgres";

/** What the two stores hold for one balance once nothing moves any more. */
export interface Drained {
  /** The balance PostgreSQL holds. */
  remaining: number;
  /** Journal entries still in Redis (every stream on the test's own Redis). */
  undrained: number;
  /** How long the wait took. */
  waitedMs: number;
}

/** The balance of key `keyId` as PostgreSQL holds it (the row its `credits_id` names). */
export async function remainingInPostgres(sql: postgres.Sql, keyId: string): Promise<number> {
  const rows =
    await sql`select c.remaining from key_credits c join api_keys k on k.credits_id = c.id where k.id = ${keyId}`;
  const remaining: unknown = rows[0]?.remaining;
  if (remaining === undefined) throw new Error(`no credit balance for key ${keyId}`);
  return Number(remaining);
}

/** Entries in every stream of the Redis at `url` (a Redis of the test's own: its streams are the journal). */
export async function journalLength(url: string): Promise<number> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false });
  try {
    await redis.connect();
    let total = 0;
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "COUNT", 1_000, "TYPE", "stream");
      cursor = next;
      for (const key of keys) total += await redis.xlen(key);
    } while (cursor !== "0");
    return total;
  } finally {
    redis.disconnect();
  }
}

/**
 * Waits until the journal is empty and PostgreSQL's balance has not changed for `quietMs`: the
 * surviving instances' drainers have applied everything Redis admitted.
 */
export async function waitUntilDrained(
  read: () => Promise<{ remaining: number; undrained: number }>,
  options: { quietMs?: number; timeoutMs?: number } = {},
): Promise<Drained> {
  const quietMs = options.quietMs ?? 1_000;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const started = Date.now();
  let last = await read();
  let since = Date.now();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = await read();
    if (now.remaining !== last.remaining || now.undrained !== 0) since = Date.now();
    last = now;
    if (Date.now() - since >= quietMs) return { ...now, waitedMs: Date.now() - started };
    if (Date.now() - started > timeoutMs)
      throw new Error(`not drained within ${timeoutMs} ms: ${JSON.stringify(now)}`);
  }
}
