import { eq } from "drizzle-orm";
import type { Db } from "../db/database.js";
import { walletLimits } from "../db/schema/index.js";
import { limitsUpdatedChanges } from "../events/changes.js";
import { defaultLimitOf, type NamedRateLimit } from "../schemas/rate-limits.js";
import type { WalletLimits } from "../schemas/wallet-limits.js";
import type { KeyChanges } from "../verify/announce-key-changes.js";
import { recordEventWithWebhook } from "../webhooks/key-event.js";

/** Reads and replaces a wallet's wallet-wide limits. */
export interface WalletLimitStore {
  /** The wallet's named limits, [] when it has none. */
  get(wallet: string): Promise<NamedRateLimit[]>;
  /**
   * Replaces the wallet's limits with `next(current)` ([] removes them) and tells every instance's
   * verifier, which forgets the wallet's cached keys once the change commits: here at once,
   * elsewhere through LISTEN/NOTIFY (well within 1 s). A change records a `limits.updated` event
   * (the limits before and after) and its webhook in the same transaction; a set that changes
   * nothing records none. Returns the limits now in force, or `too_many` when `next` holds more
   * than `max` (nothing changed).
   */
  set(
    wallet: string,
    next: (current: readonly NamedRateLimit[]) => NamedRateLimit[],
    now: Date,
    max: number,
  ): Promise<NamedRateLimit[] | "too_many">;
}

/** Options of {@link createWalletLimitStore}. */
export interface WalletLimitStoreOptions {
  db: Db;
  changes: KeyChanges;
}

/**
 * The wallet_limits table behind the limits routes.
 * @example await store.set(wallet, () => [{ name: "default", limit: 100, windowSeconds: 60, autoApply: true }], new Date(), 10);
 */
export function createWalletLimitStore({ db, changes }: WalletLimitStoreOptions): WalletLimitStore {
  return {
    async get(wallet) {
      const [row] = await db
        .select({ rateLimits: walletLimits.rateLimits })
        .from(walletLimits)
        .where(eq(walletLimits.wallet, wallet))
        .limit(1);
      return row?.rateLimits ?? [];
    },
    set(wallet, next, now, max) {
      return changes.transaction(db, async (tx, _keyChanged, walletChanged) => {
        // The row is locked until commit, so concurrent sets each see the limits the other left.
        const [previous] = await tx
          .select({ rateLimits: walletLimits.rateLimits })
          .from(walletLimits)
          .where(eq(walletLimits.wallet, wallet))
          .for("update");
        const previousRateLimits = previous?.rateLimits ?? [];
        const rateLimits = next(previousRateLimits);
        if (rateLimits.length > max) return "too_many" as const;
        if (rateLimits.length === 0) {
          await tx.delete(walletLimits).where(eq(walletLimits.wallet, wallet));
        } else {
          const values = { rateLimits, updatedAt: now };
          await tx
            .insert(walletLimits)
            .values({ wallet, ...values })
            .onConflictDoUpdate({ target: walletLimits.wallet, set: values });
        }
        if (!sameLimits(previousRateLimits, rateLimits)) {
          const changes = limitsUpdatedChanges({ rateLimits, previousRateLimits });
          const limits: WalletLimits = { rateLimit: defaultLimitOf(rateLimits), rateLimits };
          await recordEventWithWebhook(
            tx,
            { wallet, keyId: null, action: "limits.updated", at: now, changes },
            { type: "limits.updated", keyId: null, data: { limits, changes } },
          );
        }
        await walletChanged(wallet);
        return rateLimits;
      });
    },
  };
}

function sameLimits(a: readonly NamedRateLimit[], b: readonly NamedRateLimit[]): boolean {
  return (
    a.length === b.length &&
    a.every((x, i) => {
      const y = b[i];
      return (
        y !== undefined &&
        x.name === y.name &&
        x.limit === y.limit &&
        x.windowSeconds === y.windowSeconds &&
        x.autoApply === y.autoApply
      );
    })
  );
}
