import { eq } from "drizzle-orm";
import type { Db } from "../db/database.js";
import { walletLimits } from "../db/schema/index.js";
import { limitsUpdatedChanges } from "../events/changes.js";
import type { RateLimit } from "../schemas/api-key.js";
import type { WalletLimits } from "../schemas/wallet-limits.js";
import type { KeyChanges } from "../verify/announce-key-changes.js";
import { recordEventWithWebhook } from "../webhooks/key-event.js";

/** Reads and replaces a wallet's wallet-wide limit. */
export interface WalletLimitStore {
  /** The wallet's limit, null when it has none. */
  get(wallet: string): Promise<RateLimit | null>;
  /**
   * Replaces the wallet's limit (`null` removes it) and tells every instance's verifier, which
   * forgets the wallet's cached keys once the change commits: here at once, elsewhere through
   * LISTEN/NOTIFY (well within 1 s). A change records a `limits.updated` event (the limit before
   * and after) and its webhook in the same transaction; a set that changes nothing records none. Returns the limit
   * now in force.
   */
  set(wallet: string, rateLimit: RateLimit | null, now: Date): Promise<RateLimit | null>;
}

/** Options of {@link createWalletLimitStore}. */
export interface WalletLimitStoreOptions {
  db: Db;
  changes: KeyChanges;
}

/**
 * The wallet_limits table behind the limits routes.
 * @example await store.set(wallet, { limit: 100, windowSeconds: 60 }, new Date());
 */
export function createWalletLimitStore({ db, changes }: WalletLimitStoreOptions): WalletLimitStore {
  return {
    async get(wallet) {
      const [row] = await db
        .select({ limit: walletLimits.rateLimitLimit, windowSeconds: walletLimits.rateLimitWindowSeconds })
        .from(walletLimits)
        .where(eq(walletLimits.wallet, wallet))
        .limit(1);
      return row ?? null;
    },
    set(wallet, rateLimit, now) {
      return changes.transaction(db, async (tx, _keyChanged, walletChanged) => {
        // The row is locked until commit, so concurrent sets each see the limit the other left.
        const [previous] = await tx
          .select({ limit: walletLimits.rateLimitLimit, windowSeconds: walletLimits.rateLimitWindowSeconds })
          .from(walletLimits)
          .where(eq(walletLimits.wallet, wallet))
          .for("update");
        const previousRateLimit = previous ?? null;
        if (rateLimit === null) {
          await tx.delete(walletLimits).where(eq(walletLimits.wallet, wallet));
        } else {
          const values = {
            rateLimitLimit: rateLimit.limit,
            rateLimitWindowSeconds: rateLimit.windowSeconds,
            updatedAt: now,
          };
          await tx
            .insert(walletLimits)
            .values({ wallet, ...values })
            .onConflictDoUpdate({ target: walletLimits.wallet, set: values });
        }
        const next =
          rateLimit === null ? null : { limit: rateLimit.limit, windowSeconds: rateLimit.windowSeconds };
        if (!sameLimit(previousRateLimit, next)) {
          const changes = limitsUpdatedChanges({ rateLimit: next, previousRateLimit });
          const limits: WalletLimits = { rateLimit: next };
          await recordEventWithWebhook(
            tx,
            { wallet, keyId: null, action: "limits.updated", at: now, changes },
            { type: "limits.updated", keyId: null, data: { limits, changes } },
          );
        }
        await walletChanged(wallet);
        return next;
      });
    },
  };
}

function sameLimit(a: RateLimit | null, b: RateLimit | null): boolean {
  if (a === null || b === null) return a === b;
  return a.limit === b.limit && a.windowSeconds === b.windowSeconds;
}
