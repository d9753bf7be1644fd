import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/database.js";
import { preparePerDatabase } from "../db/prepared.js";
import { sessions } from "../db/schema/index.js";
import { sessionCreatedChanges, sessionEndedChanges } from "../events/changes.js";
import { insertEventSql } from "../events/record-event.js";
import { randomBase62 } from "../keys/base62.js";
import { hashKey } from "../keys/secret.js";
import type { SessionMemo } from "./session-memo.js";

const TOKEN_PREFIX = "kps_";

/**
 * A new session token: `kps_` + 32 base62 characters. Only its SHA-256 is stored. The session ends
 * after `ttlSeconds`, or at `notAfter` when that comes first. The session and its `session.created`
 * event are inserted by one statement: neither is stored without the other.
 */
export async function createSession(
  db: Db,
  wallet: string,
  ttlSeconds: number,
  notAfter?: Date,
  now = new Date(),
) {
  const token = TOKEN_PREFIX + randomBase62(32);
  const ttlEnd = now.getTime() + ttlSeconds * 1000;
  const expiresAt = new Date(notAfter === undefined ? ttlEnd : Math.min(ttlEnd, notAfter.getTime()));
  const columns = [sessions.tokenHash, sessions.wallet, sessions.createdAt, sessions.expiresAt];
  const event = { wallet, keyId: null, action: "session.created" as const, at: now };
  await db.execute(
    sql`with s as (insert into ${sessions} (${sql.join(
      columns.map((column) => sql.identifier(column.name)),
      sql`, `,
    )}) values (${hashKey(token)}, ${wallet}, ${now.toISOString()}, ${expiresAt.toISOString()}) returning 1) ${insertEventSql(
      { ...event, changes: sessionCreatedChanges(expiresAt) },
      sql.identifier("s"),
    )}`,
  );
  return { token, expiresAt };
}

/** What a live session's token stands for. */
export interface LiveSession {
  wallet: string;
  expiresAt: Date;
}

// Every authenticated request runs this lookup.
const sessionLookup = preparePerDatabase((db) =>
  db
    .select({ wallet: sessions.wallet, expiresAt: sessions.expiresAt })
    .from(sessions)
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder("hash")),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql.placeholder("now")),
      ),
    )
    .limit(1)
    .prepare("session_lookup"),
);

/**
 * The wallet and end of a live (unexpired, not logged out) session, or null. With a `memo` (the
 * embedded database), a session it remembers is answered without a lookup.
 */
export async function findSession(
  db: Db,
  token: string,
  now = new Date(),
  memo?: SessionMemo,
): Promise<LiveSession | null> {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 100) return null;
  const hash = hashKey(token);
  const remembered = memo?.recall(hash, now);
  if (remembered !== undefined) return remembered;
  const startedIn = memo?.generation() ?? 0;
  const [row] = await sessionLookup(db).execute({ hash, now: now.toISOString() });
  if (row === undefined) return null;
  memo?.remember(hash, row, startedIn);
  return row;
}

/**
 * Ends a session; later requests with its token get 401. The session's wallet gets a
 * `session.ended` event from the same statement, only when this call ended it.
 */
export async function revokeSession(
  db: Db,
  wallet: string,
  token: string,
  now = new Date(),
  memo?: SessionMemo,
): Promise<void> {
  const hash = hashKey(token);
  const ended = db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.tokenHash, hash), eq(sessions.wallet, wallet), isNull(sessions.revokedAt)))
    .returning({ wallet: sessions.wallet });
  const event = { wallet, keyId: null, action: "session.ended" as const, at: now };
  try {
    await db.execute(
      sql`with s as (${ended.getSQL()}) ${insertEventSql({ ...event, changes: sessionEndedChanges() }, sql.identifier("s"))}`,
    );
  } finally {
    memo?.forget(hash);
  }
}
