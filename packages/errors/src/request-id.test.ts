import { describe, expect, it } from "vitest";
import { acceptRequestId, isRequestId } from "./request-id.js";

describe("acceptRequestId", () => {
  it("keeps a caller's id of 1 to 64 letters, digits, dots, underscores and hyphens", () => {
    for (const id of ["a", "checkout-7f3a.retry_2", "x".repeat(64), "0123456789ABCDEFabcdef"]) {
      expect(acceptRequestId(id)).toBe(id);
    }
  });

  it.each([
    ["65 characters", "x".repeat(65)],
    ["an empty one", ""],
    ["a space", "abc def"],
    ["a newline attempt", "abc\r\nX-Injected: 1"],
    ["non-ASCII", "café"],
    ["a repeated header as node joins it", "a, b"],
    ["a quote", 'a"b'],
  ])("replaces %s with a fresh UUID", (_name, header) => {
    const id = acceptRequestId(header);
    expect(id).not.toBe(header);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(isRequestId(id)).toBe(true);
  });

  it("makes a different id for each request that brings none", () => {
    const ids = new Set(Array.from({ length: 100 }, () => acceptRequestId(undefined)));
    expect(ids.size).toBe(100);
    expect(isRequestId(["a"])).toBe(false);
  });
});
