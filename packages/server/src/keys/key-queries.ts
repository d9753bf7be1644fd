import { and, count, desc, eq, lt, or, sql } from "drizzle-orm";
import type { Db, Driver, Tx } from "../db/database.js";
import { type ApiKeyRow, apiKeys, type KeyCreditsRow, walletActiveKeys } from "../db/schema/index.js";
import {
  keyCreatedChanges,
  keyRevokedChanges,
  keyRolledChanges,
  keyUpdatedChanges,
} from "../events/changes.js";
import { recordEvent } from "../events/record-event.js";
import type { RateLimit, UpdateKeyInput } from "../schemas/api-key.js";
import type { CreditsInput, KeyMeta } from "../schemas/key-policy.js";
import type { KeyChanges } from "../verify/announce-key-changes.js";
import { encodeCursor, type PageCursor } from "./cursor.js";
import { selectFirstPage } from "./first-page.js";
import { newKeyId } from "./id.js";
import { insertUnderCap } from "./insert-under-cap.js";
import { creditsValues, loadCredits, upsertCredits } from "./key-credits.js";
import { newKey } from "./secret.js";
import { notRevoked, type StatusFilter, statusCondition } from "./status-condition.js";

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

export interface CreateKeyParams {
  wallet: string;
  name: string;
  expiresAt: Date | null;
  rateLimit: RateLimit | null;
  permissions: string[];
  credits: CreditsInput | null;
  meta: KeyMeta | null;
  prefix: string;
  maxActiveKeys: number;
  now: Date;
}

/**
 * Locks the wallet's row of `wallet_active_keys` until the transaction ends (inserting it when the
 * wallet has none yet). Everything that adds to a wallet's active keys (create, a roll with grace,
 * re-activating an expired key) does so under this lock, so concurrent ones cannot overshoot.
 */
async function lockWallet(tx: Tx, wallet: string): Promise<void> {
  await tx
    .insert(walletActiveKeys)
    .values({ wallet, atMost: 0 })
    .onConflictDoUpdate({
      target: walletActiveKeys.wallet,
      set: { atMost: sql`${walletActiveKeys.atMost}` },
    });
}

/** After a path added one key to the `active` counted under the wallet's lock: the bound is exact again. */
async function setActiveBound(tx: Tx, wallet: string, active: number): Promise<void> {
  await tx.update(walletActiveKeys).set({ atMost: active }).where(eq(walletActiveKeys.wallet, wallet));
}

/** The wallet's active keys at `now`, keys in a roll's grace period included. */
function activeKeysQuery(tx: Tx, wallet: string, now: Date) {
  return tx
    .select({ n: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.wallet, wallet), statusCondition("active", now)));
}

async function countActiveKeys(tx: Tx, wallet: string, now: Date): Promise<number> {
  const [active] = await activeKeysQuery(tx, wallet, now);
  return active?.n ?? 0;
}

/**
 * Inserts a key, with its credit balance and its `key.created` event, unless the wallet already
 * holds `maxActiveKeys` active ones. The cap check and the inserts are one statement that holds the
 * wallet's `wallet_active_keys` row (see insert-under-cap.ts), so concurrent creates cannot
 * overshoot and a refused create records nothing. The row returned is the one inserted.
 */
export async function createKey(driver: Driver, params: CreateKeyParams) {
  const secret = newKey(params.prefix);
  const id = newKeyId();
  const { wallet, name, now, expiresAt, rateLimit, permissions, meta } = params;
  const balance: KeyCreditsRow | undefined =
    params.credits === null ? undefined : { id, ...creditsValues(params.credits, now) };
  const inserted = await insertUnderCap(driver, {
    id,
    wallet,
    name,
    hash: secret.hash,
    start: secret.start,
    now: now.toISOString(),
    expiresAt: expiresAt?.toISOString() ?? null,
    rateLimitLimit: rateLimit?.limit ?? null,
    rateLimitWindowSeconds: rateLimit?.windowSeconds ?? null,
    permissions: JSON.stringify(permissions),
    meta: meta === null ? null : JSON.stringify(meta),
    credits:
      balance === undefined ? null : { ...balance, refilledAt: balance.refilledAt?.toISOString() ?? null },
    changes: JSON.stringify(keyCreatedChanges(params)),
    maxActiveKeys: params.maxActiveKeys,
  });
  if (!inserted) return { ok: false as const };
  const row: ApiKeyRow = {
    id,
    wallet,
    name,
    hash: secret.hash,
    start: secret.start,
    createdAt: now,
    expiresAt,
    revokedAt: null,
    lastUsedAt: null,
    rateLimitLimit: rateLimit?.limit ?? null,
    rateLimitWindowSeconds: rateLimit?.windowSeconds ?? null,
    rolledFrom: null,
    permissions,
    meta,
    creditsId: balance === undefined ? null : id,
  };
  return { ok: true as const, key: secret.key, row, credits: balance };
}

export interface ListKeysParams {
  wallet: string;
  status: StatusFilter;
  limit: number;
  cursor: PageCursor | null;
  now: Date;
}

function selectAfterCursor(db: Db, params: ListKeysParams, cursor: PageCursor): Promise<ApiKeyRow[]> {
  const after = or(
    lt(apiKeys.createdAt, cursor.createdAt),
    and(eq(apiKeys.createdAt, cursor.createdAt), lt(apiKeys.id, cursor.id)),
  );
  return db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.wallet, params.wallet), statusCondition(params.status, params.now), after))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
    .limit(params.limit + 1);
}

/** One page of a wallet's keys, newest first, with the cursor of the next page (null at the end). */
export async function listKeys(db: Db, params: ListKeysParams) {
  // One row past the page tells whether another page follows.
  const rows = params.cursor
    ? await selectAfterCursor(db, params, params.cursor)
    : await selectFirstPage(db, params.wallet, params.status, params.limit + 1, params.now);
  const page = rows.slice(0, params.limit);
  const last = page.at(-1);
  const nextCursor = rows.length > params.limit && last ? encodeCursor(last) : null;
  return { rows: page, nextCursor };
}

/**
 * Revokes a key of this wallet now; a key already revoked is returned unchanged (idempotent).
 * The revocation is announced through `changes`, so every instance's cache forgets the key once
 * (and only if) it commits, this one's before the call returns. A revocation records its
 * `key.revoked` event in the same transaction; an idempotent repeat records nothing.
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
      await recordEvent(tx, {
        wallet: updated.wallet,
        keyId: updated.id,
        action: "key.revoked",
        at: params.now,
        changes: keyRevokedChanges(params.now),
      });
      await keyChanged(updated.id);
      return updated;
    }
    const [existing] = await tx.select().from(apiKeys).where(owned).limit(1);
    return existing ?? null;
  });
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
 * Replaces an active, never-rolled key with a new secret that inherits name, rate limit and expiry.
 * The old key's revocation is scheduled at `min(now + grace, its expiry)`, and announced through
 * `changes` so cached copies pick up the new `revokedAt`. With a grace period both keys are active
 * for a while, so the roll is refused (`cap`) when the wallet already holds `maxActiveKeys` active
 * keys, counted under the same per-wallet lock as create; a roll without grace swaps one active key
 * for another and is always allowed. The roll's `key.rolled` event (on the old key) is recorded in
 * the same transaction.
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
      rateLimitLimit: old.rateLimitLimit,
      rateLimitWindowSeconds: old.rateLimitWindowSeconds,
      permissions: old.permissions,
      meta: old.meta,
      // One balance: the new key spends it, and so does the old one during its grace.
      creditsId: old.creditsId,
      rolledFrom: old.id,
    });
    if (!previous) throw new Error("roll updated no row");
    await recordEvent(tx, {
      wallet: old.wallet,
      keyId: old.id,
      action: "key.rolled",
      at: params.now,
      changes: keyRolledChanges({
        newKeyId: row.id,
        revokedAt: revokeAt,
        gracePeriodSeconds: params.gracePeriodSeconds,
      }),
    });
    await keyChanged(old.id);
    return { ok: true as const, key, row, previous };
  });
}

export interface UpdateKeyParams {
  wallet: string;
  /** The PATCH body: an absent field is unchanged, `null` clears it. */
  patch: Omit<UpdateKeyInput, "id">;
  id: string;
  /** MAX_ACTIVE_KEYS_PER_WALLET: giving an expired key a future expiry makes it active again. */
  maxActiveKeys: number;
  now: Date;
}

/**
 * Changes a key's name, rate limit, expiry, permissions, credits or meta (DECISIONS, issue 12):
 * absent fields stay, `null` clears, `meta` is replaced whole. A revoked key is `revoked`; moving
 * an expired key's expiry into the future (or clearing it) re-activates the key, which then needs
 * room under the cap, counted under the wallet lock as create does. Credits set on a key that
 * already has a balance (its own or one shared through a roll) change that balance. The change,
 * its `key.updated` event and the NOTIFY that makes every instance reload the key commit together.
 */
export async function updateKey(db: Db, changes: KeyChanges, params: UpdateKeyParams) {
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
    const wasExpired = old.expiresAt !== null && old.expiresAt <= now;
    if (reactivates && wasExpired) {
      const active = await countActiveKeys(tx, params.wallet, now);
      if (active >= params.maxActiveKeys) return { ok: false as const, reason: "cap" as const };
      await setActiveBound(tx, params.wallet, active + 1);
    }
    let creditsId = old.creditsId;
    let balance: KeyCreditsRow | undefined;
    if (patch.credits === null) creditsId = null;
    else if (patch.credits !== undefined) {
      balance = await upsertCredits(tx, old.creditsId ?? old.id, patch.credits, now);
      creditsId = balance.id;
    }
    const [row] = await tx
      .update(apiKeys)
      .set({
        ...(patch.name === undefined ? {} : { name: patch.name }),
        ...(patch.expiresAt === undefined ? {} : { expiresAt: patch.expiresAt }),
        ...(patch.rateLimit === undefined
          ? {}
          : {
              rateLimitLimit: patch.rateLimit?.limit ?? null,
              rateLimitWindowSeconds: patch.rateLimit?.windowSeconds ?? null,
            }),
        ...(patch.permissions === undefined ? {} : { permissions: patch.permissions }),
        ...(patch.meta === undefined ? {} : { meta: patch.meta }),
        creditsId,
      })
      .where(eq(apiKeys.id, old.id))
      .returning();
    if (!row) throw new Error("update returned no row");
    if (balance === undefined && row.creditsId !== null)
      balance = (await loadCredits(tx, [row])).get(row.creditsId);
    await recordEvent(tx, {
      wallet: row.wallet,
      keyId: row.id,
      action: "key.updated",
      at: now,
      changes: keyUpdatedChanges(patch),
    });
    await keyChanged(row.id);
    return { ok: true as const, row, credits: balance };
  });
}
