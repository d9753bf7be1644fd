import { eq } from "drizzle-orm";
import type { Db } from "../db/database.js";
import { apiKeys, walletLimits } from "../db/schema/index.js";
import type { KeyRecord } from "../verify/key-record.js";
import { compileIpAllowList } from "./ip-allow-list.js";

/**
 * Reads what verification caches about a key, by its secret's hash, with its wallet's limit (one
 * query); null when no key has that hash.
 * @example const verifier = createKeyVerifier({ ..., loadKeyByHash: (hash) => loadKeyByHash(db, hash) });
 */
export async function loadKeyByHash(db: Db, hash: string): Promise<KeyRecord | null> {
  const [row] = await db
    .select({
      id: apiKeys.id,
      wallet: apiKeys.wallet,
      name: apiKeys.name,
      expiresAt: apiKeys.expiresAt,
      revokedAt: apiKeys.revokedAt,
      limit: apiKeys.rateLimitLimit,
      windowSeconds: apiKeys.rateLimitWindowSeconds,
      walletLimit: walletLimits.rateLimitLimit,
      walletWindowSeconds: walletLimits.rateLimitWindowSeconds,
      permissions: apiKeys.permissions,
      meta: apiKeys.meta,
      creditsId: apiKeys.creditsId,
      allowedIps: apiKeys.allowedIps,
    })
    .from(apiKeys)
    .leftJoin(walletLimits, eq(walletLimits.wallet, apiKeys.wallet))
    .where(eq(apiKeys.hash, hash))
    .limit(1);
  if (!row) return null;
  const { limit, windowSeconds, walletLimit, walletWindowSeconds, allowedIps, ...rest } = row;
  return {
    ...rest,
    allowedIps: allowedIps === null ? null : compileIpAllowList(allowedIps),
    rateLimit: limit !== null && windowSeconds !== null ? { limit, windowSeconds } : null,
    walletRateLimit:
      walletLimit !== null && walletWindowSeconds !== null
        ? { limit: walletLimit, windowSeconds: walletWindowSeconds }
        : null,
  };
}
