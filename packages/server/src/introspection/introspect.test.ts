import { createMemoryRateLimiter } from "@keyport/node-edge";
import { describe, expect, it } from "vitest";
import { hashKey, isWellFormedKey, newKey } from "../keys/secret.js";
import { recordLimits } from "../ratelimit/applied-limits.js";
import { createMemoryLimitStore } from "../ratelimit/memory-limits.js";
import { defaultLimitList } from "../schemas/rate-limits.js";
import { createKeyCache } from "../verify/cache.js";
import type { CreditsStore } from "../verify/credits-store.js";
import type { KeyRecord } from "../verify/key-record.js";
import { createKeyVerifier } from "../verify/verify.js";
import { createIntrospectionLimit } from "./client-limit.js";
import { createKeyIntrospection } from "./introspect.js";

// These keys have no credits (test/introspection.test.ts covers credits over real databases and Redis).
const NO_CREDITS: CreditsStore = {
  spend: () => Promise.reject(new Error("a key without credits reached the credits store")),
  read: () => Promise.reject(new Error("a key without credits reached the credits store")),
};

const W = "0x000000000000000000000000000000000000dEaD";
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

type Rule = { limit: number; windowSeconds: number } | null;

/** Keys in a Map standing in for the table, one rate limiter, and both verification and introspection over them. */
function world(rule: Rule = null) {
  const rows = new Map<string, KeyRecord>();
  const hashesRead: string[] = [];
  const limits = createMemoryLimitStore();
  const loadKeyByHash = async (hash: string) => {
    hashesRead.push(hash);
    return rows.get(hash) ?? null;
  };
  const common = {
    isWellFormed: (key: string) => isWellFormedKey(key, "kp"),
    hashKey,
    loadKeyByHash,
    limits,
    credits: NO_CREDITS,
    now: () => T0,
  };
  const verifier = createKeyVerifier({
    ...common,
    cache: createKeyCache(),
    usage: { record: () => undefined },
  });
  const introspection = createKeyIntrospection({
    ...common,
    limit: createIntrospectionLimit(createMemoryRateLimiter(), rule),
    topUpUrl: () => null,
  });
  return {
    verifier,
    introspection,
    hashesRead,
    add(rules: { rateLimit: Rule; walletRateLimit: Rule }): string {
      const { key, hash } = newKey("kp");
      const id = `key_${hash.slice(0, 22)}`;
      rows.set(hash, {
        id,
        wallet: W,
        name: "k",
        expiresAt: null,
        revokedAt: null,
        permissions: [],
        meta: null,
        creditsId: null,
        allowedIps: null,
        suspended: false,
        ...recordLimits(id, defaultLimitList(rules.rateLimit), defaultLimitList(rules.walletRateLimit)),
      });
      return key;
    },
  };
}

describe("key introspection", () => {
  it("reads the database once by hash for malformed, checksum-failing and unknown keys, and answers each alike", async () => {
    const w = world();
    const { key: unknown } = newKey("kp");
    const badChecksum = `${unknown.slice(0, -1)}${unknown.endsWith("a") ? "b" : "a"}`;
    const keys = [unknown, badChecksum, "hello", "", `xx_${unknown.slice(3)}`];
    const answers = [];
    for (const key of keys) answers.push(await w.introspection.introspect(key, "203.0.113.1"));
    expect(w.hashesRead).toEqual(keys.map(hashKey));
    expect(new Set(answers.map((answer) => JSON.stringify(answer)))).toEqual(
      new Set([JSON.stringify({ ok: false, reason: "not_found" })]),
    );
  });

  it("refuses a client past its limit before reading anything", async () => {
    const w = world({ limit: 2, windowSeconds: 60 });
    const key = w.add({ rateLimit: null, walletRateLimit: null });
    expect((await w.introspection.introspect(key, "203.0.113.2")).ok).toBe(true);
    expect((await w.introspection.introspect("kp_x", "203.0.113.2")).ok).toBe(false);
    const refused = await w.introspection.introspect(key, "203.0.113.2");
    expect(refused).toMatchObject({ ok: false, reason: "limited" });
    expect(w.hashesRead).toHaveLength(2);
    expect((await w.introspection.introspect(key, "203.0.113.3")).ok).toBe(true);
  });

  // Key windows of 60 s and wallet windows of an hour end at different times, so a wrong pick shows.
  const cases: Array<{ rateLimit: Rule; walletRateLimit: Rule }> = [
    { rateLimit: null, walletRateLimit: null },
    { rateLimit: { limit: 3, windowSeconds: 60 }, walletRateLimit: null },
    { rateLimit: null, walletRateLimit: { limit: 2, windowSeconds: 3600 } },
    { rateLimit: { limit: 2, windowSeconds: 60 }, walletRateLimit: { limit: 4, windowSeconds: 3600 } },
    { rateLimit: { limit: 4, windowSeconds: 60 }, walletRateLimit: { limit: 2, windowSeconds: 3600 } },
    { rateLimit: { limit: 3, windowSeconds: 60 }, walletRateLimit: { limit: 3, windowSeconds: 3600 } },
  ];

  it.each(cases)(
    "shows the binding limit as the next verification finds it, one request before it (%o)",
    async (limits) => {
      const w = world();
      const key = w.add(limits);
      for (let round = 0; round < 6; round++) {
        const seen = await w.introspection.introspect(key, "203.0.113.4");
        if (!seen.ok) throw new Error("not found");
        const window = seen.introspection.ratelimit;
        const verified = await w.verifier.verify(key);
        if (window === null) {
          expect(verified.ratelimit).toBeNull();
          expect(verified.code).toBe("VALID");
          continue;
        }
        expect(verified.code).toBe(window.remaining > 0 ? "VALID" : "RATE_LIMITED");
        // The verification applied the introspected limit and took one from it (none when refused).
        const same = verified.ratelimits.find((l) => l.name === window.name && l.scope === window.scope);
        expect(same).toMatchObject({
          limit: window.limit,
          remaining: Math.max(0, window.remaining - 1),
          ...(verified.valid ? { resetAt: window.resetAt } : {}),
        });
      }
    },
  );
});
