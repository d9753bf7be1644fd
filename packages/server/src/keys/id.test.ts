import { describe, expect, it } from "vitest";
import { isKeyId, newKeyId } from "./id.js";

describe("newKeyId", () => {
  it("is `key_` + 22 base62 characters and unique", () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newKeyId()));
    expect(ids.size).toBe(1000);
    for (const id of ids) {
      expect(id).toMatch(/^key_[0-9A-Za-z]{22}$/);
      expect(isKeyId(id)).toBe(true);
    }
  });

  it("isKeyId rejects other shapes", () => {
    expect(isKeyId("key_short")).toBe(false);
    expect(isKeyId("kex_0123456789abcdefghij")).toBe(false);
    expect(isKeyId("key_0123456789abcdef-hij")).toBe(false);
  });
});
