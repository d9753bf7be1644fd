import { describe, expect, it } from "vitest";
import { formatCredits, formatPermissions } from "./policy-words";

describe("formatCredits and formatPermissions", () => {
  it("writes credits with their refill", () => {
    expect(formatCredits(null)).toBe("unlimited");
    expect(formatCredits({ remaining: 1_200, refill: null })).toBe("1,200 left");
    expect(formatCredits({ remaining: 0, refill: { interval: "monthly", amount: 5_000 } })).toBe(
      "0 left, refills to 5,000 monthly",
    );
  });

  it("shortens a long permission list", () => {
    expect(formatPermissions([])).toBe("none");
    expect(formatPermissions(["a", "b"])).toBe("a, b");
    expect(formatPermissions(["a", "b", "c", "d"])).toBe("a, b +2 more");
  });
});
