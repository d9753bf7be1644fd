import { describe, expect, it } from "vitest";
import { DEFAULT_RETRY_AFTER_SECONDS, failureToApiError, parseRetryAfter } from "./failure.js";

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-11-22T12:00:00Z");
  it("reads delta-seconds", () => expect(parseRetryAfter("12", now)).toBe(12));
  it("reads an HTTP date", () => expect(parseRetryAfter("Sun, 22 Nov 2026 12:01:30 GMT", now)).toBe(90));
  it("falls back to the default when absent or unreadable", () => {
    expect(parseRetryAfter(null, now)).toBe(DEFAULT_RETRY_AFTER_SECONDS);
    expect(parseRetryAfter("soon", now)).toBe(DEFAULT_RETRY_AFTER_SECONDS);
  });
  it("clamps to 1 s .. 1 h", () => {
    expect(parseRetryAfter("0", now)).toBe(1);
    expect(parseRetryAfter("999999", now)).toBe(3_600);
    expect(parseRetryAfter("Sun, 22 Nov 2026 11:00:00 GMT", now)).toBe(1);
  });
});

describe("failureToApiError", () => {
  it("turns a rate limit into 429 with Retry-After", () => {
    const error = failureToApiError({ kind: "rate_limited", retryAfterSeconds: 7, detail: "HTTP 429" }, "x");
    expect(error).toMatchObject({ code: "TOO_MANY_REQUESTS", headers: { "retry-after": "7" } });
  });
  it("never puts the failure detail in the message", () => {
    const error = failureToApiError({ kind: "bad_gateway", detail: "ECONNRESET" }, "market data provider");
    expect(error).toEqual({ code: "BAD_GATEWAY", message: "The market data provider failed to answer" });
  });
});
