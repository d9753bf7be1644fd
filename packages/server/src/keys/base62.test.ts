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

describe("randomBase62", () => {
  it("uses every character about equally often, over many strings drawn across pool refills", () => {
    const counts = new Map<string, number>();
    const strings = new Set<string>();
    // 2,000 strings of 32: about 70,000 bytes, so the 4 KiB pool is refilled many times.
    for (let i = 0; i < 2_000; i++) {
      const value = randomBase62(32);
      strings.add(value);
      for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
    }
    expect(strings.size).toBe(2_000);
    expect(counts.size).toBe(62);
    // 64,000 characters over 62: about 1,032 each; a biased byte mapping (e.g. modulo without
    // rejection) would give the first 8 characters about 1,290.
    for (const count of counts.values()) {
      expect(count).toBeGreaterThan(880);
      expect(count).toBeLessThan(1_190);
    }
  });
});
