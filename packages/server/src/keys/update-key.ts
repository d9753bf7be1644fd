import { and, eq } from "drizzle-orm";
import type { BalanceWriter, WrittenBalance } from "../credits/balance-writer.js";
import type { LiveCredits } from "../credits/overlay-live.js";
import type { Db, Tx } from "../db/database.js";
import { apiKeys, type KeyCreditsRow, keyCredits } from "../db/schema/index.js";
import { keyUpdatedChanges } from "../events/changes.js";
import type { UpdateKeyInput } from "../schemas/api-key.js";
import { MAX_RATE_LIMITS, withDefaultLimit } from "../schemas/rate-limits.js";
import type { KeyChanges } from "../verify/announce-key-changes.js";
import { keyEventData, recordEventWithWebhook } from "../webhooks/key-event.js";
import { loadCredits } from "./key-credits.js";
import { countActiveKeys, lockWallet, setActiveBound } from "./wallet-lock.js";

export interface UpdateKeyParams {
  wallet: string;
  /** The PATCH body: an absent field is unchanged, `null` clears it. */
  patch: Omit<UpdateKeyInput, "id">;
  id: string;
  /** MAX_ACTIVE_KEYS_PER_WALLET: giving an expired key a future expiry makes it active again. */
  maxActiveKeys: number;
  now: Date;
  /** How a balance is changed: the row alone, or with Redis's copy fenced and reinstalled (credits/balance-writer.ts). */
  balances: BalanceWriter;
  /** With Redis: the live balance, whose purchased credits may already be spent below PostgreSQL's. */
  liveCredits?: LiveCredits | undefined;
}

/**
 * Whether balance `creditsId` holds purchased credits, under its row lock (so no top-up can add any
 * before this transaction ends). PostgreSQL's count can only lag above the live one (spends lower
 * it, top-ups take this lock), so a live 0 from Redis is believed; a Redis that cannot answer
 * leaves PostgreSQL's count.
 */
async function holdsPurchased(
  tx: Tx,
  creditsId: string,
  now: Date,
  live: LiveCredits | undefined,
): Promise<boolean> {
  const [row] = await tx
    .select({ purchased: keyCredits.purchased })
    .from(keyCredits)
    .where(eq(keyCredits.id, creditsId))
    .for("update");
  if (row === undefined || row.purchased === 0) return false;
  if (live === undefined) return true;
  const current = await live(creditsId, now.getTime()).catch(() => null);
  return (current?.purchased ?? row.purchased) > 0;
}

/**
 * Changes a key's name, rate limit, expiry, permissions, credits or meta (docs/decisions.md, Key policies):
 * absent fields stay, `null` clears, `meta` is replaced whole. A revoked key is `revoked`; moving
 * an expired key's expiry into the future (or clearing it) re-activates the key, which then needs
 * room under the cap, counted under the wallet lock as create does. Clearing the credits of a key
 * whose balance holds purchased credits is refused (`purchased`). Credits set on a key that
 * already has a balance (its own or one shared through a roll) change that balance. The change,
 * its `key.updated` event (and webhook) and the NOTIFY that makes every instance reload the key commit together.
 */
export async function updateKey(db: Db, changes: KeyChanges, params: UpdateKeyParams) {
  let written: WrittenBalance | undefined;
  try {
    const result = await changeKey(db, changes, params, (w) => {
      written = w;
    });
    await written?.settle(true);
    return result;
  } catch (error) {
    await written?.settle(false);
    throw error;
  }
}

async function changeKey(
  db: Db,
  changes: KeyChanges,
  params: UpdateKeyParams,
  wrote: (written: WrittenBalance) => void,
) {
  const { patch, now } = params;
  return changes.transaction(db, async (tx, keyChanged) => {
    const reactivates = patch.expiresAt !== undefined && (patch.expiresAt === null || patch.expiresAt > now);
    // The wallet lock before the row lock, in every path that takes both, so none can deadlock.
    if (reactivates) await lockWallet(tx, params.wallet);
    const [old] = await tx
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.id, params.id), eq(apiKeys.wallet, params.wallet)))
      .for("update");
    if (!old) return { ok: false as const, reason: "not_found" as const };
    if (old.revokedAt !== null && old.revokedAt <= now)
      return { ok: false as const, reason: "revoked" as const };
    // `rateLimit` (the single-limit shape) sets only the limit named default; `rateLimits` the whole list.
    const rateLimits =
      patch.rateLimits ??
      (patch.rateLimit === undefined ? undefined : withDefaultLimit(old.rateLimits, patch.rateLimit));
    if (rateLimits !== undefined && rateLimits.length > MAX_RATE_LIMITS)
      return { ok: false as const, reason: "too_many_limits" as const };
    const wasExpired = old.expiresAt !== null && old.expiresAt <= now;
    if (reactivates && wasExpired) {
      const active = await countActiveKeys(tx, params.wallet, now);
      if (active >= params.maxActiveKeys) return { ok: false as const, reason: "cap" as const };
      await setActiveBound(tx, params.wallet, active + 1);
    }
    let creditsId = old.creditsId;
    let balance: KeyCreditsRow | undefined;
    let written: WrittenBalance | undefined;
    if (patch.credits === null) {
      // Purchased credits were paid for: they are not dropped with the allowance (docs/api.md).
      if (old.creditsId !== null && (await holdsPurchased(tx, old.creditsId, now, params.liveCredits)))
        return { ok: false as const, reason: "purchased" as const };
      creditsId = null;
    } else if (patch.credits !== undefined) {
      written = await params.balances.write(
        tx,
        old.creditsId ?? old.id,
        { kind: "set", input: patch.credits },
        now,
      );
      wrote(written);
      balance = written.row;
      creditsId = balance?.id ?? null;
    }
    const [row] = await tx
      .update(apiKeys)
      .set({
        ...(patch.name === undefined ? {} : { name: patch.name }),
        ...(patch.expiresAt === undefined ? {} : { expiresAt: patch.expiresAt }),
        ...(rateLimits === undefined ? {} : { rateLimits }),
        ...(patch.permissions === undefined ? {} : { permissions: patch.permissions }),
        ...(patch.meta === undefined ? {} : { meta: patch.meta }),
        ...(patch.allowedIps === undefined ? {} : { allowedIps: patch.allowedIps }),
        creditsId,
      })
      .where(eq(apiKeys.id, old.id))
      .returning();
    if (!row) throw new Error("update returned no row");
    if (balance === undefined && row.creditsId !== null)
      balance = (await loadCredits(tx, [row])).get(row.creditsId);
    const changed = keyUpdatedChanges({ ...patch, rateLimits });
    await recordEventWithWebhook(
      tx,
      { wallet: row.wallet, keyId: row.id, action: "key.updated", at: now, changes: changed },
      { type: "key.updated", keyId: row.id, data: keyEventData(row, balance, now, changed) },
    );
    await keyChanged(row.id);
    await written?.beforeCommit();
    return { ok: true as const, row, credits: balance };
  });
}
