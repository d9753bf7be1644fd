/** Verification outcomes that are counted. NOT_FOUND never is: no key is known to charge it to. */
export const USAGE_OUTCOMES = [
  "VALID",
  "RATE_LIMITED",
  "EXPIRED",
  "REVOKED",
  "INSUFFICIENT_PERMISSIONS",
  "USAGE_EXCEEDED",
  "IP_NOT_ALLOWED",
  "WALLET_SUSPENDED",
] as const;

export type UsageOutcome = (typeof USAGE_OUTCOMES)[number];

/** Start of the UTC hour containing `ms`, in epoch milliseconds. */
export function hourStart(ms: number): number {
  return ms - (ms % 3_600_000);
}
