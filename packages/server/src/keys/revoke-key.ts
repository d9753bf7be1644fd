import { and, eq } from "drizzle-orm";
import type { Db } from "../db/database.js";
import { type ApiKeyRow, apiKeys } from "../db/schema/index.js";
import { keyRevokedChanges } from "../events/changes.js";
import { recordOperatorEvent } from "../operator/audit.js";
import type { OperatorActor } from "../schemas/operator.js";
import type { KeyChanges } from "../verify/announce-key-changes.js";
import { recordKeyEvent } from "../webhooks/key-event.js";
import { notRevoked } from "./status-condition.js";

/**
 * Revokes a key of this wallet now; a key already revoked is returned unchanged (idempotent).
 * The revocation is announced through `changes`, so every instance's cache forgets the key once
 * (and only if) it commits, this one's before the call returns. A revocation records its
 * `key.revoked` event and webhook in the same transaction; an idempotent repeat records nothing.
 * An operator's revocation (`by`, any wallet's key) also records its reason in the wallet's event, as
 * `actor: "operator"` and never who the operator is, and the operator's own event (docs/operator.md#keys).
 * @returns null when the wallet (or, for an operator, the deployment) has no such key.
 */
export async function revokeKey(
  db: Db,
  changes: KeyChanges,
  params: { id: string; now: Date } & (
    | { wallet: string; by?: undefined }
    | { wallet?: undefined; by: { actor: OperatorActor; reason: string } }
  ),
): Promise<ApiKeyRow | null> {
  const owned =
    params.wallet === undefined
      ? eq(apiKeys.id, params.id)
      : and(eq(apiKeys.id, params.id), eq(apiKeys.wallet, params.wallet));
  const by = params.by;
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
          changes: {
            ...keyRevokedChanges(params.now),
            ...(by ? { actor: "operator", reason: by.reason } : {}),
          },
        },
        updated,
      );
      if (by) {
        await recordOperatorEvent(tx, {
          actor: by.actor,
          action: "key.revoked",
          at: params.now,
          wallet: updated.wallet,
          keyId: updated.id,
          reason: by.reason,
        });
      }
      await keyChanged(updated.id);
      return updated;
    }
    const [existing] = await tx.select().from(apiKeys).where(owned).limit(1);
    return existing ?? null;
  });
}
