import { and, eq, gt, isNotNull, isNull, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../db/database.js";
import { apiKeys, plans, walletLimits, wallets } from "../db/schema/index.js";
import { autoAppliedLimits, PLAN_KEY_LIMIT_NAME, type PlanLimits } from "../ratelimit/applied-limits.js";
import type { KeyPlan, KeyRecord } from "../verify/key-record.js";
import { compileIpAllowList } from "./ip-allow-list.js";

/**
 * Reads what verification caches about a key, by its secret's hash, with its wallet's limit, suspension and,
 * given the default plan's id, the wallet's plan in force (its own while it lasts, else the default:
 * docs/plans.md), in one query; null when no key has that hash.
 * @example const verifier = createKeyVerifier({ ..., loadKeyByHash: (hash) => loadKeyByHash(db, hash, "free") });
 */
export async function loadKeyByHash(
  db: Db,
  hash: string,
  defaultPlanId: string | null = null,
): Promise<KeyRecord | null> {
  const own: SQL = sql`${and(isNotNull(wallets.planId), or(isNull(wallets.paidUntil), gt(wallets.paidUntil, sql`now()`)))}`;
  const planJoin = sql`${plans.id} = case when ${own} then ${wallets.planId} else ${defaultPlanId}::text end`;
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
      planId: plans.id,
      planName: plans.name,
      planPermissions: plans.permissions,
      planRateLimits: plans.rateLimits,
      planKeyRateLimit: plans.keyRateLimit,
      planUntil: sql<Date | string | null>`case when ${own} then ${wallets.paidUntil} end`,
    })
    .from(apiKeys)
    .leftJoin(walletLimits, eq(walletLimits.wallet, apiKeys.wallet))
    .leftJoin(wallets, eq(wallets.address, apiKeys.wallet))
    .leftJoin(plans, planJoin)
    .where(eq(apiKeys.hash, hash))
    .limit(1);
  if (!row) return null;
  const {
    walletRateLimits,
    allowedIps,
    suspendedAt,
    planId,
    planName,
    planPermissions,
    planRateLimits,
    planKeyRateLimit,
    planUntil,
    ...rest
  } = row;
  const wallet = walletRateLimits ?? [];
  let plan: KeyPlan | undefined;
  if (planId !== null && planName !== null) {
    const limits: PlanLimits = {
      rateLimits: planRateLimits ?? [],
      keyLimit:
        planKeyRateLimit == null ? null : { name: PLAN_KEY_LIMIT_NAME, ...planKeyRateLimit, autoApply: true },
    };
    plan = {
      id: planId,
      name: planName,
      permissions: planPermissions === null || planPermissions.includes("*") ? null : planPermissions,
      limits,
      until: planUntil === null ? null : new Date(planUntil).getTime(),
    };
  }
  return {
    ...rest,
    allowedIps: allowedIps === null ? null : compileIpAllowList(allowedIps),
    walletRateLimits: wallet,
    suspended: suspendedAt !== null,
    autoLimits: autoAppliedLimits(row.id, row.rateLimits, wallet, plan?.limits),
    plan,
  };
}
