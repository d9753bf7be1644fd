import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "../db/database.js";
import { siweNonces } from "../db/schema/index.js";
import { randomBase62 } from "../keys/base62.js";

/** How long an issued nonce can be used. */
export const NONCE_TTL_SECONDS = 600;

/** Issues a single-use nonce (24 base62 characters, as EIP-4361 wants alphanumerics). */
export async function issueNonce(db: Db, now = new Date()) {
  const nonce = randomBase62(24);
  const expiresAt = new Date(now.getTime() + NONCE_TTL_SECONDS * 1000);
  await db.insert(siweNonces).values({ nonce, createdAt: now, expiresAt });
  return { nonce, expiresAt };
}

/**
 * Marks a nonce used if it was issued, is unexpired and unused, in one UPDATE so two concurrent
 * sign-ins with the same nonce cannot both succeed.
 * @returns true when this call consumed it.
 */
export async function consumeNonce(db: Db, nonce: string, now = new Date()): Promise<boolean> {
  const rows = await db
    .update(siweNonces)
    .set({ usedAt: now })
    .where(and(eq(siweNonces.nonce, nonce), isNull(siweNonces.usedAt), gt(siweNonces.expiresAt, now)))
    .returning({ nonce: siweNonces.nonce });
  return rows.length === 1;
}

/** Whether a nonce was issued, is unexpired and unused, without consuming it. */
export async function isNonceUsable(db: Db, nonce: string, now = new Date()): Promise<boolean> {
  const rows = await db
    .select({ nonce: siweNonces.nonce })
    .from(siweNonces)
    .where(and(eq(siweNonces.nonce, nonce), isNull(siweNonces.usedAt), gt(siweNonces.expiresAt, now)))
    .limit(1);
  return rows.length === 1;
}
