import { describe, expect, it } from "vitest";
import { createKeyCache } from "./cache.js";
import type { KeyRecord } from "./key-record.js";

function record(id: string): KeyRecord {
  return {
    id,
    wallet: "0xW",
    name: id,
    expiresAt: null,
    revokedAt: null,
    rateLimits: [],
    autoLimits: [],
    walletRateLimits: [],
    permissions: [],
    meta: null,
    creditsId: null,
    allowedIps: null,
    suspended: false,
  };
}

describe("key cache", () => {
  it("answers cached records, known-unknown hashes and misses apart", () => {
    const cache = createKeyCache();
    cache.set("h1", record("key_1"), cache.generation());
    cache.set("h2", null, cache.generation());
    expect(cache.get("h1")).toEqual(record("key_1"));
    expect(cache.get("h2")).toBeNull();
    expect(cache.get("h3")).toBeUndefined();
  });

  it("forgets a key by its id", () => {
    const cache = createKeyCache();
    cache.set("h1", record("key_1"), cache.generation());
    cache.set("h2", record("key_2"), cache.generation());
    cache.invalidate("key_1");
    expect(cache.get("h1")).toBeUndefined();
    expect(cache.get("h2")).toEqual(record("key_2"));
  });

  it("drops a load that an invalidation overtook, so a revoke cannot be undone by a slow read", () => {
    const cache = createKeyCache();
    const token = cache.generation();
    cache.invalidate("key_1");
    cache.set("h1", record("key_1"), token);
    expect(cache.get("h1")).toBeUndefined();
  });

  it("stays within its bound and keeps its id index in step with evictions", () => {
    const cache = createKeyCache({ max: 10 });
    for (let i = 0; i < 100; i++) cache.set(`h${i}`, record(`key_${i}`), cache.generation());
    expect(cache.size).toBe(10);
    expect(cache.get("h0")).toBeUndefined();
    // Re-caching an evicted key under its id still invalidates correctly.
    cache.set("h0", record("key_0"), cache.generation());
    cache.invalidate("key_0");
    expect(cache.get("h0")).toBeUndefined();
  });

  it("forgets everything on clear, unknown hashes included", () => {
    const cache = createKeyCache();
    cache.set("h1", record("key_1"), cache.generation());
    cache.set("h2", null, cache.generation());
    cache.clear();
    expect([cache.get("h1"), cache.get("h2")]).toEqual([undefined, undefined]);
  });

  it("expires entries after the safety-net TTL", () => {
    let clock = 1_000;
    const cache = createKeyCache({ ttlMs: 60_000, negativeTtlMs: 30_000, now: () => clock });
    cache.set("h1", record("key_1"), cache.generation());
    cache.set("h2", null, cache.generation());
    clock += 30_001;
    expect([cache.get("h1"), cache.get("h2")]).toEqual([record("key_1"), undefined]);
    clock += 30_000;
    expect([cache.get("h1"), cache.get("h2")]).toEqual([undefined, undefined]);
  });
});
