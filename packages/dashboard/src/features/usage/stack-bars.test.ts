import { describe, expect, it } from "vitest";
import { stackBars } from "./stack-bars";

const bucket = (
  valid: number,
  rateLimited: number,
  expired = 0,
  revoked = 0,
  insufficientPermissions = 0,
  usageExceeded = 0,
  ipNotAllowed = 0,
  walletSuspended = 0,
) => ({
  start: new Date("2030-01-01T00:00:00Z"),
  requests:
    valid +
    rateLimited +
    expired +
    revoked +
    insufficientPermissions +
    usageExceeded +
    ipNotAllowed +
    walletSuspended,
  valid,
  rateLimited,
  expired,
  revoked,
  insufficientPermissions,
  usageExceeded,
  ipNotAllowed,
  walletSuspended,
});

describe("stackBars", () => {
  it("stacks outcomes bottom-up and scales the tallest bar to the height", () => {
    const segments = stackBars([bucket(6, 2), bucket(2, 0)], 200, 100);
    expect(segments.map((segment) => [segment.outcome, segment.y, segment.height])).toEqual([
      ["valid", 25, 75],
      ["rateLimited", 0, 25],
      ["valid", 75, 25],
    ]);
    expect(segments[2]?.x).toBeCloseTo(110);
  });

  it("stacks the permission and credit refusals above the others", () => {
    const segments = stackBars([bucket(1, 0, 0, 0, 1, 2)], 100, 100);
    expect(segments.map((segment) => [segment.outcome, segment.y, segment.height])).toEqual([
      ["valid", 75, 25],
      ["insufficientPermissions", 50, 25],
      ["usageExceeded", 0, 50],
    ]);
  });

  it("draws nothing for empty buckets", () => {
    expect(stackBars([bucket(0, 0)], 100, 100)).toEqual([]);
  });
});
