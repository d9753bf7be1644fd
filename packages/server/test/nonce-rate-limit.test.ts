import { randomBytes } from "node:crypto";
import { useMovableDate } from "@keyport/test-support/clock";
import { request } from "@keyport/test-support/http";
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import { count } from "drizzle-orm";
import { Redis } from "ioredis";
import superjson from "superjson";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { siweNonces } from "../src/db/schema/index.js";
import { EnvError, parseEnv } from "../src/env.js";
import type { AppRouter } from "../src/index.js";
import { describeDatabases } from "./support/databases.js";
import { startTestServer, type TestServer } from "./support/server.js";

const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;

/** `POST /auth/nonce`, as the client `from` (an X-Forwarded-For entry the loopback peer vouches for). */
function postNonce(baseUrl: string, from?: string) {
  return request(baseUrl, "POST", "/auth/nonce", { headers: from ? { "x-forwarded-for": from } : {} });
}

describe("NONCE_RATE_LIMIT", () => {
  it("defaults to 10 a minute, reads <count>/<seconds> and off, and refuses anything else", () => {
    expect(parseEnv({}).NONCE_RATE_LIMIT).toEqual({ limit: 10, windowSeconds: 60 });
    expect(parseEnv({ NONCE_RATE_LIMIT: "3/1" }).NONCE_RATE_LIMIT).toEqual({ limit: 3, windowSeconds: 1 });
    expect(parseEnv({ NONCE_RATE_LIMIT: "off" }).NONCE_RATE_LIMIT).toBeNull();
    expect(() => parseEnv({ NONCE_RATE_LIMIT: "10 per minute" })).toThrow(EnvError);
    expect(() => parseEnv({ NONCE_RATE_LIMIT: "0/60" })).toThrow(/NONCE_RATE_LIMIT/);
  });
});

describeDatabases("nonce rate limit", (target) => {
  const clock = useMovableDate();
  let server: TestServer;

  beforeAll(async () => {
    // The default rule, set explicitly: the test harness turns the limit off unless asked.
    server = await startTestServer(target, { NONCE_RATE_LIMIT: "10/60" });
  });
  afterAll(() => server.close());

  // Windows are aligned to the minute: start each test just after a boundary, so none straddles one.
  beforeEach(() => {
    const now = Date.now();
    vi.setSystemTime(now - (now % 60_000) + 60_000 + 50);
  });

  const nonceRows = async () => (await target.database.db.select({ n: count() }).from(siweNonces))[0]?.n;

  it("gives one client 10 nonces a minute (the default), then 429 with Retry-After, storing nothing", async () => {
    for (let i = 0; i < 10; i++) expect((await postNonce(server.baseUrl, "203.0.113.1")).status).toBe(200);
    const rows = await nonceRows();
    const refused = await postNonce(server.baseUrl, "203.0.113.1");
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      code: "TOO_MANY_REQUESTS",
      message: expect.stringMatching(/^Too many sign-in nonces from this address: try again in \d+ s$/),
    });
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((refused.body as { message: string }).message).toContain(`${retryAfter} s`);
    expect(await nonceRows()).toBe(rows);
  });

  it("counts each client address separately, as TRUSTED_PROXIES names it", async () => {
    for (let i = 0; i < 10; i++) await postNonce(server.baseUrl, "203.0.113.2");
    expect((await postNonce(server.baseUrl, "203.0.113.2")).status).toBe(429);
    expect((await postNonce(server.baseUrl, "203.0.113.3")).status).toBe(200);
    // The socket's own address (no X-Forwarded-For) is yet another client.
    expect((await postNonce(server.baseUrl)).status).toBe(200);
  });

  it("counts an IPv6 client by its /64, so rotating addresses inside it gains nothing", async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 11; i++)
      statuses.push((await postNonce(server.baseUrl, `2001:db8:1:2::${i}`)).status);
    expect(statuses).toEqual([...Array(10).fill(200), 429]);
    expect((await postNonce(server.baseUrl, "2001:db8:1:3::1")).status).toBe(200);
  });

  it("gives a refused client a full budget again in the next window", async () => {
    for (let i = 0; i < 10; i++) await postNonce(server.baseUrl, "203.0.113.4");
    expect((await postNonce(server.baseUrl, "203.0.113.4")).status).toBe(429);
    clock.advance(60_000);
    expect((await postNonce(server.baseUrl, "203.0.113.4")).status).toBe(200);
  });

  it("refuses over tRPC with TOO_MANY_REQUESTS (429), batched or not", async () => {
    const client = createTRPCClient<AppRouter>({
      links: [
        httpLink({
          url: `${server.baseUrl}/trpc`,
          transformer: superjson,
          headers: { "x-forwarded-for": "203.0.113.5" },
        }),
      ],
    });
    for (let i = 0; i < 10; i++) await client.auth.nonce.mutate();
    const error = await client.auth.nonce.mutate().then(
      () => undefined,
      (cause: unknown) => cause,
    );
    expect(error).toBeInstanceOf(TRPCClientError);
    expect((error as TRPCClientError<AppRouter>).data).toMatchObject({
      code: "TOO_MANY_REQUESTS",
      httpStatus: 429,
    });
    const paths = Array.from({ length: 10 }, () => "auth.nonce").join(",");
    const batch = await request(server.baseUrl, "POST", `/trpc/${paths}?batch=1`, {
      body: {},
      headers: { "x-forwarded-for": "203.0.113.5" },
    });
    expect(batch.status).toBe(429);
    expect(JSON.stringify(batch.body)).not.toContain('"nonce"');
  });

  it("lets a batch of 10 nonce calls take at most the client's budget", async () => {
    const paths = Array.from({ length: 10 }, () => "auth.nonce").join(",");
    const post = () =>
      request(server.baseUrl, "POST", `/trpc/${paths}?batch=1`, {
        body: {},
        headers: { "x-forwarded-for": "203.0.113.6" },
      });
    const rows = await nonceRows();
    const [first, second] = [await post(), await post()];
    expect(first.status).toBe(200);
    expect(second.status).toBe(429);
    expect(await nonceRows()).toBe((rows ?? 0) + 10);
  });
});

describeDatabases("nonce rate limit settings", (target) => {
  it("refuses an 11-call auth.nonce batch with 400 before issuing any nonce, limit or not", async () => {
    const server = await startTestServer(target, { NONCE_RATE_LIMIT: "off" });
    try {
      const rows = async () => (await target.database.db.select({ n: count() }).from(siweNonces))[0]?.n;
      const before = await rows();
      const paths = Array.from({ length: 11 }, () => "auth.nonce").join(",");
      const refused = await request(server.baseUrl, "POST", `/trpc/${paths}?batch=1`, { body: {} });
      expect(refused.status).toBe(400);
      expect(await rows()).toBe(before);
    } finally {
      await server.close();
    }
  });

  it("ignores X-Forwarded-For from a peer that is not a trusted proxy", async () => {
    const server = await startTestServer(target, { TRUSTED_PROXIES: "", NONCE_RATE_LIMIT: "3/3600" });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await postNonce(server.baseUrl, `198.51.100.${i}`)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await server.close();
    }
  });

  it("issues nonces without limit when NONCE_RATE_LIMIT=off", async () => {
    const server = await startTestServer(target, { NONCE_RATE_LIMIT: "off" });
    try {
      for (let i = 0; i < 30; i++) expect((await postNonce(server.baseUrl)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it.skipIf(!TEST_REDIS_URL)("shares one budget across instances through Redis", async () => {
    const prefix = `keyport:test:${randomBytes(6).toString("hex")}:`;
    const env = { REDIS_URL: TEST_REDIS_URL ?? "", REDIS_KEY_PREFIX: prefix, NONCE_RATE_LIMIT: "4/3600" };
    const [a, b] = [await startTestServer(target, env), await startTestServer(target, env)];
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++)
        statuses.push((await postNonce(i % 2 === 0 ? a.baseUrl : b.baseUrl)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 429]);
    } finally {
      await Promise.all([a.close(), b.close()]);
      const redis = new Redis(TEST_REDIS_URL ?? "");
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    }
  });
});
