import { and, asc, getTableColumns, gt, isNull, lte, type SQL, sql } from "drizzle-orm";
import type { Db } from "../db/database.js";
import { apiKeys, webhookMessages, webhooks } from "../db/schema/index.js";
import type { EventChanges } from "../events/changes.js";
import { loadCredits } from "../keys/key-credits.js";
import { enqueueWebhookSql } from "./enqueue.js";
import { keyEventData } from "./key-event.js";

const DAY_MS = 86_400_000;

/** Which notice a key is due: 7 days before its expiry, 1 day before, or the expiry itself. */
type ExpiryNotice = "7d" | "1d" | "expired";

function isNotice(value: string): value is ExpiryNotice {
  return value === "7d" || value === "1d" || value === "expired";
}

/** How one sweeper looks for due notices. */
export interface ExpiryEventsOptions {
  /**
   * How far back the first sweep of a process looks for keys that expired (default 1 day), so a
   * restart or a short outage still sends `key.expired`; later sweeps start where the last ended.
   */
  firstLookbackMs?: number;
  /** Keys one sweep handles at most (default 500); the rest wait for the next sweep. */
  batchSize?: number;
}

/** One instance's sweeper of `key.expiring` and `key.expired` (docs/webhooks.md, Events). */
export interface ExpiryEvents {
  /** Enqueues every notice due at `now` not sent before; returns how many it wrote. */
  sweep(now: Date): Promise<number>;
}

/**
 * The time-based key events. Every instance runs one; each notice exists once, by its outbox dedupe
 * key (`key.expiring:7d:<keyId>:<expiresAt ms>`, `key.expiring:1d:...`, `key.expired:<keyId>:<ms>`),
 * so a key given a new expiry is noticed again, and two instances sweeping at once write it once.
 * A sweep reads only keys of wallets with an enabled endpoint subscribed to the notice's type,
 * not revoked (a rolled key's revocation comes at or before its expiry), whose expiry lies between
 * the previous sweep and `now` + 7 days (the index api_keys_expiry_idx), and whose notice is not in
 * the outbox yet. A key is due the latest notice it has reached: a key created within a day of its
 * expiry gets the 1-day notice, never the 7-day one after the fact.
 */
export function createExpiryEvents(db: Db, options: ExpiryEventsOptions = {}): ExpiryEvents {
  const batchSize = options.batchSize ?? 500;
  const firstLookbackMs = options.firstLookbackMs ?? DAY_MS;
  let since: Date | undefined;

  return {
    async sweep(now) {
      const from = since ?? new Date(now.getTime() - firstLookbackMs);
      const due = await dueNotices(db, from, now, batchSize);
      const credits = await loadCredits(
        db,
        due.map((candidate) => candidate.row),
      );
      let written = 0;
      for (const { row, notice, dedupeKey } of due) {
        const expiresAt = row.expiresAt?.toISOString() ?? null;
        const balance = row.creditsId === null ? undefined : credits.get(row.creditsId);
        const changes: EventChanges = notice === "expired" ? { expiresAt } : { expiresAt, notice };
        await db.execute(
          enqueueWebhookSql({
            wallet: row.wallet,
            type: notice === "expired" ? "key.expired" : "key.expiring",
            keyId: row.id,
            at: now,
            data: keyEventData(row, balance, now, changes),
            dedupeKey,
          }),
        );
        written++;
      }
      // A full batch may have left keys that expired before `now`: the next sweep starts here again.
      if (due.length < batchSize) since = now;
      return written;
    },
  };
}

/** The notices due at `now` for keys expiring after `from`, not yet in the outbox, oldest expiry first. */
async function dueNotices(db: Db, from: Date, now: Date, limit: number) {
  const rows = await dueNoticesQuery(db, from, now, limit);
  return rows.flatMap(({ row, notice: value, dedupeKey: key }) =>
    isNotice(value) ? [{ row, notice: value, dedupeKey: key }] : [],
  );
}

/** The sweep's one read (exported for the plan check in test/webhooks-expiry-plan.test.ts). */
export function dueNoticesQuery(db: Db, from: Date, now: Date, limit: number) {
  const nowAt = sql`${now.toISOString()}::timestamptz`;
  const dayAhead = sql`${new Date(now.getTime() + DAY_MS).toISOString()}::timestamptz`;
  const notice = sql`(case when ${apiKeys.expiresAt} <= ${nowAt} then 'expired' when ${apiKeys.expiresAt} <= ${dayAhead} then '1d' else '7d' end)`;
  const type = sql`(case when ${apiKeys.expiresAt} <= ${nowAt} then 'key.expired' else 'key.expiring' end)`;
  // Milliseconds, as `expiresAt` is stored (precision 3): a new expiry is a new notice.
  const ms = sql`(extract(epoch from ${apiKeys.expiresAt}) * 1000)::bigint::text`;
  const dedupeKey: SQL<string> = sql<string>`(case when ${apiKeys.expiresAt} <= ${nowAt} then 'key.expired:' || ${apiKeys.id} || ':' || ${ms} else 'key.expiring:' || ${notice} || ':' || ${apiKeys.id} || ':' || ${ms} end)`;
  return db
    .select({ row: getTableColumns(apiKeys), notice: sql<string>`${notice}`, dedupeKey })
    .from(apiKeys)
    .where(
      and(
        isNull(apiKeys.revokedAt),
        gt(apiKeys.expiresAt, from),
        lte(apiKeys.expiresAt, new Date(now.getTime() + 7 * DAY_MS)),
        // The wallets with an endpoint for either notice lead (an equality the planner can drive the
        // index from); the exact check per notice type follows.
        sql`${apiKeys.wallet} in (select ${webhooks.wallet} from ${webhooks} where ${webhooks.enabled} and ${webhooks.events} && array['key.expiring', 'key.expired']::text[])`,
        sql`exists (select 1 from ${webhooks} where ${webhooks.wallet} = ${apiKeys.wallet} and ${webhooks.enabled} and ${type} = any(${webhooks.events}))`,
        sql`not exists (select 1 from ${webhookMessages} where ${webhookMessages.dedupeKey} = ${dedupeKey})`,
      ),
    )
    .orderBy(asc(apiKeys.expiresAt))
    .limit(limit);
}
