import { describe, expect, it } from "vitest";
import {
  type BucketSum,
  buildUsageFromSums,
  type KeySum,
  resolveUsageRange,
  type UsageRange,
} from "./series.js";

const W = "0x000000000000000000000000000000000000dEaD";
const d = (iso: string) => new Date(iso);

function range(from: string, to: string, granularity: "hour" | "day"): UsageRange {
  const result = resolveUsageRange(d(from), d(to), granularity);
  if (!result.ok) throw new Error(result.message);
  return result.range;
}

const zero = {
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

describe("usage range", () => {
  it("keeps an aligned range as asked: from inclusive, to exclusive", () => {
    expect(range("2026-01-01T00:00Z", "2026-01-08T00:00Z", "day")).toEqual({
      from: d("2026-01-01T00:00Z"),
      to: d("2026-01-08T00:00Z"),
      granularity: "day",
      buckets: 7,
    });
  });

  it("widens an unaligned range to the whole buckets it touches", () => {
    const r = range("2026-01-01T10:30Z", "2026-01-03T00:00:00.001Z", "day");
    expect([r.from, r.to, r.buckets]).toEqual([d("2026-01-01T00:00Z"), d("2026-01-04T00:00Z"), 3]);
    const h = range("2026-01-01T10:30Z", "2026-01-01T11:30Z", "hour");
    expect([h.from, h.to, h.buckets]).toEqual([d("2026-01-01T10:00Z"), d("2026-01-01T12:00Z"), 2]);
  });

  it("rejects an empty or reversed range", () => {
    expect(resolveUsageRange(d("2026-01-02T00:00Z"), d("2026-01-02T00:00Z"), "day").ok).toBe(false);
    expect(resolveUsageRange(d("2026-01-03T00:00Z"), d("2026-01-02T00:00Z"), "day").ok).toBe(false);
    expect(resolveUsageRange(new Date(Number.NaN), d("2026-01-02T00:00Z"), "day").ok).toBe(false);
  });

  it("refuses a range that widening would push past the year 9999", () => {
    const from = new Date("9999-12-30T00:00:00.000Z");
    const result = resolveUsageRange(from, new Date("9999-12-31T23:59:58.994Z"), "day");
    expect(result).toEqual({ ok: false, message: "The range must end within the year 9999" });
    expect(resolveUsageRange(from, new Date("9999-12-31T00:00:00.000Z"), "day").ok).toBe(true);
  });

  it("allows 366 days but not one millisecond more", () => {
    expect(resolveUsageRange(d("2025-01-01T00:00Z"), d("2026-01-02T00:00Z"), "day").ok).toBe(true);
    expect(resolveUsageRange(d("2025-01-01T00:00Z"), d("2026-01-02T00:00:00.001Z"), "day")).toEqual({
      ok: false,
      message: "The range may span at most 366 days",
    });
  });

  it("allows 2,000 buckets but not 2,001", () => {
    const from = d("2026-01-01T00:00Z");
    expect(resolveUsageRange(from, new Date(from.getTime() + 2000 * 3_600_000), "hour").ok).toBe(true);
    expect(resolveUsageRange(from, new Date(from.getTime() + 2001 * 3_600_000), "hour").ok).toBe(false);
  });
});

describe("usage answer", () => {
  // Each row is one key's count in one bucket, so it is both a key sum and a bucket sum.
  const rows: Array<KeySum & BucketSum> = [
    { keyId: "key_a", name: "a", start: d("2026-01-01T00:00Z"), outcome: "VALID", count: 5 },
    { keyId: "key_a", name: "a", start: d("2026-01-01T00:00Z"), outcome: "RATE_LIMITED", count: 2 },
    { keyId: "key_b", name: "b", start: d("2026-01-03T00:00Z"), outcome: "REVOKED", count: 9 },
    { keyId: "key_b", name: "b", start: d("2026-01-03T00:00Z"), outcome: "EXPIRED", count: 1 },
  ];

  it("zero-fills every bucket of the range and sums totals and keys", () => {
    const usage = buildUsageFromSums({
      wallet: W,
      range: range("2026-01-01T00:00Z", "2026-01-05T00:00Z", "day"),
      byKey: rows,
      byBucket: rows,
    });
    expect(usage.series).toEqual([
      {
        start: d("2026-01-01T00:00Z"),
        requests: 7,
        valid: 5,
        rateLimited: 2,
        expired: 0,
        revoked: 0,
        insufficientPermissions: 0,
        usageExceeded: 0,
        ipNotAllowed: 0,
        walletSuspended: 0,
      },
      { start: d("2026-01-02T00:00Z"), ...zero },
      {
        start: d("2026-01-03T00:00Z"),
        requests: 10,
        valid: 0,
        rateLimited: 0,
        expired: 1,
        revoked: 9,
        insufficientPermissions: 0,
        usageExceeded: 0,
        ipNotAllowed: 0,
        walletSuspended: 0,
      },
      { start: d("2026-01-04T00:00Z"), ...zero },
    ]);
    expect(usage.totals).toEqual({
      requests: 17,
      valid: 5,
      rateLimited: 2,
      expired: 1,
      revoked: 9,
      insufficientPermissions: 0,
      usageExceeded: 0,
      ipNotAllowed: 0,
      walletSuspended: 0,
    });
    expect(usage.keys).toEqual([
      {
        keyId: "key_b",
        name: "b",
        requests: 10,
        valid: 0,
        rateLimited: 0,
        expired: 1,
        revoked: 9,
        insufficientPermissions: 0,
        usageExceeded: 0,
        ipNotAllowed: 0,
        walletSuspended: 0,
      },
      {
        keyId: "key_a",
        name: "a",
        requests: 7,
        valid: 5,
        rateLimited: 2,
        expired: 0,
        revoked: 0,
        insufficientPermissions: 0,
        usageExceeded: 0,
        ipNotAllowed: 0,
        walletSuspended: 0,
      },
    ]);
    expect([usage.wallet, usage.granularity, usage.from, usage.to]).toEqual([
      W,
      "day",
      d("2026-01-01T00:00Z"),
      d("2026-01-05T00:00Z"),
    ]);
  });

  it("puts hourly sums into their day and ignores sums outside the range", () => {
    const hourly: BucketSum[] = [
      { start: d("2026-01-01T23:00Z"), outcome: "VALID", count: 1 },
      { start: d("2026-01-02T00:00Z"), outcome: "VALID", count: 1 },
      { start: d("2025-12-31T23:00Z"), outcome: "VALID", count: 100 },
      { start: d("2026-01-03T00:00Z"), outcome: "VALID", count: 100 },
    ];
    const usage = buildUsageFromSums({
      wallet: W,
      range: range("2026-01-01T00:00Z", "2026-01-03T00:00Z", "day"),
      byKey: [],
      byBucket: hourly,
    });
    expect(usage.series.map((s) => s.valid)).toEqual([1, 1]);
    expect(usage.totals.requests).toBe(2);
  });

  it("lists an included key even without usage, and nothing else when there are no sums", () => {
    const r = range("2026-01-01T00:00Z", "2026-01-01T03:00Z", "hour");
    const usage = buildUsageFromSums({
      wallet: W,
      range: r,
      byKey: [],
      byBucket: [],
      include: [{ keyId: "key_c", name: "c" }],
    });
    expect(usage.keys).toEqual([{ keyId: "key_c", name: "c", ...zero }]);
    expect(usage.series).toHaveLength(3);
    expect(usage.totals).toEqual(zero);
  });
});
