import { and, eq } from "drizzle-orm";
import type { Db } from "../db/database.js";
import { type ApiKeyRow, apiKeys, type KeyCreditsRow, keyCredits } from "../db/schema/index.js";

/**
 * One key of a wallet by id, with its credit balance when it has one: one statement on the primary
 * key (the balance joined by its own primary key). Revoked and expired keys are found like any other.
 * @returns null when the wallet has no key of that id (another wallet's key included).
 * @example const found = await selectOwnedKey(db, "key_...", wallet);
 */
export async function selectOwnedKey(
  db: Db,
  id: string,
  wallet: string,
): Promise<{ key: ApiKeyRow; credits: KeyCreditsRow | null } | null> {
  const [found] = await db
    .select({ key: apiKeys, credits: keyCredits })
    .from(apiKeys)
    .leftJoin(keyCredits, eq(keyCredits.id, apiKeys.creditsId))
    .where(and(eq(apiKeys.id, id), eq(apiKeys.wallet, wallet)))
    .limit(1);
  return found ?? null;
}
