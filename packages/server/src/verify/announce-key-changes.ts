import { sql } from "drizzle-orm";
import type { Db, Tx } from "../db/database.js";
import type { KeyCache } from "./cache.js";
import { INVALIDATION_CHANNEL, WALLET_PAYLOAD_PREFIX } from "./invalidation.js";

/** Marks a key (or many, in one statement) as changed inside the running transaction. */
export type KeyChanged = (keyIds: string | readonly string[]) => Promise<void>;

/** Marks a wallet-wide setting (its limit) as changed inside the running transaction: all its keys are stale. */
export type WalletChanged = (wallet: string) => Promise<void>;

/** The one place that tells verifiers a key (revoked, rolled) or a wallet's limit changed. */
export interface KeyChanges {
  /**
   * Runs `change` in a transaction. Each id it passes to `keyChanged` is NOTIFYed inside that
   * transaction, so every instance's cache forgets the key once (and only if) it commits; this
   * instance's cache forgets it right after the commit, so its very next verification sees the
   * change without waiting for its own notification to come back.
   */
  transaction<T>(
    db: Db,
    change: (tx: Tx, keyChanged: KeyChanged, walletChanged: WalletChanged) => Promise<T>,
  ): Promise<T>;
  /**
   * A key was just created (committed): this instance's cache forgets every unknown hash at once.
   * The create's own statement NOTIFYs its id (keys/insert-under-cap.ts), so every other instance
   * forgets them when the notification arrives.
   */
  created(keyId: string): void;
}

/**
 * Key-change notification over the local cache and PostgreSQL NOTIFY (which the invalidation bus
 * of every instance listens to).
 * @example const row = await changes.transaction(db, async (tx, keyChanged) => { ...; await keyChanged(id); return row; });
 */
export function createKeyChanges(cache: Pick<KeyCache, "invalidate" | "invalidateWallet">): KeyChanges {
  return {
    async transaction(db, change) {
      const changed: string[] = [];
      const wallets: string[] = [];
      const result = await db.transaction((tx) =>
        change(
          tx,
          async (keyIds) => {
            if (typeof keyIds === "string") {
              await tx.execute(sql`select pg_notify(${INVALIDATION_CHANNEL}, ${keyIds})`);
              changed.push(keyIds);
              return;
            }
            if (keyIds.length === 0) return;
            // One statement for a batch (a leak report revokes up to 1,000 keys): one NOTIFY per key.
            await tx.execute(
              sql`select pg_notify(${INVALIDATION_CHANNEL}, id) from unnest(${sql.param([...keyIds])}::text[]) as id`,
            );
            changed.push(...keyIds);
          },
          async (wallet) => {
            await tx.execute(
              sql`select pg_notify(${INVALIDATION_CHANNEL}, ${WALLET_PAYLOAD_PREFIX + wallet})`,
            );
            wallets.push(wallet);
          },
        ),
      );
      for (const keyId of changed) cache.invalidate(keyId);
      for (const wallet of wallets) cache.invalidateWallet(wallet);
      return result;
    },
    created(keyId) {
      cache.invalidate(keyId);
    },
  };
}
