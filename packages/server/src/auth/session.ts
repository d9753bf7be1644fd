import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/database.js";
import { preparePerDatabase } from "../db/prepared.js";
import { sessions } from "../db/schema/index.js";
import { sessionCreatedChanges, sessionEndedChanges } from "../events/changes.js";
import { insertEventSql } from "../events/record-event.js";
import { randomBase62 } from "../keys/base62.js";
import { hashKey } from "../keys/secret.js";
import { seenWalletSql } from "../wallets/seen-wallet.js";
import type { LastSeenTracker } from "./last-seen.js";
import type { SessionMemo } from "./session-memo.js";

const TOKEN_PREFIX = "kps_";
const SESSION_ID_PREFIX = "ses_";

/** Where a sign-in came from, recorded with its session (docs/api.md#sessions). */
export interface SignInOrigin {
  /** The browser's `User-Agent`, already bounded (see `boundUserAgent`); null when none was sent. */
  userAgent: string | null;
  /** The client's address; null when unknown. */
  ip: string | null;
}

const UNKNOWN_ORIGIN: SignInOrigin = { userAgent: null, ip: null };

/**
 * A new session token: `kps_` + 32 base62 characters. Only its SHA-256 is stored, beside a public id
 * (`ses_` + 22 base62 characters) and where the sign-in came from. The session ends after
 * `ttlSeconds`, or at `notAfter` when that comes first. The session and its `session.created` event
 * are inserted by one statement, with the wallet's sign-in time (wallets/seen-wallet.ts): none is
 * stored without the others.
 */
export async function createSession(
  db: Db,
  wallet: string,
  ttlSeconds: number,
  notAfter?: Date,
  now = new Date(),
  origin: SignInOrigin = UNKNOWN_ORIGIN,
) {
  const token = TOKEN_PREFIX + randomBase62(32);
  const id = SESSION_ID_PREFIX + randomBase62(22);
  const ttlEnd = now.getTime() + ttlSeconds * 1000;
  const expiresAt = new Date(notAfter === undefined ? ttlEnd : Math.min(ttlEnd, notAfter.getTime()));
  const columns = [
    sessions.tokenHash,
    sessions.id,
    sessions.wallet,
    sessions.createdAt,
    sessions.lastSeenAt,
    sessions.expiresAt,
    sessions.userAgent,
    sessions.ip,
  ];
  const event = { wallet, keyId: null, action: "session.created" as const, at: now };
  await db.execute(
    sql`with s as (insert into ${sessions} (${sql.join(
      columns.map((column) => sql.identifier(column.name)),
      sql`, `,
    )}) values (${hashKey(token)}, ${id}, ${wallet}, ${now.toISOString()}, ${now.toISOString()}, ${expiresAt.toISOString()}, ${origin.userAgent}, ${origin.ip}) returning 1), w as (${seenWalletSql({ wallet: sql`${wallet}::text`, at: sql`${now.toISOString()}::timestamptz`, signedIn: true })}) ${insertEventSql(
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
  /** As the lookup read it (a remembered session's may be older: see auth/last-seen.ts). */
  lastSeenAt: Date;
}

// Every authenticated request runs this lookup.
const sessionLookup = preparePerDatabase((db) =>
  db
    .select({ wallet: sessions.wallet, expiresAt: sessions.expiresAt, lastSeenAt: sessions.lastSeenAt })
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

/** The SHA-256 a session token is stored under, or null for a string that is no session token. */
export function sessionTokenHash(token: string): string | null {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 100) return null;
  return hashKey(token);
}

/**
 * The wallet and end of a live (unexpired, not logged out) session, or null. With a `memo` (the
 * embedded database), a session it remembers is answered without a lookup. With `lastSeen`, the
 * session's `last_seen_at` is brought up to date (at most one write a minute a session).
 */
export async function findSession(
  db: Db,
  token: string,
  now = new Date(),
  memo?: SessionMemo,
  lastSeen?: LastSeenTracker,
): Promise<LiveSession | null> {
  const hash = sessionTokenHash(token);
  if (hash === null) return null;
  let session = memo?.recall(hash, now);
  if (session === undefined) {
    const startedIn = memo?.generation() ?? 0;
    const [row] = await sessionLookup(db).execute({ hash, now: now.toISOString() });
    if (row === undefined) return null;
    memo?.remember(hash, row, startedIn);
    session = row;
  }
  await lastSeen?.touch(hash, session.lastSeenAt, now);
  return session;
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
