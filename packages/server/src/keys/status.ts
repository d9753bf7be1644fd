import type { ApiKeyRow, KeyCreditsRow } from "../db/schema/index.js";
import type { ApiKey, ApiKeyStatus } from "../schemas/api-key.js";
import { defaultLimitOf } from "../schemas/rate-limits.js";
import { toCredits } from "./key-credits.js";

/**
 * Status at `now`: revoked once `revokedAt` has passed (a roll's grace period puts it in the future),
 * else expired once `expiresAt` has passed, else active.
 */
export function deriveStatus(row: Pick<ApiKeyRow, "revokedAt" | "expiresAt">, now: Date): ApiKeyStatus {
  if (row.revokedAt !== null && row.revokedAt <= now) return "revoked";
  if (row.expiresAt !== null && row.expiresAt <= now) return "expired";
  return "active";
}

/** Maps a stored row, with its credit balance if it has one, to the public `ApiKey` shape (the hash never leaves). */
export function toApiKey(row: ApiKeyRow, now: Date, credits?: KeyCreditsRow): ApiKey {
  return {
    id: row.id,
    wallet: row.wallet,
    name: row.name,
    start: row.start,
    status: deriveStatus(row, now),
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    lastUsedAt: row.lastUsedAt,
    revokedAt: row.revokedAt,
    rateLimit: defaultLimitOf(row.rateLimits),
    // In the schema's field order: PostgreSQL's jsonb keeps its own.
    rateLimits: row.rateLimits.map((l) => ({
      name: l.name,
      limit: l.limit,
      windowSeconds: l.windowSeconds,
      autoApply: l.autoApply,
    })),
    permissions: row.permissions,
    credits: toCredits(credits, now),
    meta: row.meta,
    leak:
      row.leakSource !== null && row.leakReportedAt !== null
        ? { url: row.leakUrl, source: row.leakSource, reportedAt: row.leakReportedAt }
        : null,
    allowedIps: row.allowedIps,
    issuedBy: row.issuedByOperator ? { operator: true } : null,
  };
}
