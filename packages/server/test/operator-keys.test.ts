import { request } from "@keyport/test-support/http";
import { newAccount, signIn } from "@keyport/test-support/siwe";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDatabases } from "./support/databases.js";
import { startTestServer, type TestServer } from "./support/server.js";

// The operator revokes any wallet's key with a reason (docs/operator.md#keys): the key stops at once,
// the wallet reads the reason but never who the operator is, the operator trail names the actor.

interface Event {
  action: string;
  keyId: string | null;
  reason?: string | null;
  actor?: unknown;
  changes: Record<string, unknown>;
}

describeDatabases("operator revokes keys", (target) => {
  const operator = newAccount();
  let server: TestServer;
  let operatorSession: string;

  beforeAll(async () => {
    server = await startTestServer(target, { OPERATOR_WALLETS: operator.address });
    operatorSession = (await signIn(server.baseUrl, operator)).token;
  });
  afterAll(() => server.close());

  const ownedKey = async () => {
    const owner = await signIn(server.baseUrl);
    const created = await request(server.baseUrl, "POST", "/api-keys", {
      token: owner.token,
      body: { name: "app" },
    });
    expect(created.status).toBe(201);
    const body = created.body as { key: string; apiKey: { id: string } };
    return { owner, id: body.apiKey.id, key: body.key };
  };
  const revoke = (id: string, body: unknown, token: string = operatorSession) =>
    request(server.baseUrl, "POST", `/operator/keys/${id}/revoke`, { token, body });
  const verify = async (key: string) =>
    ((await request(server.baseUrl, "POST", "/api-keys/verify", { body: { key } })).body as { code: string })
      .code;

  it("revokes any wallet's key at once, with the reason in both trails and the operator unnamed in the wallet's", async () => {
    const { owner, id, key } = await ownedKey();
    expect(await verify(key)).toBe("VALID");
    const answer = await revoke(id, { reason: "  abuse of the search endpoint " });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ apiKey: { id, status: "revoked" } });
    expect(await verify(key)).toBe("REVOKED");

    const trail = await request(server.baseUrl, "GET", `/api-keys/${owner.wallet}/events?keyId=${id}`, {
      token: owner.token,
    });
    const revoked = (trail.body as { events: Event[] }).events.find((e) => e.action === "key.revoked");
    expect(revoked?.changes).toMatchObject({ actor: "operator", reason: "abuse of the search endpoint" });
    expect(JSON.stringify(trail.body).toLowerCase()).not.toContain(operator.address.toLowerCase());

    const operatorTrail = await request(server.baseUrl, "GET", `/operator/events?wallet=${owner.wallet}`, {
      token: operatorSession,
    });
    const [event] = (operatorTrail.body as { events: Event[] }).events;
    expect(event).toMatchObject({
      action: "key.revoked",
      keyId: id,
      reason: "abuse of the search endpoint",
      actor: { type: "wallet", address: operator.address },
    });

    // Again: answered as it is, nothing recorded twice.
    expect((await revoke(id, { reason: "again" })).status).toBe(200);
    const after = await request(server.baseUrl, "GET", `/operator/events?wallet=${owner.wallet}`, {
      token: operatorSession,
    });
    expect((after.body as { events: Event[] }).events).toHaveLength(1);
  });

  it("refuses no reason with 400 and an unknown key with 404, revoking nothing", async () => {
    const { id, key } = await ownedKey();
    for (const body of [{}, { reason: "   " }, { reason: "a\u0000b" }, { reason: "x".repeat(501) }]) {
      const refused = await revoke(id, body);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: "BAD_REQUEST" });
    }
    expect(await verify(key)).toBe("VALID");
    const unknown = await revoke(`key_${"a".repeat(22)}`, { reason: "gone" });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: "NOT_FOUND", message: "No such key" });
  });

  it("needs keys:write, and an operator: a wallet cannot revoke another wallet's key this way", async () => {
    const { id, key } = await ownedKey();
    const created = await request(server.baseUrl, "POST", "/operator/tokens", {
      token: operatorSession,
      body: { name: "reader", scopes: ["wallets:read"] },
    });
    const reader = (created.body as { secret: string }).secret;
    const refused = await revoke(id, { reason: "no" }, reader);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ reason: "INSUFFICIENT_SCOPE", details: { scope: "keys:write" } });
    const stranger = await signIn(server.baseUrl);
    expect((await revoke(id, { reason: "no" }, stranger.token)).status).toBe(403);
    expect((await revoke(id, { reason: "no" }, "")).status).toBe(401);
    expect(await verify(key)).toBe("VALID");

    const writer = await request(server.baseUrl, "POST", "/operator/tokens", {
      token: operatorSession,
      body: { name: "moderator", scopes: ["keys:write"] },
    });
    const token = writer.body as { token: { id: string; name: string }; secret: string };
    expect((await revoke(id, { reason: "spam" }, token.secret)).status).toBe(200);
    expect(await verify(key)).toBe("REVOKED");
    const trail = await request(server.baseUrl, "GET", "/operator/events", { token: operatorSession });
    const [event] = (trail.body as { events: Event[] }).events;
    expect(event).toMatchObject({
      action: "key.revoked",
      keyId: id,
      actor: { type: "token", id: token.token.id, name: "moderator" },
    });
  });

  it("issues a key to a wallet: the wallet holds it like its own, marked as issued by the operator", async () => {
    const owner = await signIn(server.baseUrl);
    const issued = await request(
      server.baseUrl,
      "POST",
      `/operator/wallets/${owner.wallet.toLowerCase()}/keys`,
      {
        token: operatorSession,
        body: {
          name: "partner",
          permissions: ["search"],
          credits: { remaining: 500 },
          reason: "partnership 42",
        },
      },
    );
    expect(issued.status, JSON.stringify(issued.body)).toBe(201);
    const body = issued.body as { key: string; apiKey: { id: string; wallet: string; issuedBy: unknown } };
    expect(body.apiKey).toMatchObject({ wallet: owner.wallet, issuedBy: { operator: true } });
    const verified = await request(server.baseUrl, "POST", "/api-keys/verify", {
      body: { key: body.key, permissions: ["search"] },
    });
    expect(verified.body).toMatchObject({ valid: true, code: "VALID", wallet: owner.wallet });

    // The wallet sees it in its list and its trail, and rolls it like its own; the roll keeps the mark.
    const listed = await request(server.baseUrl, "GET", `/api-keys/${owner.wallet}`, { token: owner.token });
    expect((listed.body as { keys: { id: string; issuedBy: unknown }[] }).keys).toEqual([
      expect.objectContaining({ id: body.apiKey.id, issuedBy: { operator: true } }),
    ]);
    const trail = await request(server.baseUrl, "GET", `/api-keys/${owner.wallet}/events`, {
      token: owner.token,
    });
    const created = (trail.body as { events: Event[] }).events.find((e) => e.action === "key.created");
    expect(created?.changes).toMatchObject({ actor: "operator", reason: "partnership 42", name: "partner" });
    expect(JSON.stringify(trail.body).toLowerCase()).not.toContain(operator.address.toLowerCase());
    const rolled = await request(server.baseUrl, "POST", `/api-keys/${body.apiKey.id}/roll`, {
      token: owner.token,
      body: {},
    });
    expect(rolled.status).toBe(201);
    expect(rolled.body).toMatchObject({ apiKey: { issuedBy: { operator: true } } });

    const operatorTrail = await request(server.baseUrl, "GET", `/operator/events?wallet=${owner.wallet}`, {
      token: operatorSession,
    });
    expect((operatorTrail.body as { events: Event[] }).events).toEqual([
      expect.objectContaining({
        action: "key.issued",
        keyId: body.apiKey.id,
        reason: "partnership 42",
        actor: { type: "wallet", address: operator.address },
      }),
    ]);

    // A wallet's own key reads issuedBy null.
    const own = await ownedKey();
    const mine = await request(server.baseUrl, "GET", `/api-keys/${own.id}`, { token: own.owner.token });
    expect(mine.body).toMatchObject({ apiKey: { issuedBy: null } });
  });

  it("issues under the wallet's active-key cap and needs keys:issue", async () => {
    const capped = await startTestServer(target, {
      OPERATOR_WALLETS: operator.address,
      MAX_ACTIVE_KEYS_PER_WALLET: "1",
    });
    try {
      const session = (await signIn(capped.baseUrl, operator)).token;
      const owner = await signIn(capped.baseUrl);
      const issue = (token: string) =>
        request(capped.baseUrl, "POST", `/operator/wallets/${owner.wallet}/keys`, {
          token,
          body: { name: "k" },
        });
      expect((await issue(session)).status).toBe(201);
      const full = await issue(session);
      expect(full.status).toBe(409);
      expect(full.body).toEqual({
        code: "CONFLICT",
        message: "This wallet already holds the maximum of 1 active keys",
      });
      const created = await request(capped.baseUrl, "POST", "/operator/tokens", {
        token: session,
        body: { name: "revoker", scopes: ["keys:write"] },
      });
      const refused = await issue((created.body as { secret: string }).secret);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ reason: "INSUFFICIENT_SCOPE", details: { scope: "keys:issue" } });
      expect((await issue(owner.token)).status).toBe(403);
      const bad = await request(capped.baseUrl, "POST", "/operator/wallets/0x123/keys", {
        token: session,
        body: { name: "k" },
      });
      expect(bad.status).toBe(400);
    } finally {
      await capped.close();
    }
  });
});
