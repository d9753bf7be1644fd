import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { KeyStore } from "../src/keys/key-store.js";
import { describeDatabases } from "./support/databases.js";
import { trpcClient } from "./support/keys.js";
import { startTestServer, type TestServer } from "./support/server.js";

// A wallet listing its own keys over REST is answered by one statement that checks the session
// and reads the page (docs/benchmarks.md#keys-list-in-one-round-trip); these tests hold it to
// exactly what `keys.list` answers, and to the session check it folds in.
describeDatabases("a wallet's own key list over REST", (target) => {
  let server: TestServer;
  let owner: { token: string; wallet: string };
  let other: { token: string; wallet: string };
  let keys: KeyStore;

  const get = (path: string, token?: string) => request(server.baseUrl, "GET", path, { token });
  const create = async (body: Record<string, unknown>) => {
    const { status, body: created } = await request(server.baseUrl, "POST", "/api-keys", {
      token: owner.token,
      body,
    });
    expect(status).toBe(201);
    return created as { apiKey: { id: string } };
  };

  beforeAll(async () => {
    server = await startTestServer(target);
    keys = server.app.services.procedures.keys;
    owner = await signIn(server.baseUrl);
    other = await signIn(server.baseUrl);
    await create({ name: "plain" });
    await create({
      name: "metered",
      rateLimit: { limit: 5, windowSeconds: 60 },
      permissions: ["chat:*", "embed"],
      credits: { remaining: 7, refill: { interval: "daily", amount: 10 } },
      meta: { customer: "c-1", tier: ["gold"] },
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    const revoked = await create({ name: "revoked" });
    await request(server.baseUrl, "DELETE", `/api-keys/${revoked.apiKey.id}`, { token: owner.token });
  });
  afterAll(() => server.close());

  it("answers byte for byte what keys.list answers through its output schema", async () => {
    const trpc = trpcClient(server.baseUrl, owner.token, false);
    const cases = [{}, { status: "active" as const }, { status: "revoked" as const }, { limit: 2 }];
    for (const query of cases) {
      const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
      const path = `/api-keys/${owner.wallet.toLowerCase()}?${search}`;
      const response = await fetch(server.baseUrl + path, {
        headers: { authorization: `Bearer ${owner.token}` },
      });
      expect(response.status).toBe(200);
      const listed = await trpc.keys.list.query({ wallet: owner.wallet, ...query });
      expect(await response.text()).toBe(JSON.stringify(listed));
    }
  });

  it("reads a page only while the token is a live session of that wallet", async () => {
    const now = new Date();
    const page = { wallet: owner.wallet, status: "all" as const, limit: 50, now };
    const own = await keys.listFirstPageOfSession({ ...page, sessionToken: owner.token });
    expect(own?.keys.map((key) => key.name)).toEqual(["revoked", "metered", "plain"]);
    expect(await keys.listFirstPageOfSession({ ...page, sessionToken: other.token })).toBeNull();
    expect(await keys.listFirstPageOfSession({ ...page, sessionToken: "kps_unknown" })).toBeNull();
    const late = new Date(now.getTime() + 400 * 86_400_000);
    expect(await keys.listFirstPageOfSession({ ...page, now: late, sessionToken: owner.token })).toBeNull();
    const expired = { ...page, status: "expired" as const, sessionToken: owner.token };
    expect(await keys.listFirstPageOfSession(expired)).toBeNull();
  });

  it("refuses as keys.list refuses: 401, 403, 400, and 200 with no keys", async () => {
    expect((await get(`/api-keys/${owner.wallet}`)).status).toBe(401);
    expect((await get(`/api-keys/${owner.wallet}`, "kps_unknown")).status).toBe(401);
    const forbidden = await get(`/api-keys/${owner.wallet}`, other.token);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toMatchObject({ code: "FORBIDDEN" });
    expect((await get(`/api-keys/${owner.wallet}?limit=0`, owner.token)).status).toBe(400);
    const empty = await get(`/api-keys/${other.wallet}`, other.token);
    expect(empty).toMatchObject({ status: 200, body: { keys: [], nextCursor: null } });
  });

  it("refuses an ended session's token at once", async () => {
    const ending = await signIn(server.baseUrl);
    await request(server.baseUrl, "POST", "/api-keys", { token: ending.token, body: { name: "k" } });
    expect((await get(`/api-keys/${ending.wallet}`, ending.token)).status).toBe(200);
    await request(server.baseUrl, "POST", "/auth/logout", { token: ending.token });
    expect((await get(`/api-keys/${ending.wallet}`, ending.token)).status).toBe(401);
  });
});
