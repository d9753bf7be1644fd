import { describe, expect, it } from "vitest";
import { BASE62_ALPHABET } from "./base62.js";
import { hashKey, isWellFormedKey, newKey } from "./secret.js";

const FORMAT = /^kp_[0-9A-Za-z]{38}$/;

describe("newKey", () => {
  it("issues `<prefix>_<32 random><6 checksum>` with the hash and start docs/api.md describes", () => {
    const { key, hash, start } = newKey("kp");
    expect(key).toMatch(FORMAT);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).toBe(hashKey(key));
    expect(start).toBe(key.slice(0, "kp_".length + 4));
    expect(isWellFormedKey(key, "kp")).toBe(true);
  });

  it("uses the configured prefix", () => {
    const { key, start } = newKey("acme1");
    expect(key.startsWith("acme1_")).toBe(true);
    expect(start).toMatch(/^acme1_[0-9A-Za-z]{4}$/);
    expect(isWellFormedKey(key, "acme1")).toBe(true);
    expect(isWellFormedKey(key, "kp")).toBe(false);
  });

  it("generates 10,000 distinct, well-formed secrets", () => {
    const keys = new Set<string>();
    for (let i = 0; i < 10_000; i++) {
      const { key } = newKey("kp");
      expect(isWellFormedKey(key, "kp")).toBe(true);
      keys.add(key);
    }
    expect(keys.size).toBe(10_000);
  });

  it("uses every base62 character in the random part (no skewed alphabet)", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) for (const char of newKey("kp").key.slice(3, 35)) seen.add(char);
    expect(seen.size).toBe(BASE62_ALPHABET.length);
  });
});

describe("isWellFormedKey", () => {
  const { key } = newKey("kp");

  it("rejects any one-character change, in the random part or the checksum", () => {
    for (let index = 3; index < key.length; index++) {
      const original = key.charAt(index);
      const replacement = original === "a" ? "b" : "a";
      const changed = key.slice(0, index) + replacement + key.slice(index + 1);
      expect(isWellFormedKey(changed, "kp"), `change at ${index}`).toBe(false);
    }
  });

  it("rejects wrong lengths, prefixes and characters", () => {
    expect(isWellFormedKey(key.slice(0, -1), "kp")).toBe(false);
    expect(isWellFormedKey(`${key}0`, "kp")).toBe(false);
    expect(isWellFormedKey(`xx${key.slice(2)}`, "kp")).toBe(false);
    expect(isWellFormedKey(`${key.slice(0, 10)}-${key.slice(11)}`, "kp")).toBe(false);
    expect(isWellFormedKey("", "kp")).toBe(false);
  });
});

describe("hashKey", () => {
  it("is the hex SHA-256 of the whole secret", () => {
    expect(hashKey("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
});
