import { describe, expect, it } from "vitest";
import {
  describeRateLimit,
  formatRateLimit,
  formatRateLimits,
  parseRateLimit,
  wholeNumber,
} from "./rate-limit";

describe("parseRateLimit", () => {
  it("is none when both inputs are empty, and the limit when both are whole numbers in range", () => {
    expect(parseRateLimit("", " ")).toEqual({ ok: true, value: null });
    expect(parseRateLimit("1000000", "86400")).toEqual({
      ok: true,
      value: { limit: 1_000_000, windowSeconds: 86_400 },
    });
  });

  it("says which number is wrong", () => {
    for (const [limit, window] of [
      ["0", "60"],
      ["1000001", "60"],
      ["", "60"],
    ] as const) {
      expect(parseRateLimit(limit, window)).toEqual({
        ok: false,
        message: "The rate limit is a whole number of requests from 1 to 1,000,000.",
      });
    }
    expect(parseRateLimit("10", "86401")).toEqual({
      ok: false,
      message: "The rate limit window is a whole number of seconds from 1 to 86,400.",
    });
  });
});

describe("formatRateLimit and wholeNumber", () => {
  it("writes a limit for people", () => {
    expect(formatRateLimit({ limit: 1_000, windowSeconds: 60 })).toBe("1,000 / 60 s");
    expect(formatRateLimit(null)).toBe("none");
  });

  it("reads only plain digits", () => {
    expect(wholeNumber(" 42 ")).toBe(42);
    for (const text of ["", "-1", "1.0", "1e3", "0x10", "99999999999999999999"]) {
      expect(wholeNumber(text), text).toBeNull();
    }
  });
});

describe("describeRateLimit", () => {
  it("names a second, minute, hour or day, and counts other windows in seconds", () => {
    expect(describeRateLimit({ limit: 100, windowSeconds: 60 })).toBe("100 per minute");
    expect(describeRateLimit({ limit: 1000, windowSeconds: 1 })).toBe("1,000 per second");
    expect(describeRateLimit({ limit: 3, windowSeconds: 86_400 })).toBe("3 per day");
    expect(describeRateLimit({ limit: 5, windowSeconds: 90 })).toBe("5 per 90 seconds");
    expect(describeRateLimit(null)).toBe("none");
  });
});

describe("formatRateLimits", () => {
  it("says a lone default limit as before, and names every limit of a longer list", () => {
    expect(formatRateLimits([])).toBe("none");
    expect(formatRateLimits([{ name: "default", limit: 100, windowSeconds: 60, autoApply: true }])).toBe(
      "100 / 60 s",
    );
    expect(
      formatRateLimits([
        { name: "default", limit: 100, windowSeconds: 60, autoApply: true },
        { name: "tokens", limit: 200_000, windowSeconds: 60, autoApply: false },
      ]),
    ).toBe("default 100 / 60 s, tokens 200,000 / 60 s (when asked)");
    expect(formatRateLimits([{ name: "burst", limit: 5, windowSeconds: 1, autoApply: true }])).toBe(
      "burst 5 / 1 s",
    );
  });
});
