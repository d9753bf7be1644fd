import { and, desc, eq, gt, isNull, ne, type SQL, sql } from "drizzle-orm";
import type { Db } from "../db/database.js";
import { keyEvents, sessions } from "../db/schema/index.js";
import { sessionEndedChanges } from "../events/changes.js";
import type { WalletSession } from "../schemas/auth.js";
import type { SessionMemo } from "./session-memo.js";

function liveSessionsOf(wallet: string, now: Date): SQL | undefined {
  return and(eq(sessions.wallet, wallet), isNull(sessions.revokedAt), gt(sessions.expiresAt, now));
}

/**
 * The wallet's live (unexpired, not ended) sessions, newest first; `currentHash` (the asking token's
 * hash) marks its own. A wallet holds one session a sign-in, and sessions end within
 * SESSION_TTL_SECONDS, so the list is not paged.
 */
export async function listWalletSessions(
  db: Db,
  wallet: string,
  currentHash: string,
  now = new Date(),
): Promise<WalletSession[]> {
  return db
    .select({
      id: sessions.id,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      userAgent: sessions.userAgent,
      ip: sessions.ip,
      current: sql<boolean>`${sessions.tokenHash} = ${currentHash}`.mapWith(Boolean),
    })
    .from(sessions)
    .where(liveSessionsOf(wallet, now))
    .orderBy(desc(sessions.createdAt), desc(sessions.id));
}

/**
 * Ends the sessions `which` picks among the wallet's live ones, recording one `session.ended` each
 * in the same transaction (as a sign-out does), then forgets their tokens in `memo`. Returns how many
 * ended.
 */
async function endWalletSessions(
  db: Db,
  wallet: string,
  which: SQL,
  now: Date,
  memo: SessionMemo | undefined,
): Promise<number> {
  const hashes = await db.transaction(async (tx) => {
    const ended = await tx
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(liveSessionsOf(wallet, now), which))
      .returning({ tokenHash: sessions.tokenHash });
    if (ended.length > 0) {
      const event = { wallet, keyId: null, action: "session.ended" as const, at: now };
      await tx.insert(keyEvents).values(ended.map(() => ({ ...event, changes: sessionEndedChanges() })));
    }
    return ended.map((row) => row.tokenHash);
  });
  for (const hash of hashes) memo?.forget(hash);
  return hashes.length;
}

/** Ends the wallet's live session of this id: false when it has none (unknown, ended or another wallet's). */
export async function endWalletSession(
  db: Db,
  wallet: string,
  id: string,
  now = new Date(),
  memo?: SessionMemo,
): Promise<boolean> {
  return (await endWalletSessions(db, wallet, eq(sessions.id, id), now, memo)) > 0;
}

/** Ends every live session of the wallet but the asking one (`currentHash`); returns how many. */
export async function endOtherWalletSessions(
  db: Db,
  wallet: string,
  currentHash: string,
  now = new Date(),
  memo?: SessionMemo,
): Promise<number> {
  return endWalletSessions(db, wallet, ne(sessions.tokenHash, currentHash), now, memo);
}
