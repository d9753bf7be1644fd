import { useMovableDate } from "@keyport/test-support/clock";
import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newKey } from "../src/keys/secret.js";
import { describeDatabases } from "./support/databases.js";
import { createKeyOver, trpcClient, type VerificationBody, verifyOver } from "./support/keys.js";
import { startTestServer, type TestServer } from "./support/server.js";

const NOT_FOUND = {
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
};

describeDatabases("key verification", (target) => {
  const clock = useMovableDate();
  let server: TestServer;
  let session: { token: string; wallet: string };

  beforeAll(async () => {
    server = await startTestServer(target);
    session = await signIn(server.baseUrl);
  });
  afterAll(() => server.close());

  const create = (body?: Record<string, unknown>) => createKeyOver(server.baseUrl, session.token, body);
  const verify = (key: string) => verifyOver(server.baseUrl, key);
  const revoke = (id: string) =>
    request(server.baseUrl, "DELETE", `/api-keys/${id}`, { token: session.token });

  describe("over REST", () => {
    it("answers VALID with the key's id, wallet and expiry, and no-store", async () => {
      const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
      const { key, apiKey } = await create({ name: "valid", expiresAt });
      const response = await request(server.baseUrl, "POST", "/api-keys/verify", { body: { key } });
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(response.body).toEqual({
        valid: true,
        code: "VALID",
        keyId: apiKey.id,
        wallet: session.wallet,
        expiresAt,
        ratelimit: null,
        ratelimits: [],
        permissions: [],
        credits: null,
        meta: null,
        plan: { id: "free", name: "Free" },
      });
    });

    it("answers NOT_FOUND (200) for unknown, malformed, wrong-prefix and bad-checksum keys", async () => {
      const { key } = await create({ name: "real" });
      const flipped = key.slice(0, -1) + (key.endsWith("A") ? "B" : "A");
      for (const candidate of [
        newKey("kp").key,
        "hello",
        "",
        flipped,
        `xx${key.slice(2)}`,
        " ".repeat(256),
      ]) {
        expect(await verify(candidate)).toEqual(NOT_FOUND);
      }
    });

    it("answers REVOKED on the very next request after a revoke, even with the key cached", async () => {
      const { key, apiKey } = await create({ name: "to revoke" });
      expect((await verify(key)).code).toBe("VALID");
      expect((await verify(key)).code).toBe("VALID");
      expect((await revoke(apiKey.id)).status).toBe(200);
      expect(await verify(key)).toMatchObject({
        valid: false,
        code: "REVOKED",
        keyId: apiKey.id,
        ratelimit: null,
        permissions: [],
        credits: null,
        meta: null,
      });
    });

    it("answers EXPIRED once the key's expiry passes", async () => {
      const { key, apiKey } = await create({
        name: "short",
        expiresAt: new Date(Date.now() + 60_000).toISOString(),
      });
      expect((await verify(key)).code).toBe("VALID");
      clock.advance(60_001);
      const answer = await verify(key);
      expect(answer).toMatchObject({
        valid: false,
        code: "EXPIRED",
        keyId: apiKey.id,
        expiresAt: apiKey.expiresAt,
      });
    });

    it("answers RATE_LIMITED past the limit, with limit, remaining and resetAt; rejections consume nothing", async () => {
      const { key } = await create({ name: "limited", rateLimit: { limit: 3, windowSeconds: 3_600 } });
      const answers: VerificationBody[] = [];
      for (let i = 0; i < 5; i++) answers.push(await verify(key));
      expect(answers.map((a) => [a.code, a.ratelimit?.remaining])).toEqual([
        ["VALID", 2],
        ["VALID", 1],
        ["VALID", 0],
        ["RATE_LIMITED", 0],
        ["RATE_LIMITED", 0],
      ]);
      const resetAt = answers[0]?.ratelimit?.resetAt ?? "";
      expect(new Date(resetAt).getTime() % 3_600_000).toBe(0);
      const valid = answers.filter((a) => a.code === "VALID");
      expect(valid.every((a) => a.ratelimit?.limit === 3 && a.ratelimit.resetAt === resetAt)).toBe(true);
      // A refusal's resetAt is when one more fits: 1 ms into the next window, where the 3 spent in
      // this one weigh floor(3 × 3,599,999 / 3,600,000) = 2.
      const refusedAt = new Date(new Date(resetAt).getTime() + 1).toISOString();
      const refused = answers.filter((a) => a.code === "RATE_LIMITED");
      expect(refused.every((a) => a.ratelimit?.resetAt === refusedAt)).toBe(true);
      expect(answers[0]?.ratelimit).toMatchObject({ name: "default", scope: "key" });
      expect(answers[0]?.ratelimits).toEqual([answers[0]?.ratelimit]);
    });

    it("keeps a rolled key's old secret VALID during the grace period, then REVOKED; the new one VALID", async () => {
      const { key: oldKey, apiKey } = await create({ name: "rolled" });
      expect((await verify(oldKey)).code).toBe("VALID"); // cached before the roll
      const rolled = await request(server.baseUrl, "POST", `/api-keys/${apiKey.id}/roll`, {
        token: session.token,
        body: { gracePeriodSeconds: 60 },
      });
      expect(rolled.status).toBe(201);
      const { key: newSecret, apiKey: next } = rolled.body as { key: string; apiKey: { id: string } };
      expect((await verify(oldKey)).code).toBe("VALID");
      clock.advance(30_000);
      expect((await verify(oldKey)).code).toBe("VALID");
      clock.advance(30_001);
      // The roll's notification may still be on its way to the cache, which holds the pre-roll record.
      await expect.poll(async () => (await verify(oldKey)).code).toBe("REVOKED");
      expect(await verify(newSecret)).toMatchObject({ code: "VALID", keyId: next.id });
      expect((await verify(oldKey)).code).toBe("REVOKED");
    });

    it("rolls with no grace: the old secret is REVOKED on the next request", async () => {
      const { key, apiKey } = await create({ name: "rolled now" });
      expect((await verify(key)).code).toBe("VALID");
      await request(server.baseUrl, "POST", `/api-keys/${apiKey.id}/roll`, {
        token: session.token,
        body: {},
      });
      expect((await verify(key)).code).toBe("REVOKED");
    });

    it("rejects bodies that are not { key: string } with 400 and the error envelope", async () => {
      const cases: Array<{ body?: unknown; rawBody?: string; status: number; code: string }> = [
        { status: 400, code: "BAD_REQUEST" },
        { body: {}, status: 400, code: "BAD_REQUEST" },
        { body: { key: 12 }, status: 400, code: "BAD_REQUEST" },
        { body: ["kp_x"], status: 400, code: "BAD_REQUEST" },
        { body: { key: "k".repeat(257) }, status: 400, code: "BAD_REQUEST" },
        { rawBody: '{"key":', status: 400, code: "PARSE_ERROR" },
      ];
      for (const c of cases) {
        const response = await request(server.baseUrl, "POST", "/api-keys/verify", {
          body: c.body,
          rawBody: c.rawBody,
          headers: { "content-type": "application/json" },
        });
        expect(response.status, JSON.stringify(c)).toBe(c.status);
        expect(response.body).toMatchObject({ code: c.code, message: expect.any(String) });
        expect(response.headers.get("cache-control")).toBe("no-store");
      }
      const { body } = await request(server.baseUrl, "POST", "/api-keys/verify", { body: { key: 12 } });
      expect(body).toMatchObject({ issues: [{ path: ["key"], message: expect.any(String) }] });
    });

    it("answers bad bodies on the unbatched tRPC path as tRPC does: 400, 413, 415", async () => {
      const cases = [
        // tRPC itself answers /trpc/keys.verify (no hand-made fast path): malformed JSON is its BAD_REQUEST.
        { body: '{"json":', type: "application/json", status: 400, code: "BAD_REQUEST" },
        { body: "{}", type: "application/json", status: 400, code: "BAD_REQUEST" },
        {
          body: JSON.stringify({ json: { key: "x".repeat(70_000) } }),
          type: "application/json",
          status: 413,
          code: "PAYLOAD_TOO_LARGE",
        },
        { body: "{}", type: "text/plain", status: 415, code: "UNSUPPORTED_MEDIA_TYPE" },
      ];
      for (const c of cases) {
        const response = await fetch(`${server.baseUrl}/trpc/keys.verify`, {
          method: "POST",
          headers: { "content-type": c.type },
          body: c.body,
        });
        expect(response.status, c.code).toBe(c.status);
        const body = await response.json();
        expect(body).toMatchObject({ error: { json: { data: { code: c.code, httpStatus: c.status } } } });
        expect(JSON.stringify(body)).not.toMatch(/node_modules|\.ts:\d|\n\s+at /);
      }
    });

    it("needs no session and ignores one", async () => {
      const { key } = await create({ name: "anon" });
      const withBogusToken = await request(server.baseUrl, "POST", "/api-keys/verify", {
        token: "not-a-session",
        body: { key },
      });
      expect(withBogusToken.status).toBe(200);
      expect((withBogusToken.body as VerificationBody).code).toBe("VALID");
    });
  });

  describe.each([
    { link: "httpBatchLink", batch: true },
    { link: "httpLink (the fast path)", batch: false },
  ])("over tRPC with $link", ({ batch }) => {
    it("answers every code, with Dates as Dates and no-store", async () => {
      const client = trpcClient(server.baseUrl, undefined, batch);
      const expiresAt = new Date(Date.now() + 86_400_000);
      const limited = await create({
        name: "trpc",
        expiresAt: expiresAt.toISOString(),
        rateLimit: { limit: 1, windowSeconds: 60 },
      });
      const valid = await client.keys.verify.mutate({ key: limited.key });
      expect(valid).toMatchObject({
        valid: true,
        code: "VALID",
        keyId: limited.apiKey.id,
        wallet: session.wallet,
      });
      expect(valid.expiresAt).toBeInstanceOf(Date);
      expect(valid.expiresAt?.getTime()).toBe(expiresAt.getTime());
      expect(valid.ratelimit?.resetAt).toBeInstanceOf(Date);
      expect(valid.ratelimit?.remaining).toBe(0);
      expect((await client.keys.verify.mutate({ key: limited.key })).code).toBe("RATE_LIMITED");
      expect(await client.keys.verify.mutate({ key: "nope" })).toEqual(NOT_FOUND);

      const revoked = await create({ name: "trpc revoked" });
      expect((await client.keys.verify.mutate({ key: revoked.key })).code).toBe("VALID");
      await trpcClient(server.baseUrl, session.token, batch).keys.revoke.mutate({ id: revoked.apiKey.id });
      expect((await client.keys.verify.mutate({ key: revoked.key })).code).toBe("REVOKED");

      const expiring = await create({
        name: "trpc expiring",
        expiresAt: new Date(Date.now() + 60_000).toISOString(),
      });
      expect((await client.keys.verify.mutate({ key: expiring.key })).code).toBe("VALID");
      clock.advance(60_001);
      expect((await client.keys.verify.mutate({ key: expiring.key })).code).toBe("EXPIRED");

      const raw = await fetch(`${server.baseUrl}/trpc/keys.verify`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ json: { key: "nope" } }),
      });
      expect(raw.status).toBe(200);
      expect(raw.headers.get("cache-control")).toBe("no-store");
    });

    it("rejects a non-string key with BAD_REQUEST and the field's issue", async () => {
      const client = trpcClient(server.baseUrl, undefined, batch);
      // @ts-expect-error: a number is not a key
      const failure = await client.keys.verify.mutate({ key: 5 }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(TRPCClientError);
      expect(failure).toMatchObject({
        data: { code: "BAD_REQUEST", httpStatus: 400, issues: [{ path: ["key"] }] },
      });
    });
  });

  it("propagates a revoke to another app on the same database through LISTEN/NOTIFY", async () => {
    // B keeps entries for an hour: only the notification can explain it noticing the revoke.
    const other = await startTestServer(target, { KEY_CACHE_TTL_MS: "3600000" });
    try {
      const { key, apiKey } = await create({ name: "shared" });
      expect((await verifyOver(other.baseUrl, key)).code).toBe("VALID");
      expect((await revoke(apiKey.id)).status).toBe(200);
      // The 1-second bound is the process tests' (slow tier); here only the notification can explain it.
      await expect.poll(async () => (await verifyOver(other.baseUrl, key)).code).toBe("REVOKED");
    } finally {
      await other.close();
    }
  });
});
