import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { apiKeys } from "../src/db/schema/index.js";
import { hashKey, isWellFormedKey } from "../src/keys/secret.js";
import { describeDatabases } from "./support/databases.js";
import { startTestServer, type TestServer } from "./support/server.js";

interface ApiKeyBody {
  id: string;
  wallet: string;
  name: string;
  start: string;
  status: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  rateLimit: { limit: number; windowSeconds: number } | null;
}
interface CreatedBody {
  key: string;
  apiKey: ApiKeyBody;
}
interface ListBody {
  keys: ApiKeyBody[];
  nextCursor: string | null;
}

describeDatabases("API keys over REST", (target) => {
  let server: TestServer;
  let session: { token: string; wallet: string };

  beforeAll(async () => {
    server = await startTestServer(target);
    session = await signIn(server.baseUrl);
  });
  afterAll(() => server.close());

  const call = (method: string, path: string, body?: unknown, token = session.token) =>
    request(server.baseUrl, method, path, { token, body });

  async function create(body: Record<string, unknown> = { name: "test key" }): Promise<CreatedBody> {
    const { status, body: created } = await call("POST", "/api-keys", body);
    expect(status).toBe(201);
    return created as CreatedBody;
  }

  it("creates a key: 201, the secret once, ISO times, nullable fields null", async () => {
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const { key, apiKey } = await create({
      name: "prod",
      expiresAt,
      rateLimit: { limit: 100, windowSeconds: 60 },
    });
    expect(isWellFormedKey(key, "kp")).toBe(true);
    expect(apiKey).toEqual({
      id: expect.stringMatching(/^key_[0-9A-Za-z]{22}$/),
      wallet: session.wallet,
      name: "prod",
      start: key.slice(0, 7),
      status: "active",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      expiresAt,
      lastUsedAt: null,
      revokedAt: null,
      rateLimit: { limit: 100, windowSeconds: 60 },
      rateLimits: [{ name: "default", limit: 100, windowSeconds: 60, autoApply: true }],
      permissions: [],
      credits: null,
      meta: null,
      leak: null,
      allowedIps: null,
      issuedBy: null,
    });
    const [row] = await target.database.db.select().from(apiKeys).where(eq(apiKeys.id, apiKey.id));
    expect(row?.hash).toBe(hashKey(key));
    expect(JSON.stringify(row)).not.toContain(key);
  });

  it("accepts the session's own wallet in any case in the body, and returns it checksummed", async () => {
    const { apiKey } = await create({ name: "lower", wallet: session.wallet.toLowerCase() });
    expect(apiKey.wallet).toBe(session.wallet);
  });

  it("lists newest first without ever showing a secret; the wallet path works in any case", async () => {
    const first = await create({ name: "first" });
    const second = await create({ name: "second" });
    const { status, body } = await call("GET", `/api-keys/${session.wallet.toLowerCase()}`);
    expect(status).toBe(200);
    const list = body as ListBody;
    const ids = list.keys.map((k) => k.id);
    expect(ids.indexOf(second.apiKey.id)).toBeLessThan(ids.indexOf(first.apiKey.id));
    const text = JSON.stringify(body);
    expect(text).not.toContain(first.key);
    expect(text).not.toContain(second.key);
    expect(list.keys.every((k) => !("key" in k) && !("hash" in k))).toBe(true);
  });

  it("pages with an opaque cursor until nextCursor is null, each key exactly once", async () => {
    const other = await signIn(server.baseUrl);
    const created: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { body } = await request(server.baseUrl, "POST", "/api-keys", {
        token: other.token,
        body: { name: `k${i}` },
      });
      created.push((body as CreatedBody).apiKey.id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=2&cursor=${encodeURIComponent(cursor)}` : "?limit=2";
      const { status, body } = await request(server.baseUrl, "GET", `/api-keys/${other.wallet}${query}`, {
        token: other.token,
      });
      expect(status).toBe(200);
      const page = body as ListBody;
      expect(page.keys.length).toBeLessThanOrEqual(2);
      seen.push(...page.keys.map((k) => k.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== null && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual([...created].reverse());
  });

  it("revokes: 200 with status revoked, idempotent, and the status filter follows", async () => {
    const { apiKey } = await create({ name: "to revoke" });
    const first = await call("DELETE", `/api-keys/${apiKey.id}`);
    expect(first.status).toBe(200);
    const revoked = (first.body as { apiKey: ApiKeyBody }).apiKey;
    expect(revoked).toMatchObject({ id: apiKey.id, status: "revoked", revokedAt: expect.any(String) });
    const again = await call("DELETE", `/api-keys/${apiKey.id}`);
    expect(again).toMatchObject({
      status: 200,
      body: { apiKey: { status: "revoked", revokedAt: revoked.revokedAt } },
    });

    const active = (await call("GET", `/api-keys/${session.wallet}?status=active&limit=100`))
      .body as ListBody;
    expect(active.keys.map((k) => k.id)).not.toContain(apiKey.id);
    expect(active.keys.every((k) => k.status === "active")).toBe(true);
    const onlyRevoked = (await call("GET", `/api-keys/${session.wallet}?status=revoked`)).body as ListBody;
    expect(onlyRevoked.keys.map((k) => k.id)).toContain(apiKey.id);
    expect(onlyRevoked.keys.every((k) => k.status === "revoked")).toBe(true);
  });

  it("rolls with no grace: new secret inherits name, limit and expiry; the old key is revoked now", async () => {
    const expiresAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const old = await create({ name: "rolling", expiresAt, rateLimit: { limit: 5, windowSeconds: 10 } });
    const { status, body } = await call("POST", `/api-keys/${old.apiKey.id}/roll`, {});
    expect(status).toBe(201);
    const rolled = body as CreatedBody & { previous: ApiKeyBody };
    expect(rolled.key).not.toBe(old.key);
    expect(isWellFormedKey(rolled.key, "kp")).toBe(true);
    expect(rolled.apiKey).toMatchObject({
      name: "rolling",
      expiresAt,
      rateLimit: { limit: 5, windowSeconds: 10 },
      status: "active",
    });
    expect(rolled.apiKey.id).not.toBe(old.apiKey.id);
    expect(rolled.previous).toMatchObject({ id: old.apiKey.id, status: "revoked" });
    // Rolling it again is a conflict: it is no longer active.
    expect((await call("POST", `/api-keys/${old.apiKey.id}/roll`, {})).status).toBe(409);
  });

  it("rolls with a grace period: the old key stays active until then, never past its own expiry", async () => {
    const old = await create({ name: "graceful" });
    const before = Date.now();
    const { body } = await call("POST", `/api-keys/${old.apiKey.id}/roll`, { gracePeriodSeconds: 3600 });
    const previous = (body as { previous: ApiKeyBody }).previous;
    expect(previous.status).toBe("active");
    const revokeAt = Date.parse(String(previous.revokedAt));
    expect(revokeAt).toBeGreaterThanOrEqual(before + 3600_000);
    expect(revokeAt).toBeLessThanOrEqual(Date.now() + 3600_000);

    const soon = new Date(Date.now() + 60_000).toISOString();
    const short = await create({ name: "short", expiresAt: soon });
    const capped = await call("POST", `/api-keys/${short.apiKey.id}/roll`, { gracePeriodSeconds: 604_800 });
    expect((capped.body as { previous: ApiKeyBody }).previous.revokedAt).toBe(soon);
  });

  it("reports a key past its expiry as expired, filters on it, and refuses to roll it", async () => {
    const { apiKey } = await create({ name: "expiring" });
    await target.database.db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, apiKey.id));
    const expired = (await call("GET", `/api-keys/${session.wallet}?status=expired`)).body as ListBody;
    expect(expired.keys.map((k) => k.id)).toEqual([apiKey.id]);
    expect(expired.keys[0]?.status).toBe("expired");
    const active = (await call("GET", `/api-keys/${session.wallet}?status=active&limit=100`))
      .body as ListBody;
    expect(active.keys.map((k) => k.id)).not.toContain(apiKey.id);
    expect((await call("POST", `/api-keys/${apiKey.id}/roll`, {})).status).toBe(409);
  });

  it("a second wallet cannot list (403), revoke (404) or roll (404) the first wallet's keys", async () => {
    const { apiKey } = await create({ name: "mine" });
    const intruder = await signIn(server.baseUrl);
    const snapshot = await target.database.db.select().from(apiKeys).where(eq(apiKeys.id, apiKey.id));
    const list = await call("GET", `/api-keys/${session.wallet}`, undefined, intruder.token);
    expect(list).toMatchObject({ status: 403, body: { code: "FORBIDDEN" } });
    const revoke = await call("DELETE", `/api-keys/${apiKey.id}`, undefined, intruder.token);
    expect(revoke).toMatchObject({ status: 404, body: { code: "NOT_FOUND" } });
    const roll = await call("POST", `/api-keys/${apiKey.id}/roll`, {}, intruder.token);
    expect(roll).toMatchObject({ status: 404, body: { code: "NOT_FOUND" } });
    const missing = await call("DELETE", "/api-keys/key_0000000000000000000000", undefined, intruder.token);
    expect(missing.body).toEqual(revoke.body);
    const create403 = await call("POST", "/api-keys", { name: "x", wallet: session.wallet }, intruder.token);
    expect(create403).toMatchObject({ status: 403, body: { code: "FORBIDDEN" } });
    expect(await target.database.db.select().from(apiKeys).where(eq(apiKeys.id, apiKey.id))).toEqual(
      snapshot,
    );
  });

  it("caps active keys per wallet with 409, even under concurrent creates; revoked keys do not count", async () => {
    const capped = await startTestServer(target, { MAX_ACTIVE_KEYS_PER_WALLET: "3" });
    try {
      const owner = await signIn(capped.baseUrl);
      const post = () =>
        request(capped.baseUrl, "POST", "/api-keys", { token: owner.token, body: { name: "c" } });
      const results = await Promise.all([post(), post(), post(), post(), post()]);
      expect(results.map((r) => r.status).sort()).toEqual([201, 201, 201, 409, 409]);
      expect(results.find((r) => r.status === 409)?.body).toMatchObject({
        code: "CONFLICT",
        message: expect.any(String),
      });
      const first = results.find((r) => r.status === 201)?.body as CreatedBody;
      await request(capped.baseUrl, "DELETE", `/api-keys/${first.apiKey.id}`, { token: owner.token });
      expect((await post()).status).toBe(201);
    } finally {
      await capped.close();
    }
  });

  it("checks the session before the input, as tRPC does: 401 for a bad body or path without a valid token", async () => {
    const cases: [string, string, unknown][] = [
      ["POST", "/api-keys", { name: "" }],
      ["GET", "/api-keys/0x1234", undefined],
      ["DELETE", "/api-keys/nope", undefined],
      ["POST", "/api-keys/nope/roll", { gracePeriodSeconds: -1 }],
    ];
    for (const [method, path, body] of cases) {
      for (const token of [undefined, "kps_notASession"]) {
        const { status, body: answer } = await request(server.baseUrl, method, path, { token, body });
        expect({ method, path, token, status }).toEqual({ method, path, token, status: 401 });
        expect(answer).toMatchObject({ code: "UNAUTHORIZED" });
      }
      // With a valid session the same request is the input's 400.
      expect((await call(method, path, body)).status).toBe(400);
    }
  });
});
