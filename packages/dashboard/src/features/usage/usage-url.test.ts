import { describe, expect, it } from "vitest";
import { parseUsageSearch, usageHref } from "./usage-url";

describe("usage state in the URL", () => {
  it("reads range and key, falling back to 7 days and all keys", () => {
    expect(parseUsageSearch("?range=30d&key=key_abcdefgh12345678")).toEqual({
      rangeId: "30d",
      keyId: "key_abcdefgh12345678",
    });
    expect(parseUsageSearch("")).toEqual({ rangeId: "7d", keyId: undefined });
    expect(parseUsageSearch("?range=1y&key=../../x")).toEqual({ rangeId: "7d", keyId: undefined });
  });

  it("writes what it reads", () => {
    const state = { rangeId: "24h" as const, keyId: "key_1234567890abcdefgh" };
    expect(usageHref(state)).toBe("/usage?range=24h&key=key_1234567890abcdefgh");
    expect(parseUsageSearch(usageHref(state).slice("/usage".length))).toEqual(state);
    expect(usageHref({ rangeId: "90d", keyId: undefined })).toBe("/usage?range=90d");
  });
});
