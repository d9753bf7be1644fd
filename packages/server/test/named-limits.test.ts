import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDatabases } from "./support/databases.js";
import { createKeyOver, verifyOver } from "./support/keys.js";
import { startTestServer, type TestServer } from "./support/server.js";

// Day-long windows: no test here runs long enough to see one end.
const DAY = 86_400;

type Session = { token: string; wallet: string };
type Limit = { name: string; limit: number; windowSeconds: number; autoApply?: boolean };

describeDatabases("named rate limits", (target) => {
  let server: TestServer;
  let session: Session;

  beforeAll(async () => {
    server = await startTestServer(target);
    session = await signIn(server.baseUrl);
  });
  afterAll(() => server?.close());

  const create = (body: Record<string, unknown>) =>
    request(server.baseUrl, "POST", "/api-keys", { token: session.token, body: { name: "named", ...body } });
  const patch = (id: string, body: Record<string, unknown>) =>
    request(server.baseUrl, "PATCH", `/api-keys/${id}`, { token: session.token, body });
  const verifyRaw = (body: Record<string, unknown>) =>
    request(server.baseUrl, "POST", "/api-keys/verify", { body });

  it("stores a list of limits, answers both shapes, and takes rateLimit as the one named default", async () => {
    const limits: Limit[] = [
      { name: "default", limit: 25, windowSeconds: 1, autoApply: true },
      { name: "tokens", limit: 200_000, windowSeconds: 60, autoApply: false },
    ];
    const created = await create({ rateLimits: limits });
    expect(created.status).toBe(201);
    expect((created.body as { apiKey: unknown }).apiKey).toMatchObject({
      rateLimit: { limit: 25, windowSeconds: 1 },
      rateLimits: limits,
    });
    const single = await create({ rateLimit: { limit: 5, windowSeconds: 60 } });
    expect((single.body as { apiKey: unknown }).apiKey).toMatchObject({
      rateLimits: [{ name: "default", limit: 5, windowSeconds: 60, autoApply: true }],
    });
    // autoApply defaults to true.
    const bare = await create({ rateLimits: [{ name: "x", limit: 1, windowSeconds: 1 }] });
    expect((bare.body as { apiKey: unknown }).apiKey).toMatchObject({
      rateLimit: null,
      rateLimits: [{ name: "x", limit: 1, windowSeconds: 1, autoApply: true }],
    });
  });

  it("answers 400 for both shapes at once, duplicate or malformed names, and more than 10 limits", async () => {
    const both = await create({
      rateLimit: { limit: 5, windowSeconds: 60 },
      rateLimits: [{ name: "default", limit: 5, windowSeconds: 60 }],
    });
    expect(both.status).toBe(400);
    expect(JSON.stringify(both.body)).toContain("Send either rateLimit or rateLimits");
    const twice = await create({
      rateLimits: [
        { name: "a", limit: 1, windowSeconds: 1 },
        { name: "a", limit: 2, windowSeconds: 2 },
      ],
    });
    expect(twice.status).toBe(400);
    for (const name of ["", "UPPER", "a b", "x".repeat(33)]) {
      expect((await create({ rateLimits: [{ name, limit: 1, windowSeconds: 1 }] })).status, name).toBe(400);
    }
    const eleven = Array.from({ length: 11 }, (_, i) => ({ name: `l${i}`, limit: 1, windowSeconds: 1 }));
    expect((await create({ rateLimits: eleven })).status).toBe(400);
  });

  it("applies a named limit with the asked cost, auto-applied ones with cost 1, and 400 for a name nobody has", async () => {
    const { key } = await createKeyOver(server.baseUrl, session.token, {
      name: "model api",
      rateLimits: [
        { name: "requests", limit: 10, windowSeconds: DAY, autoApply: true },
        { name: "tokens", limit: 1_000, windowSeconds: DAY, autoApply: false },
      ],
    });
    // Not named: only the auto-applied limit.
    const plain = await verifyOver(server.baseUrl, key);
    expect(plain.ratelimits.map((l) => [l.name, l.scope, l.remaining])).toEqual([["requests", "key", 9]]);
    const costed = await verifyOver(server.baseUrl, key, { ratelimits: [{ name: "tokens", cost: 600 }] });
    expect(costed.code).toBe("VALID");
    expect(costed.ratelimits.map((l) => [l.name, l.remaining])).toEqual([
      ["requests", 8],
      ["tokens", 400],
    ]);
    // The binding limit is the one with the smallest remaining / limit: tokens (0.4) over requests (0.8).
    expect(costed.ratelimit).toMatchObject({ name: "tokens", scope: "key", limit: 1_000, remaining: 400 });
    // Refused by tokens: requests is not spent either.
    const refused = await verifyOver(server.baseUrl, key, { ratelimits: [{ name: "tokens", cost: 401 }] });
    expect(refused).toMatchObject({ code: "RATE_LIMITED", ratelimit: { name: "tokens", remaining: 400 } });
    expect(refused.ratelimits.map((l) => [l.name, l.remaining])).toEqual([
      ["requests", 8],
      ["tokens", 400],
    ]);
    // Cost 0 reads without spending.
    const read = await verifyOver(server.baseUrl, key, {
      ratelimits: [
        { name: "tokens", cost: 0 },
        { name: "requests", cost: 0 },
      ],
    });
    expect(read.ratelimits.map((l) => l.remaining)).toEqual([8, 400]);
    const unknown = await verifyRaw({ key, ratelimits: [{ name: "nope", cost: 1 }] });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({
      code: "BAD_REQUEST",
      message: 'Neither this key nor its wallet has a rate limit named "nope"',
    });
    expect((await verifyRaw({ key, ratelimits: [{ name: "tokens", cost: 10_001 }] })).status).toBe(400);
  });

  it("checks the wallet's named limits with the key's: a refusal by either spends neither", async () => {
    const s = await signIn(server.baseUrl);
    const put = await request(server.baseUrl, "PUT", `/api-keys/${s.wallet}/limits`, {
      token: s.token,
      body: { rateLimits: [{ name: "tokens", limit: 100, windowSeconds: DAY, autoApply: false }] },
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      rateLimit: null,
      rateLimits: [{ name: "tokens", limit: 100, windowSeconds: DAY, autoApply: false }],
    });
    const { key } = await createKeyOver(server.baseUrl, s.token, {
      name: "k",
      rateLimits: [{ name: "tokens", limit: 1_000, windowSeconds: DAY, autoApply: false }],
    });
    const first = await verifyOver(server.baseUrl, key, { ratelimits: [{ name: "tokens", cost: 60 }] });
    expect(first.ratelimits.map((l) => [l.scope, l.remaining])).toEqual([
      ["key", 940],
      ["wallet", 40],
    ]);
    const refused = await verifyOver(server.baseUrl, key, { ratelimits: [{ name: "tokens", cost: 60 }] });
    expect(refused).toMatchObject({ code: "RATE_LIMITED", ratelimit: { name: "tokens", scope: "wallet" } });
    expect(refused.ratelimits.map((l) => l.remaining)).toEqual([940, 40]);
  });

  it("replaces the list on PATCH, keeps the others when rateLimit sets only default, and rolls inherit", async () => {
    const created = await create({
      rateLimits: [
        { name: "a", limit: 1, windowSeconds: 1 },
        { name: "default", limit: 2, windowSeconds: 2 },
      ],
    });
    const { id } = (created.body as { apiKey: { id: string } }).apiKey;
    const single = await patch(id, { rateLimit: { limit: 3, windowSeconds: 3 } });
    expect((single.body as { apiKey: { rateLimits: Limit[] } }).apiKey.rateLimits).toEqual([
      { name: "a", limit: 1, windowSeconds: 1, autoApply: true },
      { name: "default", limit: 3, windowSeconds: 3, autoApply: true },
    ]);
    const replaced = await patch(id, { rateLimits: [{ name: "b", limit: 4, windowSeconds: 4 }] });
    expect((replaced.body as { apiKey: unknown }).apiKey).toMatchObject({
      rateLimit: null,
      rateLimits: [{ name: "b", limit: 4, windowSeconds: 4, autoApply: true }],
    });
    const both = await patch(id, { rateLimit: null, rateLimits: [] });
    expect(both.status).toBe(400);
    const rolled = await request(server.baseUrl, "POST", `/api-keys/${id}/roll`, {
      token: session.token,
      body: {},
    });
    expect((rolled.body as { apiKey: unknown }).apiKey).toMatchObject({
      rateLimits: [{ name: "b", limit: 4, windowSeconds: 4, autoApply: true }],
    });
    const events = await request(server.baseUrl, "GET", `/api-keys/${session.wallet}/events?keyId=${id}`, {
      token: session.token,
    });
    expect(JSON.stringify(events.body)).toContain('"rateLimits":[{"name":"b"');
  });
});
