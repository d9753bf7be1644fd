import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/database.js";
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

function prepareWalletLookup(db: Db) {
  return db
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
    .prepare("session_wallet");
}

// Every authenticated request runs this lookup: preparing it once per database skips drizzle's
// SQL building per call (and lets the driver reuse the server-side statement).
const walletLookups = new WeakMap<Db, ReturnType<typeof prepareWalletLookup>>();

/** The wallet of a live (unexpired, not logged out) session, or null. */
export async function findSessionWallet(db: Db, token: string, now = new Date()): Promise<string | null> {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 100) return null;
  let lookup = walletLookups.get(db);
  if (!lookup) {
    lookup = prepareWalletLookup(db);
    walletLookups.set(db, lookup);
  }
  // Placeholder values bypass the column's encoder, and drizzle's postgres.js setup sends
  // timestamps as text: an ISO string works on both drivers, a Date does not.
  const [row] = await lookup.execute({ hash: hashKey(token), now: now.toISOString() });
  return row?.wallet ?? null;
}

/** Ends a session; later requests with its token get 401. */
export async function revokeSession(db: Db, token: string, now = new Date()): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.tokenHash, hashKey(token)), isNull(sessions.revokedAt)));
}
