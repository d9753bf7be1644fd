import { describe, expect, it } from "vitest";
import { formatDuration } from "../../lib/duration";
import { keyStatusWords } from "./key-status";

const now = new Date("2030-01-01T12:00:00Z");
const later = (ms: number) => new Date(now.getTime() + ms);

describe("keyStatusWords", () => {
  it("says active, revoked and expired as the server does", () => {
    expect(keyStatusWords({ status: "active", revokedAt: null }, now)).toBe("active");
    expect(keyStatusWords({ status: "revoked", revokedAt: later(-1000) }, now)).toBe("revoked");
    expect(keyStatusWords({ status: "expired", revokedAt: null }, now)).toBe("expired");
  });

  it("says how long a rolled key has left during its grace period", () => {
    // A roll with one hour of grace, read a few seconds later.
    expect(keyStatusWords({ status: "active", revokedAt: later(3_600_000 - 5_000) }, now)).toBe(
      "revoking in 59 min",
    );
    expect(keyStatusWords({ status: "active", revokedAt: later(30_000) }, now)).toBe(
      "revoking in under 1 min",
    );
  });

  it("says revoked once the grace period has passed on the page's clock", () => {
    expect(keyStatusWords({ status: "active", revokedAt: later(-1) }, now)).toBe("revoked");
  });
});

describe("formatDuration", () => {
  it("rounds down and switches units", () => {
    expect(formatDuration(119 * 60_000)).toBe("119 min");
    expect(formatDuration(5 * 3_600_000 + 59 * 60_000)).toBe("5 h");
    expect(formatDuration(7 * 86_400_000)).toBe("7 days");
  });
});
