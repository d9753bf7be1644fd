import { describe, expect, it } from "vitest";
import { wholeAmount } from "./amount";

describe("the top-up amount", () => {
  it("takes whole numbers of USDC as the server reads them", () => {
    expect(wholeAmount("5")).toBe("5");
    expect(wholeAmount(" 007 ")).toBe("7");
  });

  it("refuses fractions, signs, exponents and empty text", () => {
    for (const text of ["", "1.5", "-2", "1e3", "five"]) expect(wholeAmount(text)).toBeNull();
  });
});
