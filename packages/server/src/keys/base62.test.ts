import { describe, expect, it } from "vitest";
import { encodeBase62, isBase62, randomBase62 } from "./base62.js";

describe("base62", () => {
  it("encodes integers left-padded to a fixed width", () => {
    expect(encodeBase62(0, 6)).toBe("000000");
    expect(encodeBase62(61, 2)).toBe("0z");
    expect(encodeBase62(62, 2)).toBe("10");
    expect(encodeBase62(0xffffffff, 6)).toBe("4gfFC3");
  });

  it("generates random strings of the requested length", () => {
    expect(randomBase62(100)).toHaveLength(100);
    expect(isBase62(randomBase62(100))).toBe(true);
    expect(isBase62("abc-")).toBe(false);
  });
});
