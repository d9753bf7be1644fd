import { and, count, eq, sql } from "drizzle-orm";
import type { Tx } from "../db/database.js";
import { apiKeys, walletActiveKeys } from "../db/schema/index.js";
import { statusCondition } from "./status-condition.js";

/**
 * Locks the wallet's row of `wallet_active_keys` until the transaction ends (inserting it when the
 * wallet has none yet). Everything that adds to a wallet's active keys (create, a roll with grace,
 * re-activating an expired key) does so under this lock, so concurrent ones cannot overshoot.
 */
export async function lockWallet(tx: Tx, wallet: string): Promise<void> {
  await tx
    .insert(walletActiveKeys)
    .values({ wallet, atMost: 0 })
    .onConflictDoUpdate({
      target: walletActiveKeys.wallet,
      set: { atMost: sql`${walletActiveKeys.atMost}` },
    });
}

/** After a path added one key to the `active` counted under the wallet's lock: the bound is exact again. */
export async function setActiveBound(tx: Tx, wallet: string, active: number): Promise<void> {
  await tx.update(walletActiveKeys).set({ atMost: active }).where(eq(walletActiveKeys.wallet, wallet));
}

/** The wallet's active keys at `now`, keys in a roll's grace period included. */
function activeKeysQuery(tx: Tx, wallet: string, now: Date) {
  return tx
    .select({ n: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.wallet, wallet), statusCondition("active", now)));
}

/** How many active keys the wallet holds at `now` (read under its lock, so the count holds). */
export async function countActiveKeys(tx: Tx, wallet: string, now: Date): Promise<number> {
  const [active] = await activeKeysQuery(tx, wallet, now);
  return active?.n ?? 0;
}
