import type { RouterOutputs } from "@keyport/server";

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

/** `59 min`, `5 h`, `3 days`: the remaining time, rounded down so it never promises more than is left. */
export function formatDuration(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return "under 1 min";
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} days`;
}
