import type { RouterOutputs } from "@keyport/server";
import { formatDuration } from "../../lib/duration";

/** A key as `keys.list` returns it. */
export type ApiKey = RouterOutputs["keys"]["list"]["keys"][number];

/**
 * The key's status in words. An active key whose `revokedAt` lies ahead is in a roll's grace period:
 * "revoking in 59 min". `now` is passed in so the words follow the page's clock (and tests' clocks).
 */
export function keyStatusWords(key: Pick<ApiKey, "status" | "revokedAt">, now: Date): string {
  if (key.status !== "active" || key.revokedAt === null) return key.status;
  const left = key.revokedAt.getTime() - now.getTime();
  if (left <= 0) return "revoked";
  return `revoking in ${formatDuration(left)}`;
}
