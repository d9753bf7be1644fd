import { describe, expect, it } from "vitest";
import { deriveStatus } from "./status.js";

const now = new Date("2030-01-01T00:00:00Z");
const past = new Date("2029-12-31T23:59:59Z");
const future = new Date("2030-01-01T00:00:01Z");

describe("deriveStatus", () => {
  it("is active with no dates, or with both in the future (a roll's grace period)", () => {
    expect(deriveStatus({ revokedAt: null, expiresAt: null }, now)).toBe("active");
    expect(deriveStatus({ revokedAt: future, expiresAt: future }, now)).toBe("active");
  });

  it("is revoked once revokedAt has passed, even when also expired", () => {
    expect(deriveStatus({ revokedAt: now, expiresAt: null }, now)).toBe("revoked");
    expect(deriveStatus({ revokedAt: past, expiresAt: past }, now)).toBe("revoked");
  });

  it("is expired once expiresAt has passed and it is not revoked", () => {
    expect(deriveStatus({ revokedAt: null, expiresAt: past }, now)).toBe("expired");
    expect(deriveStatus({ revokedAt: future, expiresAt: now }, now)).toBe("expired");
  });
});
