import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDatabases } from "./support/databases.js";
import { createKeyOver, trpcClient, verifyOver } from "./support/keys.js";
import { startTestServer, type TestServer } from "./support/server.js";

interface ListBody {
  keys: { id: string }[];
}

/** The code and message of a tRPC call that must fail. */
async function trpcFailure(call: Promise<unknown>): Promise<{ code: unknown; message: string }> {
  const error = await call.then(
    () => undefined,
    (cause: unknown) => cause,
  );
  if (!(error instanceof TRPCClientError)) throw new Error("expected a TRPCClientError");
  return { code: error.data?.code, message: error.message };
}

// `keys.get` and `GET /api-keys/:id`: one key of the session's wallet, as the list shows it.
describeDatabases("one key by id (keys.get, GET /api-keys/:id)", (target) => {
  let server: TestServer;
  let owner: { token: string; wallet: string };
  let other: { token: string; wallet: string };

  const get = (path: string, token?: string) => request(server.baseUrl, "GET", path, { token });

  beforeAll(async () => {
    server = await startTestServer(target);
    [owner, other] = await Promise.all([signIn(server.baseUrl), signIn(server.baseUrl)]);
  });
  afterAll(() => server.close());

  it("answers the owner the key exactly as the list shows it, policies and credits included", async () => {
    const { key, apiKey } = await createKeyOver(server.baseUrl, owner.token, {
      name: "metered",
      rateLimit: { limit: 5, windowSeconds: 60 },
      permissions: ["chat:*"],
      credits: { remaining: 7, refill: { interval: "daily", amount: 10 } },
      meta: { customer: "c-1" },
      allowedIps: ["10.0.0.0/8"],
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    await verifyOver(server.baseUrl, key, { ip: "10.1.2.3", cost: 2 });
    // lastUsedAt is written with the usage counts, after the answer: compare once it has landed.
    await expect
      .poll(async () => (await get(`/api-keys/${apiKey.id}`, owner.token)).body)
      .toMatchObject({ apiKey: { lastUsedAt: expect.any(String) } });

    const { status, body } = await get(`/api-keys/${apiKey.id}`, owner.token);
    expect(status).toBe(200);
    const listed = await get(`/api-keys/${owner.wallet}`, owner.token);
    const inList = (listed.body as ListBody).keys.find((k) => k.id === apiKey.id);
    expect(body).toEqual({ apiKey: inList });
    expect(body).toMatchObject({
      apiKey: { id: apiKey.id, name: "metered", status: "active", credits: { remaining: 5, purchased: 0 } },
    });
    expect(JSON.stringify(body)).not.toContain(key);
  });

  it("gives REST and tRPC the same body", async () => {
    const { apiKey } = await createKeyOver(server.baseUrl, owner.token, { name: "both surfaces" });
    const rest = await get(`/api-keys/${apiKey.id}`, owner.token);
    const trpc = await trpcClient(server.baseUrl, owner.token).keys.get.query({ id: apiKey.id });
    expect(trpc.apiKey.createdAt).toBeInstanceOf(Date);
    // Dates over tRPC (superjson), ISO strings over REST: the same values.
    expect(rest.body).toEqual(JSON.parse(JSON.stringify(trpc)));
  });

  it("returns a revoked key, with its status", async () => {
    const { apiKey } = await createKeyOver(server.baseUrl, owner.token, { name: "to revoke" });
    await request(server.baseUrl, "DELETE", `/api-keys/${apiKey.id}`, { token: owner.token });
    const { status, body } = await get(`/api-keys/${apiKey.id}`, owner.token);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      apiKey: { id: apiKey.id, status: "revoked", revokedAt: expect.any(String) },
    });
  });

  it("answers another wallet's key and an unknown id alike: 404 NOT_FOUND, same message", async () => {
    const { apiKey } = await createKeyOver(server.baseUrl, owner.token, { name: "private" });
    const stranger = await get(`/api-keys/${apiKey.id}`, other.token);
    const unknown = await get("/api-keys/key_0000000000000000000000", other.token);
    expect(stranger.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(stranger.body).toEqual({ code: "NOT_FOUND", message: "No such key" });
    expect(unknown.body).toEqual(stranger.body);

    const trpc = trpcClient(server.baseUrl, other.token);
    const viaTrpc = await trpcFailure(trpc.keys.get.query({ id: apiKey.id }));
    expect(viaTrpc).toEqual({ code: "NOT_FOUND", message: "No such key" });
    expect(await trpcFailure(trpc.keys.get.query({ id: "key_0000000000000000000000" }))).toEqual(viaTrpc);
  });

  it("needs a session: 401 without one", async () => {
    const { apiKey } = await createKeyOver(server.baseUrl, owner.token, { name: "session only" });
    const { status, body } = await get(`/api-keys/${apiKey.id}`);
    expect(status).toBe(401);
    expect(body).toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("still lists a wallet's keys at GET /api-keys/:wallet, in any case, and refuses a segment that is neither", async () => {
    const { apiKey } = await createKeyOver(server.baseUrl, owner.token, { name: "listed" });
    for (const wallet of [owner.wallet, owner.wallet.toLowerCase()]) {
      const { status, body } = await get(`/api-keys/${wallet}?status=active&limit=100`, owner.token);
      expect(status).toBe(200);
      expect((body as ListBody).keys.map((k) => k.id)).toContain(apiKey.id);
    }
    expect((await get(`/api-keys/${other.wallet}`, owner.token)).status).toBe(403);
    const neither = await get("/api-keys/not-a-wallet", owner.token);
    expect(neither.status).toBe(400);
    expect(neither.body).toMatchObject({ code: "BAD_REQUEST", issues: [{ path: ["wallet"] }] });
    // HEAD answers as GET does, for both reads.
    const head = await fetch(`${server.baseUrl}/api-keys/${apiKey.id}`, {
      method: "HEAD",
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(head.status).toBe(200);
  });
});
