import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/database.js";
import { preparePerDatabase } from "../db/prepared.js";
import { sessions } from "../db/schema/index.js";
import { randomBase62 } from "../keys/base62.js";
import { hashKey } from "../keys/secret.js";

const TOKEN_PREFIX = "kps_";

/** A new session token: `kps_` + 32 base62 characters. Only its SHA-256 is stored. */
export async function createSession(db: Db, wallet: string, ttlSeconds: number, now = new Date()) {
  const token = TOKEN_PREFIX + randomBase62(32);
  const expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
  await db.insert(sessions).values({ tokenHash: hashKey(token), wallet, createdAt: now, expiresAt });
  return { token, expiresAt };
}

// Every authenticated request runs this lookup.
const walletLookup = preparePerDatabase((db) =>
  db
    .select({ wallet: sessions.wallet })
    .from(sessions)
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder("hash")),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql.placeholder("now")),
      ),
    )
    .limit(1)
    .prepare("session_wallet"),
);

/** The wallet of a live (unexpired, not logged out) session, or null. */
export async function findSessionWallet(db: Db, token: string, now = new Date()): Promise<string | null> {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 100) return null;
  const [row] = await walletLookup(db).execute({ hash: hashKey(token), now: now.toISOString() });
  return row?.wallet ?? null;
}

/** Ends a session; later requests with its token get 401. */
export async function revokeSession(db: Db, token: string, now = new Date()): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.tokenHash, hashKey(token)), isNull(sessions.revokedAt)));
}
