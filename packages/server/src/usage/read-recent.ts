import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../db/database.js";
import { apiKeys, keyVerifications } from "../db/schema/index.js";
import { type RecentVerification, recentVerification } from "../schemas/key-verifications.js";
import { RECENT_VERIFICATIONS_PER_KEY } from "./recent.js";

/**
 * A key's recent verifications, newest first, when `keyId` is one of `wallet`'s keys; null when it
 * is not (the caller answers 404, as for another wallet's key anywhere else).
 */
export async function readRecentVerifications(
  db: Db,
  wallet: string,
  keyId: string,
): Promise<RecentVerification[] | null> {
  const [key] = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.wallet, wallet)))
    .limit(1);
  if (!key) return null;
  const rows = await db
    .select({
      at: keyVerifications.at,
      outcome: keyVerifications.outcome,
      permissions: keyVerifications.permissions,
      cost: keyVerifications.cost,
      ip: keyVerifications.ip,
      limitName: keyVerifications.limitName,
      limitScope: keyVerifications.limitScope,
    })
    .from(keyVerifications)
    .where(eq(keyVerifications.keyId, keyId))
    .orderBy(desc(keyVerifications.at), desc(keyVerifications.id))
    .limit(RECENT_VERIFICATIONS_PER_KEY);
  // The table's CHECK holds outcome to the codes and jsonb permissions to what the flush wrote; parsing keeps the types honest.
  return rows.map(({ limitName, limitScope, ...row }) =>
    recentVerification.parse({
      ...row,
      refusedBy: limitName === null || limitScope === null ? null : { name: limitName, scope: limitScope },
    }),
  );
}
