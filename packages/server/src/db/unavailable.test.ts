import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./unavailable.js";

const withCode = (code: string, cause?: unknown) => Object.assign(new Error("x", { cause }), { code });

describe("isDatabaseUnavailable", () => {
  it("recognises connection failures, also wrapped as a cause (drizzle wraps driver errors)", () => {
    for (const code of ["ECONNREFUSED", "CONNECTION_CLOSED", "CONNECT_TIMEOUT", "57P01", "08006", "55000"]) {
      expect(isDatabaseUnavailable(withCode(code)), code).toBe(true);
      expect(isDatabaseUnavailable(new Error("query failed", { cause: withCode(code) })), code).toBe(true);
    }
  });

  it("leaves other errors alone: they are bugs or bad requests, not outages", () => {
    for (const error of [withCode("23505"), withCode("42P01"), new Error("plain"), "text", null, undefined]) {
      expect(isDatabaseUnavailable(error)).toBe(false);
    }
  });
});
