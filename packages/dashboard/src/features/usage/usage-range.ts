import type { RouterInputs, RouterOutputs } from "@keyport/server";

/** The answer of `usage.get`. */
export type Usage = RouterOutputs["usage"]["get"];
type UsageInput = RouterInputs["usage"]["get"];

/** The ranges the view offers: 24 hours by hour, then 7, 30 and 90 days by day. */
export const USAGE_RANGES = [
  { id: "24h", label: "24 hours", ms: 24 * 3_600_000, granularity: "hour" },
  { id: "7d", label: "7 days", ms: 7 * 86_400_000, granularity: "day" },
  { id: "30d", label: "30 days", ms: 30 * 86_400_000, granularity: "day" },
  { id: "90d", label: "90 days", ms: 90 * 86_400_000, granularity: "day" },
] as const;

export type UsageRangeId = (typeof USAGE_RANGES)[number]["id"];

/** `usage.get`'s input for a range ending at `now` (the server widens it to whole UTC buckets). */
export function usageQueryInput(
  wallet: string,
  rangeId: UsageRangeId,
  now: Date,
  keyId: string | undefined,
): UsageInput {
  const range = USAGE_RANGES.find((candidate) => candidate.id === rangeId) ?? USAGE_RANGES[0];
  return {
    wallet,
    from: new Date(now.getTime() - range.ms),
    to: now,
    granularity: range.granularity,
    ...(keyId === undefined ? {} : { keyId }),
  };
}

/**
 * The outcomes a verification can have, in stacking order, with their usage field, their code (as
 * verify and a key's recent verifications answer it) and their names for people.
 */
export const OUTCOMES = [
  { field: "valid", code: "VALID", label: "Valid" },
  { field: "rateLimited", code: "RATE_LIMITED", label: "Rate limited" },
  { field: "expired", code: "EXPIRED", label: "Expired" },
  { field: "revoked", code: "REVOKED", label: "Revoked" },
  { field: "insufficientPermissions", code: "INSUFFICIENT_PERMISSIONS", label: "Missing permissions" },
  { field: "usageExceeded", code: "USAGE_EXCEEDED", label: "Out of credits" },
  { field: "ipNotAllowed", code: "IP_NOT_ALLOWED", label: "IP not allowed" },
  { field: "walletSuspended", code: "WALLET_SUSPENDED", label: "Wallet suspended" },
] as const satisfies ReadonlyArray<{ field: string; code: RecordedOutcome; label: string }>;

export type Outcome = (typeof OUTCOMES)[number]["field"];

/** The outcome code of a key's recorded verification (`keys.verifications`). */
export type RecordedOutcome = RouterOutputs["keys"]["verifications"]["verifications"][number]["outcome"];

const WORDS_BY_CODE = new Map<RecordedOutcome, string>(
  OUTCOMES.map((outcome) => [outcome.code, outcome.label]),
);

/** A verification's outcome in the usage view's words: "RATE_LIMITED" → "Rate limited". */
export function outcomeWords(code: RecordedOutcome): string {
  return WORDS_BY_CODE.get(code) ?? code;
}
