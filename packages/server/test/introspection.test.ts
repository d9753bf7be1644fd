import { useMovableDate } from "@keyport/test-support/clock";
import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { TRPCClientError } from "@trpc/client";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, expect, it, vi } from "vitest";
import { keyCredits } from "../src/db/schema/index.js";
import type { AppRouter } from "../src/index.js";
import { describeDatabases } from "./support/databases.js";
import { createKeyOver, introspectOver, trpcClient, verifyOver } from "./support/keys.js";
import { removeRedisKeys, sharedRedisEnv, startTestServer, type TestServer } from "./support/server.js";

const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;
const DAY_MS = 86_400_000;

/** Where credits are kept: the database alone, or Redis (spent in its script, drained to the database). */
const creditStores: Array<{ name: string; env: () => Record<string, string> }> = [
  { name: "credits in the database", env: () => ({}) },
];
if (TEST_REDIS_URL) {
  creditStores.push({
    name: "credits in Redis",
    env: () => ({ ...sharedRedisEnv(TEST_REDIS_URL), CREDITS_DRAIN_INTERVAL_MS: "50" }),
  });
}

/** Moves the fake clock forward to 50 ms past the next whole hour. */
function startJustAfterTheHour(): void {
  const now = Date.now();
  vi.setSystemTime(now - (now % 3_600_000) + 3_600_000 + 50);
}

const introspect = (server: TestServer, key: unknown, from?: string) =>
  request(server.baseUrl, "POST", "/api-keys/introspect", {
    body: { key },
    headers: from === undefined ? {} : { "x-forwarded-for": from },
  });

for (const store of creditStores) {
  describeDatabases(`key introspection, ${store.name}`, (target) => {
    const clock = useMovableDate();
    const env = store.env();
    let server: TestServer;
    let session: { token: string; wallet: string };

    beforeAll(async () => {
      server = await startTestServer(target, env);
    });
    // Each test starts just after an hour boundary (no window of these tests straddles one) with a
    // session of its own (a test that moves the clock a day on must not end the next one's session).
    beforeEach(async () => {
      startJustAfterTheHour();
      session = await signIn(server.baseUrl);
    });
    afterAll(async () => {
      await server?.close();
      await removeRedisKeys(env);
    });

    const create = (body: Record<string, unknown>, s = session) =>
      createKeyOver(server.baseUrl, s.token, { name: "introspected", ...body });

    it("shows the key's status, expiry, rate-limit window and credits, with no-store", async () => {
      const expiresAt = new Date(Date.now() + 7 * DAY_MS).toISOString();
      const { key, apiKey } = await create({
        expiresAt,
        rateLimit: { limit: 5, windowSeconds: 60 },
        credits: { remaining: 10, refill: { interval: "daily", amount: 20 } },
      });
      const now = Date.now();
      const answer = await request(server.baseUrl, "POST", "/api-keys/introspect", { body: { key } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("cache-control")).toBe("no-store");
      expect(answer.body).toEqual({
        keyId: apiKey.id,
        status: "active",
        expiresAt: new Date(expiresAt).toISOString(),
        ratelimit: {
          name: "default",
          scope: "key",
          limit: 5,
          remaining: 5,
          resetAt: new Date(now - (now % 60_000) + 60_000).toISOString(),
        },
        credits: {
          remaining: 10,
          purchased: 0,
          refillAt: new Date(now - (now % DAY_MS) + DAY_MS).toISOString(),
        },
        suspended: false,
        topUpUrl: null,
      });
      const plain = await create({});
      expect(await introspectOver(server.baseUrl, plain.key)).toEqual({
        keyId: plain.apiKey.id,
        status: "active",
        expiresAt: null,
        ratelimit: null,
        credits: null,
        suspended: false,
        topUpUrl: null,
      });
    });

    it("spends nothing, takes nothing from the window, counts no usage and records no event", async () => {
      const s = await signIn(server.baseUrl);
      const { key, apiKey } = await create(
        { rateLimit: { limit: 10, windowSeconds: 3600 }, credits: { remaining: 10 } },
        s,
      );
      const events = async () =>
        (
          (await request(server.baseUrl, "GET", `/api-keys/${s.wallet}/events`, { token: s.token })).body as {
            events: unknown[];
          }
        ).events.length;
      const eventsBefore = await events();
      const first = await verifyOver(server.baseUrl, key, { cost: 2 });
      expect(first).toMatchObject({ code: "VALID", credits: { remaining: 8 }, ratelimit: { remaining: 9 } });
      for (let i = 0; i < 5; i++) {
        expect(await introspectOver(server.baseUrl, key)).toMatchObject({
          credits: { remaining: 8 },
          ratelimit: { remaining: 9 },
        });
      }
      // The next verification finds what the introspections showed, and takes its own share.
      expect(await verifyOver(server.baseUrl, key, { cost: 2 })).toMatchObject({
        code: "VALID",
        credits: { remaining: 6 },
        ratelimit: { remaining: 8 },
      });
      await server.app.services.verification.usage.flush();
      const usage = await request(server.baseUrl, "GET", `/api-keys/${s.wallet}/usage?keyId=${apiKey.id}`, {
        token: s.token,
      });
      expect(usage.body).toMatchObject({ totals: { requests: 2, valid: 2 } });
      expect(await events()).toBe(eventsBefore);
      // A key only ever introspected was never used.
      const untouched = await create({}, s);
      await introspectOver(server.baseUrl, untouched.key);
      await server.app.services.verification.usage.flush();
      const listed = await request(server.baseUrl, "GET", `/api-keys/${s.wallet}`, { token: s.token });
      const row = (listed.body as { keys: Array<{ id: string; lastUsedAt: string | null }> }).keys.find(
        (k) => k.id === untouched.apiKey.id,
      );
      expect(row?.lastUsedAt).toBeNull();
    });

    it("shows the binding window, the key's or its wallet's, as the next verification finds it", async () => {
      const s = await signIn(server.baseUrl);
      const limits = await request(server.baseUrl, "PUT", `/api-keys/${s.wallet}/limits`, {
        token: s.token,
        body: { rateLimit: { limit: 3, windowSeconds: 3600 } },
      });
      expect(limits.status).toBe(200);
      const { key } = await create({ rateLimit: { limit: 10, windowSeconds: 60 } }, s);
      for (let i = 0; i < 4; i++) {
        const seen = await introspectOver(server.baseUrl, key);
        const verified = await verifyOver(server.baseUrl, key);
        const binding = seen.ratelimit;
        if (binding === null) throw new Error("no window");
        // The introspected limit is the one with the smallest remaining / limit: the verification
        // applied it and took one from it (none when refused).
        const same = verified.ratelimits.find((l) => l.name === binding.name && l.scope === binding.scope);
        expect(verified.code).toBe(binding.remaining > 0 ? "VALID" : "RATE_LIMITED");
        expect(same).toMatchObject({ limit: binding.limit, remaining: Math.max(0, binding.remaining - 1) });
        if (verified.valid) expect(same?.resetAt).toBe(binding.resetAt);
      }
      expect((await introspectOver(server.baseUrl, key)).ratelimit).toMatchObject({ limit: 3, remaining: 0 });
    });

    it("shows a refill that is due without writing it", async () => {
      const { key, apiKey } = await create({
        credits: { remaining: 3, refill: { interval: "daily", amount: 5 } },
      });
      expect(await verifyOver(server.baseUrl, key, { cost: 3 })).toMatchObject({ credits: { remaining: 0 } });
      const stored = async () =>
        (await target.database.db.select().from(keyCredits).where(eq(keyCredits.id, apiKey.id)))[0];
      // With Redis, the spend reaches the database with the drainer.
      await expect.poll(async () => (await stored())?.remaining, { timeout: 5_000, interval: 50 }).toBe(0);
      const before = await stored();
      const now = Date.now();
      const nextDay = Math.ceil(now / DAY_MS) * DAY_MS;
      clock.advance(nextDay - now + 1_000);
      const seen = await introspectOver(server.baseUrl, key);
      expect(seen.credits).toEqual({
        remaining: 5,
        purchased: 0,
        refillAt: new Date(nextDay + DAY_MS).toISOString(),
      });
      expect(await introspectOver(server.baseUrl, key)).toEqual(seen);
      // Longer than a drain pass: nothing was journaled to reach the database either.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await stored()).toEqual(before);
      // The first verification of the day applies the refill, once.
      expect(await verifyOver(server.baseUrl, key)).toMatchObject({
        code: "VALID",
        credits: { remaining: 4 },
      });
    });

    it("answers 200 for revoked and expired keys, with their status", async () => {
      const revoked = await create({ credits: { remaining: 1 } });
      const deleted = await request(server.baseUrl, "DELETE", `/api-keys/${revoked.apiKey.id}`, {
        token: session.token,
      });
      expect(deleted.status).toBe(200);
      expect(await introspectOver(server.baseUrl, revoked.key)).toMatchObject({
        keyId: revoked.apiKey.id,
        status: "revoked",
        credits: { remaining: 1 },
        topUpUrl: null,
      });
      const expiring = await create({ expiresAt: new Date(Date.now() + 60_000).toISOString() });
      clock.advance(61_000);
      expect(await introspectOver(server.baseUrl, expiring.key)).toMatchObject({
        keyId: expiring.apiKey.id,
        status: "expired",
        expiresAt: expiring.apiKey.expiresAt,
      });
    });

    it("answers 404 with one body for unknown, malformed and checksum-failing keys", async () => {
      const { key } = await create({});
      const unknown = `kp_${"A".repeat(32)}${key.slice(-6)}`;
      const lastChar = key.at(-1) === "a" ? "b" : "a";
      const badChecksum = `${key.slice(0, -1)}${lastChar}`;
      const answers = await Promise.all(
        [unknown, badChecksum, "hello", "", `sk_${key.slice(3)}`].map((k) => introspect(server, k)),
      );
      for (const answer of answers) {
        expect(answer.status).toBe(404);
        expect(answer.body).toEqual({ code: "NOT_FOUND", message: "No such key" });
      }
    });

    it("answers 400 in the envelope when key is missing, not a string or too long", async () => {
      for (const body of [{}, { key: 42 }, { key: null }, { key: "k".repeat(257) }]) {
        const answer = await request(server.baseUrl, "POST", "/api-keys/introspect", { body });
        expect(answer.status).toBe(400);
        expect(answer.body).toMatchObject({ code: "BAD_REQUEST", issues: [{ path: ["key"] }] });
      }
    });

    it("answers over tRPC the same, NOT_FOUND for an unknown key", async () => {
      const { key, apiKey } = await create({ credits: { remaining: 4 } });
      const client = trpcClient(server.baseUrl);
      expect(await client.keys.introspect.mutate({ key })).toEqual({
        keyId: apiKey.id,
        status: "active",
        expiresAt: null,
        ratelimit: null,
        credits: { remaining: 4, purchased: 0, refillAt: null },
        suspended: false,
        topUpUrl: null,
      });
      const error = await client.keys.introspect.mutate({ key: "kp_nope" }).then(
        () => undefined,
        (cause: unknown) => cause,
      );
      expect(error).toBeInstanceOf(TRPCClientError);
      expect((error as TRPCClientError<AppRouter>).data).toMatchObject({
        code: "NOT_FOUND",
        httpStatus: 404,
      });
    });
  });
}

describeDatabases("key introspection per client, and in the OpenAPI document", (target) => {
  useMovableDate();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(target, { NONCE_RATE_LIMIT: "3/3600" });
  });
  beforeEach(startJustAfterTheHour);
  afterAll(() => server?.close());

  it("allows NONCE_RATE_LIMIT introspections a client, then 429 with Retry-After, on a budget of its own", async () => {
    const session = await signIn(server.baseUrl);
    const { key } = await createKeyOver(server.baseUrl, session.token, { name: "limited" });
    // Found and not found alike draw on the budget.
    const statuses = [];
    for (const k of [key, "kp_unknown", key])
      statuses.push((await introspect(server, k, "203.0.113.9")).status);
    expect(statuses).toEqual([200, 404, 200]);
    const refused = await introspect(server, key, "203.0.113.9");
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      code: "TOO_MANY_REQUESTS",
      message: expect.stringMatching(/^Too many introspections from this address: try again in \d+ s$/),
    });
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    // Another client, and the same client's nonces, are counted apart.
    expect((await introspect(server, key, "203.0.113.10")).status).toBe(200);
    const nonce = await request(server.baseUrl, "POST", "/auth/nonce", {
      headers: { "x-forwarded-for": "203.0.113.9" },
    });
    expect(nonce.status).toBe(200);
    // Verification is never limited by it.
    expect((await verifyOver(server.baseUrl, key)).code).toBe("VALID");
  });

  it("refuses over tRPC with TOO_MANY_REQUESTS (429)", async () => {
    const client = trpcClient(server.baseUrl);
    const results = [];
    for (let i = 0; i < 4; i++) {
      results.push(
        await client.keys.introspect.mutate({ key: "kp_unknown" }).then(
          () => 200,
          (cause: unknown) => (cause instanceof TRPCClientError ? cause.data?.httpStatus : undefined),
        ),
      );
    }
    // A new window (each test starts after an hour boundary), and the loopback address is its own client.
    expect(results).toEqual([404, 404, 404, 429]);
  });

  it("lists POST /api-keys/introspect in /openapi.json as a public operation", async () => {
    const { body } = await request(server.baseUrl, "GET", "/openapi.json");
    const paths = (body as { paths: Record<string, { post?: { security?: unknown[] } }> }).paths;
    const operation = paths["/api-keys/introspect"]?.post;
    expect(operation).toBeDefined();
    expect(operation?.security).toEqual([]);
  });
});
