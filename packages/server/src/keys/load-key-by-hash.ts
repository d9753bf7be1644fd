import { eq } from "drizzle-orm";
import type { Db } from "../db/database.js";
import { apiKeys, walletLimits, wallets } from "../db/schema/index.js";
import { autoAppliedLimits } from "../ratelimit/applied-limits.js";
import type { KeyRecord } from "../verify/key-record.js";
import { compileIpAllowList } from "./ip-allow-list.js";

/**
 * Reads what verification caches about a key, by its secret's hash, with its wallet's limit and
 * suspension (one query); null when no key has that hash.
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
      rateLimits: apiKeys.rateLimits,
      walletRateLimits: walletLimits.rateLimits,
      permissions: apiKeys.permissions,
      meta: apiKeys.meta,
      creditsId: apiKeys.creditsId,
      allowedIps: apiKeys.allowedIps,
      suspendedAt: wallets.suspendedAt,
    })
    .from(apiKeys)
    .leftJoin(walletLimits, eq(walletLimits.wallet, apiKeys.wallet))
    .leftJoin(wallets, eq(wallets.address, apiKeys.wallet))
    .where(eq(apiKeys.hash, hash))
    .limit(1);
  if (!row) return null;
  const { walletRateLimits, allowedIps, suspendedAt, ...rest } = row;
  const wallet = walletRateLimits ?? [];
  return {
    ...rest,
    allowedIps: allowedIps === null ? null : compileIpAllowList(allowedIps),
    walletRateLimits: wallet,
    suspended: suspendedAt !== null,
    autoLimits: autoAppliedLimits(row.id, row.rateLimits, wallet),
  };
}
