import { and, eq } from "drizzle-orm";
import type { Db } from "../db/database.js";
import { type ApiKeyRow, apiKeys } from "../db/schema/index.js";
import { keyRevokedChanges } from "../events/changes.js";
import type { KeyChanges } from "../verify/announce-key-changes.js";
import { recordKeyEvent } from "../webhooks/key-event.js";
import { notRevoked } from "./status-condition.js";

/**
 * Revokes a key of this wallet now; a key already revoked is returned unchanged (idempotent).
 * The revocation is announced through `changes`, so every instance's cache forgets the key once
 * (and only if) it commits, this one's before the call returns. A revocation records its
 * `key.revoked` event and webhook in the same transaction; an idempotent repeat records nothing.
 * @returns null when the wallet has no such key.
 */
export async function revokeKey(
  db: Db,
  changes: KeyChanges,
  params: { id: string; wallet: string; now: Date },
): Promise<ApiKeyRow | null> {
  const owned = and(eq(apiKeys.id, params.id), eq(apiKeys.wallet, params.wallet));
  return changes.transaction(db, async (tx, keyChanged) => {
    const [updated] = await tx
      .update(apiKeys)
      .set({ revokedAt: params.now })
      .where(and(owned, notRevoked(params.now)))
      .returning();
    if (updated) {
      await recordKeyEvent(
        tx,
        {
          wallet: updated.wallet,
          keyId: updated.id,
          action: "key.revoked",
          at: params.now,
          changes: keyRevokedChanges(params.now),
        },
        updated,
      );
      await keyChanged(updated.id);
      return updated;
    }
    const [existing] = await tx.select().from(apiKeys).where(owned).limit(1);
    return existing ?? null;
  });
}
