import { type BalanceWriter, createDatabaseBalanceWriter } from "../credits/balance-writer.js";
import { type LiveCredits, overlayLive } from "../credits/overlay-live.js";
import type { Db, Driver } from "../db/database.js";
import type { ApiKeyRow, KeyCreditsRow } from "../db/schema/index.js";
import type { ApiKey, UpdateKeyInput } from "../schemas/api-key.js";
import type { CreditsInput, KeyMeta } from "../schemas/key-policy.js";
import type { OperatorActor } from "../schemas/operator.js";
import type { NamedRateLimit } from "../schemas/rate-limits.js";
import type { KeyChanges } from "../verify/announce-key-changes.js";
import { createKey } from "./create-key.js";
import { selectOwnedKey } from "./get-key.js";
import { loadCredits } from "./key-credits.js";
import { type ListKeysParams, listKeys, pageOf } from "./list-keys.js";
import { revokeKey } from "./revoke-key.js";
import { rollKey } from "./roll-key.js";
import { selectSessionFirstPage } from "./session-first-page.js";
import { toApiKey } from "./status.js";
import type { StatusFilter } from "./status-condition.js";
import { updateKey } from "./update-key.js";

/** A new key: its secret (shown once) and its public shape. */
export interface IssuedKey {
  key: string;
  apiKey: ApiKey;
}

/** The key lifecycle as procedures use it: public shapes in, public shapes out, no SQL. */
export interface KeyStore {
  /** MAX_ACTIVE_KEYS_PER_WALLET: the most active keys a wallet may hold when its plan sets no cap. */
  readonly maxActiveKeys: number;
  /** Creates a key unless the wallet already holds `max` active ones. */
  create(params: {
    wallet: string;
    name: string;
    expiresAt: Date | null;
    rateLimits: NamedRateLimit[];
    permissions: string[];
    credits: CreditsInput | null;
    meta: KeyMeta | null;
    allowedIps: string[] | null;
    /** The operator issuing it to the wallet (docs/operator.md#keys); absent: the wallet's own create. */
    issuedBy?: { actor: OperatorActor; reason: string | null } | undefined;
    /** The wallet's key cap (its plan's: docs/plans.md); default the server's. */
    maxActiveKeys?: number | undefined;
    now: Date;
  }): Promise<({ ok: true } & IssuedKey) | { ok: false; reason: "cap"; max: number }>;
  /**
   * One page of a wallet's keys in the asked sort (newest first by default), the cursor of the next
   * page (null at the end), and how many keys match wallet, status and search in all.
   */
  /** One key of `wallet` by id, revoked or not; null when the wallet has no such key. */
  get(params: { id: string; wallet: string; now: Date }): Promise<ApiKey | null>;
  list(params: ListKeysParams): Promise<{ keys: ApiKey[]; nextCursor: string | null; total: number }>;
  /**
   * The first page of `list`, read in one statement with the check that `sessionToken` is a live
   * session of `wallet`; null when that page would be empty or the check fails (the caller then
   * takes the usual path, whose session lookup and list say which).
   */
  listFirstPageOfSession(params: {
    sessionToken: string;
    wallet: string;
    status: StatusFilter;
    limit: number;
    now: Date;
  }): Promise<{ keys: ApiKey[]; nextCursor: string | null; total: number } | null>;
  /**
   * Changes the fields `patch` carries (absent: unchanged, null: cleared); `revoked` for a revoked key,
   * `cap` when re-activating an expired key would exceed the cap.
   */
  update(params: {
    id: string;
    wallet: string;
    patch: Omit<UpdateKeyInput, "id">;
    /** The wallet's key cap (its plan's); default the server's. */
    maxActiveKeys?: number | undefined;
    now: Date;
  }): Promise<
    | { ok: true; apiKey: ApiKey }
    | { ok: false; reason: "not_found" | "revoked" | "purchased" | "too_many_limits" }
    | { ok: false; reason: "cap"; max: number }
  >;
  /** Revokes now (idempotent); null when the wallet has no such key. */
  revoke(params: { id: string; wallet: string; now: Date }): Promise<ApiKey | null>;
  /** An operator's revocation of any wallet's key, with its reason (docs/operator.md#keys). */
  revokeAsOperator(params: {
    id: string;
    now: Date;
    by: { actor: OperatorActor; reason: string };
  }): Promise<ApiKey | null>;
  /**
   * Issues a new secret for an active, never-rolled key and schedules the old one's revocation.
   * A roll with grace needs room under the cap (`cap` otherwise); one without is always allowed.
   */
  roll(params: {
    id: string;
    wallet: string;
    gracePeriodSeconds: number;
    /** The wallet's key cap (its plan's); default the server's. */
    maxActiveKeys?: number | undefined;
    now: Date;
  }): Promise<
    | ({ ok: true; previous: ApiKey } & IssuedKey)
    | { ok: false; reason: "not_found" | "not_active" }
    | { ok: false; reason: "cap"; max: number }
  >;
}

/** What a key store is built from. */
export interface KeyStoreOptions {
  db: Db;
  /** The driver under `db`: create runs its statements on it directly (see insert-under-cap.ts). */
  driver: Driver;
  /** Announces revokes and rolls to every instance's key cache. */
  changes: KeyChanges;
  /** KEY_PREFIX. */
  prefix: string;
  /** MAX_ACTIVE_KEYS_PER_WALLET. */
  maxActiveKeys: number;
  /** How credits are changed; default: the row alone (no Redis). */
  balances?: BalanceWriter;
  /** With Redis: the live balance the answers show instead of PostgreSQL's lagging one. */
  liveCredits?: LiveCredits;
}

/**
 * The key store over the database. The SQL and its locking are one file an operation: create-key.ts,
 * get-key.ts, list-keys.ts, update-key.ts, revoke-key.ts and roll-key.ts (the wallet lock in wallet-lock.ts).
 */
export function createKeyStore(options: KeyStoreOptions): KeyStore {
  const { db, driver, changes, prefix, maxActiveKeys } = options;
  const balances = options.balances ?? createDatabaseBalanceWriter();
  const loadLive = async (rows: readonly ApiKeyRow[], now: Date) =>
    overlayLive(await loadCredits(db, rows), options.liveCredits, now);
  // The owner's revocation and the operator's share one path (keys/revoke-key.ts).
  const revoke = async (params: Parameters<typeof revokeKey>[2]) => {
    const row = await revokeKey(db, changes, params);
    if (row === null) return null;
    return toApiKey(row, params.now, creditsOf(await loadLive([row], params.now), row));
  };
  return {
    maxActiveKeys,
    async create(params) {
      const max = params.maxActiveKeys ?? maxActiveKeys;
      const created = await createKey(driver, { ...params, prefix, maxActiveKeys: max });
      if (!created.ok) return { ok: false, reason: "cap", max };
      changes.created(created.row.id);
      return { ok: true, key: created.key, apiKey: toApiKey(created.row, params.now, created.credits) };
    },
    async get(params) {
      const found = await selectOwnedKey(db, params.id, params.wallet);
      if (found === null) return null;
      const { key, credits } = found;
      const balances = new Map<string, KeyCreditsRow>(credits === null ? [] : [[credits.id, credits]]);
      const live = await overlayLive(balances, options.liveCredits, params.now);
      return toApiKey(key, params.now, creditsOf(live, key));
    },
    async list(params) {
      const page = await listKeys(db, params);
      const credits = await loadLive(page.rows, params.now);
      return {
        keys: page.rows.map((row) => toApiKey(row, params.now, creditsOf(credits, row))),
        nextCursor: page.nextCursor,
        total: page.total,
      };
    },
    async listFirstPageOfSession(params) {
      const { sessionToken, wallet, status, limit, now } = params;
      const first = await selectSessionFirstPage(db, sessionToken, wallet, status, limit + 1, now);
      if (first === null) return null;
      const page = pageOf(first.rows, limit);
      const credits = await loadLive(page.rows, now);
      return {
        keys: page.rows.map((row) => toApiKey(row, now, creditsOf(credits, row))),
        nextCursor: page.nextCursor,
        total: first.total,
      };
    },
    async update(params) {
      const max = params.maxActiveKeys ?? maxActiveKeys;
      const updated = await updateKey(db, changes, {
        ...params,
        maxActiveKeys: max,
        balances,
        liveCredits: options.liveCredits,
      });
      if (!updated.ok && updated.reason === "cap") return { ok: false, reason: "cap", max };
      if (!updated.ok) return updated;
      // A balance this PATCH set is exact as written; one it left alone is read live.
      const credits =
        updated.credits === undefined || params.patch.credits !== undefined
          ? updated.credits
          : (
              await overlayLive(
                new Map([[updated.credits.id, updated.credits]]),
                options.liveCredits,
                params.now,
              )
            ).get(updated.credits.id);
      return { ok: true, apiKey: toApiKey(updated.row, params.now, credits) };
    },
    revoke,
    revokeAsOperator: revoke,
    async roll(params) {
      const max = params.maxActiveKeys ?? maxActiveKeys;
      const rolled = await rollKey(db, changes, { ...params, prefix, maxActiveKeys: max });
      if (!rolled.ok && rolled.reason === "cap") return { ok: false, reason: "cap", max };
      if (!rolled.ok) return rolled;
      const credits = await loadLive([rolled.row], params.now);
      return {
        ok: true,
        key: rolled.key,
        apiKey: toApiKey(rolled.row, params.now, creditsOf(credits, rolled.row)),
        previous: toApiKey(rolled.previous, params.now, creditsOf(credits, rolled.previous)),
      };
    },
  };
}

function creditsOf(credits: Map<string, KeyCreditsRow>, row: ApiKeyRow): KeyCreditsRow | undefined {
  return row.creditsId === null ? undefined : credits.get(row.creditsId);
}
