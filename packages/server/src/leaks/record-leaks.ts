import { and, inArray, isNull, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/database.js";
import { type ApiKeyRow, apiKeys, keyEvents } from "../db/schema/index.js";
import { type EventChanges, keyLeakedChanges } from "../events/changes.js";
import { loadCredits } from "../keys/key-credits.js";
import { hashKey, isWellFormedKey } from "../keys/secret.js";
import type { KeyChanges } from "../verify/announce-key-changes.js";
import { enqueueWebhookSql } from "../webhooks/enqueue.js";
import { keyEventData } from "../webhooks/key-event.js";

/** One token a scanner (or the key's holder) found in public. */
export interface LeakedToken {
  token: string;
  /** Where it was found; null for a self-report. */
  url: string | null;
  /** Who reported it (`github:content`, `gitlab`, `self-report`, ...). */
  source: string;
}

/** What a batch of reports did. */
export interface LeakOutcome {
  /** Hashes (hex SHA-256) of the tokens that are or were Keyport keys. */
  known: ReadonlySet<string>;
  /** Keys this batch revoked (they were active, expired or in a roll's grace period). */
  revoked: number;
  /** Keys this batch recorded as leaked (`revoked` plus keys already revoked, reported for the first time). */
  recorded: number;
}

/**
 * Revokes every key among `tokens` and records one `key.leaked` event per key, the first time it is
 * reported: one lookup for all the hashes, then (when a key is new to leak reports) one transaction
 * with one UPDATE, one INSERT of the events, the `key.leaked` webhooks (one statement a key) and one
 * NOTIFY statement, announced through `changes` as a revoke is, so every instance refuses the keys
 * within about a second. A key already revoked keeps its
 * `revokedAt` and gets its leak recorded once; a key reported before records nothing (a replay is a
 * no-op). Tokens that are not well-formed keys of `prefix` never reach the database.
 * @example const outcome = await recordLeaks(db, changes, "kp", [{ token, url, source: "github:content" }], new Date());
 */
export async function recordLeaks(
  db: Db,
  changes: KeyChanges,
  prefix: string,
  tokens: readonly LeakedToken[],
  now: Date,
): Promise<LeakOutcome> {
  // The first report of a token in the batch wins; its hash is what is stored.
  const reports = new Map<string, { url: string | null; source: string }>();
  for (const { token, url, source } of tokens) {
    if (!isWellFormedKey(token, prefix)) continue;
    const hash = hashKey(token);
    if (!reports.has(hash)) reports.set(hash, { url, source });
  }
  if (reports.size === 0) return { known: new Set(), revoked: 0, recorded: 0 };
  const found = await db
    .select({
      id: apiKeys.id,
      hash: apiKeys.hash,
      revokedAt: apiKeys.revokedAt,
      reportedAt: apiKeys.leakReportedAt,
    })
    .from(apiKeys)
    .where(inArray(apiKeys.hash, [...reports.keys()]));
  const known = new Set(found.map((row) => row.hash));
  const fresh = found.filter((row) => row.reportedAt === null);
  if (fresh.length === 0) return { known, revoked: 0, recorded: 0 };
  const wasLive = new Set(
    fresh.filter((row) => row.revokedAt === null || row.revokedAt > now).map((row) => row.id),
  );
  const details = sql`${JSON.stringify(Object.fromEntries(reports))}::jsonb -> ${apiKeys.hash}`;
  const at = now.toISOString();
  const recorded = await changes.transaction(db, async (tx, keyChanged) => {
    // `leak_reported_at is null` again under the row lock: of two reports racing, one records.
    const rows = await tx
      .update(apiKeys)
      .set({
        revokedAt: sql`least(coalesce(${apiKeys.revokedAt}, ${at}::timestamptz), ${at}::timestamptz)`,
        leakUrl: sql`(${details}) ->> 'url'`,
        leakSource: sql`(${details}) ->> 'source'`,
        leakReportedAt: now,
      })
      .where(
        and(
          inArray(
            apiKeys.id,
            fresh.map((row) => row.id),
          ),
          isNull(apiKeys.leakReportedAt),
        ),
      )
      .returning();
    if (rows.length === 0) return rows;
    const events = rows.map((row) => ({
      wallet: row.wallet,
      keyId: row.id,
      action: "key.leaked" as const,
      at: now,
      changes: keyLeakedChanges({
        url: row.leakUrl,
        source: row.leakSource ?? "",
        revokedAt: row.revokedAt ?? now,
      }),
    }));
    await tx.insert(keyEvents).values(events);
    await enqueueLeakWebhooks(tx, rows, events);
    await keyChanged(rows.map((row) => row.id));
    return rows;
  });
  return {
    known,
    revoked: recorded.filter((row) => wasLive.has(row.id)).length,
    recorded: recorded.length,
  };
}

/** One `key.leaked` webhook per key the batch recorded (docs/webhooks.md), in the batch's transaction. */
async function enqueueLeakWebhooks(
  tx: Tx,
  rows: readonly ApiKeyRow[],
  events: readonly { wallet: string; keyId: string; at: Date; changes: EventChanges }[],
): Promise<void> {
  const credits = await loadCredits(tx, rows);
  for (const [index, row] of rows.entries()) {
    const event = events[index];
    if (event === undefined) continue;
    const balance = row.creditsId === null ? undefined : credits.get(row.creditsId);
    await tx.execute(
      enqueueWebhookSql({
        wallet: event.wallet,
        type: "key.leaked",
        keyId: row.id,
        at: event.at,
        data: keyEventData(row, balance, event.at, event.changes),
      }),
    );
  }
}
