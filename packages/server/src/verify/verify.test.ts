import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it, vi } from "vitest";
import { DEADLINE_MESSAGE, type Deadline, REQUEST_DEADLINE_MS, raceDeadline } from "../deadline.js";
import { hashKey, isWellFormedKey, newKey } from "../keys/secret.js";
import { recordLimits } from "../ratelimit/applied-limits.js";
import type { LimitStore } from "../ratelimit/limit-store.js";
import { createMemoryLimitStore } from "../ratelimit/memory-limits.js";
import { createRedisLimitStore } from "../ratelimit/redis-limits.js";
import { defaultLimitList, type RateLimit } from "../schemas/rate-limits.js";
import { createUsageBuffer, type UsageBatch } from "../usage/buffer.js";
import { createKeyCache } from "./cache.js";
import type { CreditsStore } from "./credits-store.js";
import type { KeyRecord } from "./key-record.js";
import { createKeyVerifier } from "./verify.js";

// These keys have no credits, so the verifier must never reach a balance (policies.test.ts covers
// credits over a real database).
const NO_CREDITS: CreditsStore = {
  spend: () => Promise.reject(new Error("a key without credits reached the credits store")),
  read: () => Promise.reject(new Error("a key without credits reached the credits store")),
};

const W = "0x000000000000000000000000000000000000dEaD";
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

/** A small world: keys in a Map standing in for the table, a clock, and the real parts around them. */
function world(options: { limits?: LimitStore } = {}) {
  const rows = new Map<string, KeyRecord>();
  const batches: UsageBatch[] = [];
  const clock = { ms: T0 };
  let loads = 0;
  let gate: Promise<void> | undefined;
  const cache = createKeyCache();
  const usage = createUsageBuffer({
    flushIntervalMs: 60_000,
    sink: async (b) => {
      batches.push(b);
    },
  });
  const verifier = createKeyVerifier({
    isWellFormed: (key) => isWellFormedKey(key, "kp"),
    hashKey,
    loadKeyByHash: async (hash) => {
      loads++;
      const record = rows.get(hash);
      await gate;
      return record === undefined ? null : { ...record };
    },
    cache,
    limits: options.limits ?? createMemoryLimitStore(),
    credits: NO_CREDITS,
    usage,
    now: () => clock.ms,
  });
  return {
    verifier,
    cache,
    clock,
    loads: () => loads,
    hold(): () => void {
      let release = () => {};
      gate = new Promise((r) => {
        release = r;
      });
      return () => {
        gate = undefined;
        release();
      };
    },
    add(fields: Partial<KeyRecord> & { rateLimit?: RateLimit } = {}): {
      key: string;
      hash: string;
      record: KeyRecord;
    } {
      const { key, hash } = newKey("kp");
      const id = `key_${randomUUID().replaceAll("-", "")}`;
      const { rateLimit, ...rest } = fields;
      const record: KeyRecord = {
        id,
        wallet: W,
        name: "test",
        expiresAt: null,
        revokedAt: null,
        ...recordLimits(id, defaultLimitList(rateLimit ?? null), []),
        permissions: [],
        meta: null,
        creditsId: null,
        allowedIps: null,
        suspended: false,
        ...rest,
      };
      rows.set(hash, record);
      return { key, hash, record };
    },
    update(hash: string, fields: Partial<KeyRecord>) {
      const record = rows.get(hash);
      if (record) rows.set(hash, { ...record, ...fields });
    },
    async counted() {
      await usage.close();
      const totals: Record<string, number> = {};
      for (const row of batches.flatMap((b) => b.counts)) {
        totals[`${row.keyId}:${row.outcome}`] = (totals[`${row.keyId}:${row.outcome}`] ?? 0) + row.count;
      }
      return totals;
    },
  };
}

describe("verifyKey", () => {
  it("answers VALID with the key's id, wallet and expiry", async () => {
    const w = world();
    const expiresAt = new Date(T0 + 60_000);
    const { key, record } = w.add({ expiresAt });
    expect(await w.verifier.verify(key)).toEqual({
      valid: true,
      code: "VALID",
      keyId: record.id,
      wallet: W,
      expiresAt,
      ratelimit: null,
      ratelimits: [],
      permissions: [],
      credits: null,
      meta: null,
      plan: null,
    });
  });

  it("answers NOT_FOUND for malformed or checksum-failing keys without reading the database", async () => {
    const w = world();
    const { key } = w.add();
    const tampered = `${key.slice(0, 10)}${key[10] === "a" ? "b" : "a"}${key.slice(11)}`;
    for (const bad of ["", "kp_short", `xx${key.slice(2)}`, tampered, `${key}x`]) {
      expect(await w.verifier.verify(bad)).toEqual({
        valid: false,
        code: "NOT_FOUND",
        keyId: null,
        wallet: null,
        expiresAt: null,
        ratelimit: null,
        ratelimits: [],
        permissions: [],
        credits: null,
        meta: null,
        plan: null,
      });
    }
    expect(w.loads()).toBe(0);
  });

  it("answers NOT_FOUND for an unknown well-formed key, reading the database once", async () => {
    const w = world();
    const { key } = newKey("kp");
    expect((await w.verifier.verify(key)).code).toBe("NOT_FOUND");
    expect((await w.verifier.verify(key)).code).toBe("NOT_FOUND");
    expect(w.loads()).toBe(1);
  });

  it("serves a known key from the cache, synchronously, after the first read", async () => {
    const w = world();
    const { key } = w.add({ rateLimit: { limit: 10, windowSeconds: 60 } });
    await w.verifier.verify(key);
    const second = w.verifier.verify(key);
    expect(second).not.toBeInstanceOf(Promise);
    expect(w.loads()).toBe(1);
  });

  it("reads a cold key once however many verifications arrive together", async () => {
    const w = world();
    const { key } = w.add();
    const answers = await Promise.all(Array.from({ length: 50 }, () => w.verifier.verify(key)));
    expect(answers.every((a) => a.code === "VALID")).toBe(true);
    expect(w.loads()).toBe(1);
  });

  it("answers REVOKED from the moment revokedAt passes, also for a cached rolled key in its grace period", async () => {
    const w = world();
    const { key } = w.add({ revokedAt: new Date(T0 + 30_000) });
    expect((await w.verifier.verify(key)).code).toBe("VALID");
    w.clock.ms = T0 + 30_000;
    expect(await w.verifier.verify(key)).toMatchObject({ valid: false, code: "REVOKED", ratelimit: null });
  });

  it("answers EXPIRED from the moment expiresAt passes", async () => {
    const w = world();
    const { key } = w.add({ expiresAt: new Date(T0 + 1_000) });
    w.clock.ms = T0 + 1_000;
    expect(await w.verifier.verify(key)).toMatchObject({ valid: false, code: "EXPIRED", ratelimit: null });
  });

  it("ranks REVOKED above EXPIRED above RATE_LIMITED", async () => {
    const w = world();
    const past = new Date(T0 - 1);
    const limited = { limit: 1, windowSeconds: 60 };
    const both = w.add({ revokedAt: past, expiresAt: past, rateLimit: limited });
    const expired = w.add({ expiresAt: past, rateLimit: limited });
    expect((await w.verifier.verify(both.key)).code).toBe("REVOKED");
    expect((await w.verifier.verify(expired.key)).code).toBe("EXPIRED");
  });

  it("answers RATE_LIMITED past the limit, with the window's state", async () => {
    const w = world();
    const { key } = w.add({ rateLimit: { limit: 2, windowSeconds: 60 } });
    const resetAt = new Date(T0 + 60_000);
    const named = { name: "default", scope: "key" };
    expect((await w.verifier.verify(key)).ratelimit).toEqual({ ...named, limit: 2, remaining: 1, resetAt });
    expect((await w.verifier.verify(key)).ratelimit).toEqual({ ...named, limit: 2, remaining: 0, resetAt });
    // Refused: resetAt is the first moment one more fits, 1 ms into the next window, where the
    // previous window's 2 weigh floor(2 × 59,999 / 60,000) = 1.
    expect(await w.verifier.verify(key)).toMatchObject({
      valid: false,
      code: "RATE_LIMITED",
      ratelimit: { ...named, limit: 2, remaining: 0, resetAt: new Date(T0 + 60_001) },
    });
  });

  it("consumes no rate limit for revoked or expired answers", async () => {
    const w = world();
    const { key, hash, record } = w.add({
      expiresAt: new Date(T0 - 1),
      rateLimit: { limit: 1, windowSeconds: 60 },
    });
    for (let i = 0; i < 3; i++) expect((await w.verifier.verify(key)).code).toBe("EXPIRED");
    w.update(hash, { expiresAt: null });
    w.cache.invalidate(record.id);
    expect((await w.verifier.verify(key)).code).toBe("VALID");
  });

  it("answers REVOKED on the very next request after a revoke invalidates the cache", async () => {
    const w = world();
    const { key, hash, record } = w.add();
    expect((await w.verifier.verify(key)).code).toBe("VALID");
    w.update(hash, { revokedAt: new Date(T0) });
    w.cache.invalidate(record.id);
    expect((await w.verifier.verify(key)).code).toBe("REVOKED");
  });

  it("never serves a read that started before the revoke to a request that came after it", async () => {
    const w = world();
    const { key, hash, record } = w.add();
    const release = w.hold();
    const early = w.verifier.verify(key); // reads the row while it is still active
    await expect.poll(() => w.loads()).toBe(1); // the row is read; the load is held at the gate
    w.update(hash, { revokedAt: new Date(T0) });
    w.cache.invalidate(record.id);
    const late = w.verifier.verify(key);
    release();
    expect((await early).code).toBe("VALID");
    expect((await late).code).toBe("REVOKED");
    expect((await w.verifier.verify(key)).code).toBe("REVOKED");
  });

  it("counts each known key's outcomes in usage, and never NOT_FOUND", async () => {
    const w = world();
    const a = w.add({ rateLimit: { limit: 2, windowSeconds: 60 } });
    const b = w.add({ revokedAt: new Date(T0 - 1) });
    for (let i = 0; i < 3; i++) await w.verifier.verify(a.key);
    await w.verifier.verify(b.key);
    await w.verifier.verify(newKey("kp").key);
    await w.verifier.verify("garbage");
    expect(await w.counted()).toEqual({
      [`${a.record.id}:VALID`]: 2,
      [`${a.record.id}:RATE_LIMITED`]: 1,
      [`${b.record.id}:REVOKED`]: 1,
    });
  });

  it("answers 503 at the request deadline while the database read waits, and never counts that verification", async () => {
    vi.useFakeTimers();
    try {
      const w = world();
      const { key, record } = w.add();
      const release = w.hold();
      const deadline: Deadline = { aborted: false };
      const answer = raceDeadline(
        Promise.resolve(w.verifier.verify(key, {}, deadline)),
        REQUEST_DEADLINE_MS,
        deadline,
      );
      const settled = expect(answer).rejects.toMatchObject({
        code: "SERVICE_UNAVAILABLE",
        message: DEADLINE_MESSAGE,
      });
      await vi.advanceTimersByTimeAsync(REQUEST_DEADLINE_MS);
      await settled;
      release();
      // The read completes after the caller heard 503: it is cached, but that verification is not counted.
      await vi.waitFor(() => expect(w.loads()).toBe(1));
      expect(await w.verifier.verify(key)).toMatchObject({ code: "VALID" });
      expect(await w.counted()).toEqual({ [`${record.id}:VALID`]: 1 });
    } finally {
      vi.useRealTimers();
    }
  });

  it("propagates a database failure instead of answering, and retries the read next time", async () => {
    const w = world();
    let fail = true;
    const verifier = createKeyVerifier({
      isWellFormed: (key) => isWellFormedKey(key, "kp"),
      hashKey,
      loadKeyByHash: async () => {
        if (fail) throw new Error("database unavailable");
        return null;
      },
      cache: w.cache,
      limits: createMemoryLimitStore(),
      credits: NO_CREDITS,
      usage: { record: () => {} },
    });
    const { key } = newKey("kp");
    await expect(verifier.verify(key)).rejects.toThrow("database unavailable");
    fail = false;
    expect((await verifier.verify(key)).code).toBe("NOT_FOUND");
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
const redisClients: Redis[] = [];
const redisPrefix = `keyport-test:${randomUUID()}:`;
afterAll(async () => {
  const [client] = redisClients;
  if (client) {
    const keys = await client.keys(`${redisPrefix}*`);
    if (keys.length > 0) await client.del(...keys);
  }
  await Promise.all(redisClients.map((c) => c.quit()));
});

const limiters: Array<{ name: string; make: () => LimitStore }> = [
  { name: "memory", make: () => createMemoryLimitStore() },
];
if (redisUrl) {
  limiters.push({
    name: "redis",
    make: () => {
      const client = new Redis(redisUrl, { enableAutoPipelining: true });
      redisClients.push(client);
      return createRedisLimitStore(client, { prefix: redisPrefix });
    },
  });
}

describe.each(limiters)("verifyKey with the $name limit store", ({ make }) => {
  it("answers exactly 500 VALID out of 2,000 concurrent verifications of a key limited to 500", async () => {
    const w = world({ limits: make() });
    const { key, record } = w.add({ rateLimit: { limit: 500, windowSeconds: 60 } });
    const answers = await Promise.all(Array.from({ length: 2000 }, () => w.verifier.verify(key)));
    expect(answers.filter((a) => a.code === "VALID")).toHaveLength(500);
    expect(answers.filter((a) => a.code === "RATE_LIMITED")).toHaveLength(1500);
    expect(await w.counted()).toEqual({ [`${record.id}:VALID`]: 500, [`${record.id}:RATE_LIMITED`]: 1500 });
  });
});
