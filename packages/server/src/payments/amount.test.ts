import { describe, expect, it } from "vitest";
import { creditsFor, toBaseUnits } from "./amount.js";

describe("top-up amounts", () => {
  it("reads whole tokens as base units", () => {
    expect(toBaseUnits("5", 6)).toBe(5_000_000n);
    expect(toBaseUnits("1.5", 6)).toBe(1_500_000n);
    expect(toBaseUnits("0.000001", 6)).toBe(1n);
    expect(toBaseUnits("2.50", 2)).toBe(250n);
  });

  it("refuses more places than the token has, signs, exponents and spaces", () => {
    for (const text of ["0.0000001", "-1", "1e3", " 1", "1.", ".5", "", "0x10", "1,5"]) {
      expect(toBaseUnits(text, 6)).toBeNull();
    }
  });

  it("sells whole credits, rounding a fraction down", () => {
    expect(creditsFor(5_000_000n, 6, 1000)).toBe(5000n);
    expect(creditsFor(1_500_001n, 6, 1000)).toBe(1500n);
  });
});
