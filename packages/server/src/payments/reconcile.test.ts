import { describe, expect, it } from "vitest";
import { MAX_BACKOFF_MS, nextAttemptAt } from "./reconcile.js";

describe("a payment's back-off", () => {
  const now = new Date("2026-01-01T00:00:00Z");
  const later = new Date(now.getTime() + 24 * 3600_000);
  const after = (attempts: number, validBefore = later) =>
    nextAttemptAt(attempts, now, validBefore).getTime() - now.getTime();

  it("waits 15 s after the first open turn and doubles up to 10 minutes", () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((attempts) => after(attempts))).toEqual([
      15_000, 30_000, 60_000, 120_000, 240_000, 480_000, 600_000,
    ]);
    expect(after(10_000)).toBe(MAX_BACKOFF_MS);
  });

  it("comes back just after the authorization expires, not later, so an expired payment is decided at once", () => {
    expect(after(6, new Date(now.getTime() + 40_000))).toBe(41_000);
    expect(after(1, new Date(now.getTime() + 40_000))).toBe(15_000);
    expect(after(6, new Date(now.getTime() - 40_000))).toBe(480_000);
  });
});
