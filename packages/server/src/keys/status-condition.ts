import { and, gt, isNull, lte, or, type Placeholder, type SQL } from "drizzle-orm";
import { apiKeys } from "../db/schema/index.js";

/** Which keys a list returns. */
export type StatusFilter = "active" | "revoked" | "expired" | "all";

/** A moment to compare against: a Date, or a placeholder a prepared statement fills in later. */
type Moment = Date | Placeholder;

/** Keys not revoked at `now` (a scheduled revocation still in the future counts as not revoked). */
export function notRevoked(now: Moment): SQL | undefined {
  return or(isNull(apiKeys.revokedAt), gt(apiKeys.revokedAt, now));
}

function notExpired(now: Moment): SQL | undefined {
  return or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now));
}

/** SQL twin of `deriveStatus`. */
export function statusCondition(status: StatusFilter, now: Moment): SQL | undefined {
  switch (status) {
    case "active":
      return and(notRevoked(now), notExpired(now));
    case "revoked":
      return lte(apiKeys.revokedAt, now);
    case "expired":
      return and(notRevoked(now), lte(apiKeys.expiresAt, now));
    case "all":
      return undefined;
  }
}
