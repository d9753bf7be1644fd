import { and, eq } from "drizzle-orm";
import type { Db, Tx } from "../db/database.js";
import { type ApiKeyRow, apiKeys } from "../db/schema/index.js";
import { keyRolledChanges } from "../events/changes.js";
import type { KeyChanges } from "../verify/announce-key-changes.js";
import { creditsOfKey, keyEventData, recordEventWithWebhook } from "../webhooks/key-event.js";
import { newKeyId } from "./id.js";
import { newKey } from "./secret.js";
import { countActiveKeys, lockWallet, setActiveBound } from "./wallet-lock.js";

/** The columns a caller chooses for a new key; id, secret hash and `start` are minted here. */
type NewKeyFields = Omit<typeof apiKeys.$inferInsert, "id" | "hash" | "start">;

/** Mints a secret and inserts its key row; returns the plaintext (shown once) and the row. */
async function insertNewKey(
  tx: Tx,
  prefix: string,
  fields: NewKeyFields,
): Promise<{ key: string; row: ApiKeyRow }> {
  const secret = newKey(prefix);
  const [row] = await tx
    .insert(apiKeys)
    .values({ ...fields, id: newKeyId(), hash: secret.hash, start: secret.start })
    .returning();
  if (!row) throw new Error("insert returned no row");
  return { key: secret.key, row };
}

export interface RollKeyParams {
  id: string;
  wallet: string;
  gracePeriodSeconds: number;
  prefix: string;
  /** MAX_ACTIVE_KEYS_PER_WALLET: a roll with grace keeps the old key active, so it needs room under the cap. */
  maxActiveKeys: number;
  now: Date;
}

/**
 * Replaces an active, never-rolled key with a new secret that inherits name, rate limit, expiry, policies and allow-list.
 * The old key's revocation is scheduled at `min(now + grace, its expiry)`, and announced through
 * `changes` so cached copies pick up the new `revokedAt`. With a grace period both keys are active
 * for a while, so the roll is refused (`cap`) when the wallet already holds `maxActiveKeys` active
 * keys, counted under the same per-wallet lock as create; a roll without grace swaps one active key
 * for another and is always allowed. The roll's `key.rolled` event (on the old key) and its webhook
 * (showing the new key) are written in the same transaction.
 */
export async function rollKey(db: Db, changes: KeyChanges, params: RollKeyParams) {
  return changes.transaction(db, async (tx, keyChanged) => {
    // The wallet lock before the row lock, in every path that takes both, so none can deadlock.
    if (params.gracePeriodSeconds > 0) await lockWallet(tx, params.wallet);
    const [old] = await tx
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.id, params.id), eq(apiKeys.wallet, params.wallet)))
      .for("update");
    if (!old) return { ok: false as const, reason: "not_found" as const };
    const expired = old.expiresAt !== null && old.expiresAt <= params.now;
    if (old.revokedAt !== null || expired) return { ok: false as const, reason: "not_active" as const };
    if (params.gracePeriodSeconds > 0) {
      // Both keys stay active during the grace period: one more active key.
      const active = await countActiveKeys(tx, params.wallet, params.now);
      if (active >= params.maxActiveKeys) return { ok: false as const, reason: "cap" as const };
      await setActiveBound(tx, params.wallet, active + 1);
    }
    const graceEnd = params.now.getTime() + params.gracePeriodSeconds * 1000;
    const revokeAt = new Date(Math.min(graceEnd, old.expiresAt?.getTime() ?? graceEnd));
    const [previous] = await tx
      .update(apiKeys)
      .set({ revokedAt: revokeAt })
      .where(eq(apiKeys.id, old.id))
      .returning();
    const { key, row } = await insertNewKey(tx, params.prefix, {
      wallet: old.wallet,
      name: old.name,
      createdAt: params.now,
      expiresAt: old.expiresAt,
      rateLimits: old.rateLimits,
      permissions: old.permissions,
      meta: old.meta,
      allowedIps: old.allowedIps,
      issuedByOperator: old.issuedByOperator,
      // One balance: the new key spends it, and so does the old one during its grace.
      creditsId: old.creditsId,
      rolledFrom: old.id,
    });
    if (!previous) throw new Error("roll updated no row");
    const rolled = keyRolledChanges({
      newKeyId: row.id,
      revokedAt: revokeAt,
      gracePeriodSeconds: params.gracePeriodSeconds,
    });
    // The audit event is on the old key; the webhook shows the new one, and where it came from.
    await recordEventWithWebhook(
      tx,
      { wallet: old.wallet, keyId: old.id, action: "key.rolled", at: params.now, changes: rolled },
      {
        type: "key.rolled",
        keyId: row.id,
        data: keyEventData(row, await creditsOfKey(tx, row), params.now, { ...rolled, rolledFrom: old.id }),
      },
    );
    await keyChanged(old.id);
    return { ok: true as const, key, row, previous };
  });
}
