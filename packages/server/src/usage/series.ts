import type { Usage, UsageCounts } from "../schemas/usage.js";
import type { UsageOutcome } from "./outcome.js";

export type Granularity = "hour" | "day";

/** The range of a usage query that names neither end: the last 30 days. */
export const DEFAULT_RANGE_MS = 30 * 86_400_000;

/** Longest range a usage query may span, and most buckets it may answer with. */
export const MAX_RANGE_DAYS = 366;
export const MAX_BUCKETS = 2_000;

const BUCKET_MS: Record<Granularity, number> = { hour: 3_600_000, day: 86_400_000 };

/** A validated range, widened to whole UTC buckets: `from` inclusive, `to` exclusive. */
export interface UsageRange {
  from: Date;
  to: Date;
  granularity: Granularity;
  buckets: number;
}

export type UsageRangeResult = { ok: true; range: UsageRange } | { ok: false; message: string };

/** Start of the UTC bucket containing `ms`. Epoch time has no leap seconds, so days are exact. */
export function bucketStart(ms: number, granularity: Granularity): number {
  const size = BUCKET_MS[granularity];
  return Math.floor(ms / size) * size;
}

/** The last instant PostgreSQL can store as a timestamp the way Date.toISOString() writes it. */
const LAST_STORABLE_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * Validates a requested range and widens it to whole buckets: `from` moves back to the start
 * of its bucket and `to` forward to the end of the bucket holding its last instant. Counts are
 * kept per hour, so a partial bucket cannot be answered exactly; the answer carries the widened
 * range so nobody mistakes it for the requested one.
 *
 * @example resolveUsageRange(new Date("2026-01-01T10:30Z"), new Date("2026-01-02T00:00Z"), "day")
 *   // ok: from 2026-01-01T00:00Z, to 2026-01-02T00:00Z, 1 bucket
 */
export function resolveUsageRange(from: Date, to: Date, granularity: Granularity): UsageRangeResult {
  const fromMs = from.getTime();
  const toMs = to.getTime();
  if (Number.isNaN(fromMs) || Number.isNaN(toMs))
    return { ok: false, message: "from and to must be valid dates" };
  if (fromMs >= toMs) return { ok: false, message: "from must be before to" };
  if (toMs - fromMs > MAX_RANGE_DAYS * BUCKET_MS.day) {
    return { ok: false, message: `The range may span at most ${MAX_RANGE_DAYS} days` };
  }
  const size = BUCKET_MS[granularity];
  const start = bucketStart(fromMs, granularity);
  const end = bucketStart(toMs - 1, granularity) + size;
  // Widening can push `to` into year 10000, which PostgreSQL cannot store: refuse it as bad input.
  if (end > LAST_STORABLE_MS) return { ok: false, message: "The range must end within the year 9999" };
  const buckets = (end - start) / size;
  if (buckets > MAX_BUCKETS) {
    return {
      ok: false,
      message: `The range holds ${buckets} ${granularity} buckets; at most ${MAX_BUCKETS} allowed`,
    };
  }
  return { ok: true, range: { from: new Date(start), to: new Date(end), granularity, buckets } };
}

/** Verifications by outcome; `requests` is their sum. */
export type Counts = UsageCounts;

/** A key's count of one outcome over the whole range. */
export interface KeySum {
  keyId: string;
  name: string;
  outcome: UsageOutcome;
  count: number;
}

/** All keys' count of one outcome in one bucket (`start`). */
export interface BucketSum {
  start: Date;
  outcome: UsageOutcome;
  count: number;
}

const FIELD: Record<UsageOutcome, Exclude<keyof Counts, "requests">> = {
  VALID: "valid",
  RATE_LIMITED: "rateLimited",
  EXPIRED: "expired",
  REVOKED: "revoked",
  INSUFFICIENT_PERMISSIONS: "insufficientPermissions",
  USAGE_EXCEEDED: "usageExceeded",
  IP_NOT_ALLOWED: "ipNotAllowed",
  WALLET_SUSPENDED: "walletSuspended",
};

/** Counts of nothing: every outcome 0. */
export function zeroCounts(): Counts {
  return {
    requests: 0,
    valid: 0,
    rateLimited: 0,
    expired: 0,
    revoked: 0,
    insufficientPermissions: 0,
    usageExceeded: 0,
    ipNotAllowed: 0,
    walletSuspended: 0,
  };
}

/** Adds `n` verifications of `outcome` to `counts` (and to its requests). */
export function addOutcome(counts: Counts, outcome: UsageOutcome, n: number): void {
  counts[FIELD[outcome]] += n;
  counts.requests += n;
}

/**
 * Builds the `Usage` answer from sums: a zero-filled series with one entry per bucket, one entry
 * per key that has sums (plus each of `include`, even without any, e.g. the key a query was
 * filtered to), sorted by requests then id, and the totals (the buckets' sums). Bucket sums outside
 * the range are ignored; those inside are placed by their bucket, whatever their exact time.
 */
export function buildUsageFromSums(input: {
  wallet: string;
  range: UsageRange;
  byKey: readonly KeySum[];
  byBucket: readonly BucketSum[];
  include?: ReadonlyArray<{ keyId: string; name: string }>;
}): Usage {
  const { wallet, range } = input;
  const from = range.from.getTime();
  const size = BUCKET_MS[range.granularity];
  const series = Array.from({ length: range.buckets }, (_, i) => ({
    start: new Date(from + i * size),
    ...zeroCounts(),
  }));
  const totals = zeroCounts();
  for (const sum of input.byBucket) {
    const bucket = series[(bucketStart(sum.start.getTime(), range.granularity) - from) / size];
    if (bucket === undefined) continue;
    addOutcome(bucket, sum.outcome, sum.count);
    addOutcome(totals, sum.outcome, sum.count);
  }
  const keys = new Map<string, { keyId: string; name: string } & Counts>();
  for (const key of input.include ?? [])
    keys.set(key.keyId, { keyId: key.keyId, name: key.name, ...zeroCounts() });
  for (const sum of input.byKey) {
    let key = keys.get(sum.keyId);
    if (key === undefined) {
      key = { keyId: sum.keyId, name: sum.name, ...zeroCounts() };
      keys.set(sum.keyId, key);
    }
    addOutcome(key, sum.outcome, sum.count);
  }
  const keyList = [...keys.values()].sort(
    (a, b) => b.requests - a.requests || (a.keyId < b.keyId ? -1 : a.keyId > b.keyId ? 1 : 0),
  );
  return {
    wallet,
    from: range.from,
    to: range.to,
    granularity: range.granularity,
    totals,
    keys: keyList,
    series,
  };
}
