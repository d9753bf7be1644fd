import { request } from "@keyport/test-support/http";
import { newAccount, signIn } from "@keyport/test-support/siwe";
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import { eq } from "drizzle-orm";
import superjson from "superjson";
import { afterAll, beforeAll, expect, it } from "vitest";
import { operatorTokens, wallets } from "../src/db/schema/index.js";
import type { AppRouter } from "../src/index.js";
import { describeDatabases } from "./support/databases.js";
import { startTestServer, type TestServer } from "./support/server.js";

// Who may use the operator API (docs/operator.md): an operator wallet's session, or a token of the
// procedure's scope; tokens are made, listed and revoked by an operator session only.

function trpc(baseUrl: string, token: string) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${baseUrl}/trpc`,
        transformer: superjson,
        headers: { authorization: `Bearer ${token}` },
      }),
    ],
  });
}

interface CreatedToken {
  token: { id: string; name: string; scopes: string[]; status: string; start: string };
  secret: string;
}

describeDatabases("operator tokens", (target) => {
  const operator = newAccount();
  let server: TestServer;
  let operatorSession: string;

  beforeAll(async () => {
    server = await startTestServer(target, { OPERATOR_WALLETS: operator.address.toLowerCase() });
    operatorSession = (await signIn(server.baseUrl, operator)).token;
  });
  afterAll(() => server.close());

  const createToken = async (scopes: string[], extra: Record<string, unknown> = {}) => {
    const answer = await request(server.baseUrl, "POST", "/operator/tokens", {
      token: operatorSession,
      body: { name: "reporting", scopes, ...extra },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body as CreatedToken;
  };
  const listEvents = (token: string) => request(server.baseUrl, "GET", "/operator/events", { token });

  it("tells a session whether its wallet is an operator", async () => {
    const mine = await request(server.baseUrl, "GET", "/auth/session", { token: operatorSession });
    expect(mine.body).toMatchObject({ wallet: operator.address, operator: true });
    const other = await signIn(server.baseUrl);
    const theirs = await request(server.baseUrl, "GET", "/auth/session", { token: other.token });
    expect(theirs.body).toMatchObject({ wallet: other.wallet, operator: false });
  });

  it("lets an operator session create a token shown once, in the key format with its own prefix", async () => {
    const { token, secret } = await createToken(["wallets:read", "payments:read"]);
    expect(secret).toMatch(/^kpo_[0-9A-Za-z]{38}$/);
    expect(token).toMatchObject({
      name: "reporting",
      scopes: ["wallets:read", "payments:read"],
      status: "active",
    });
    expect(token.start).toBe(secret.slice(0, 8));
    const [row] = await target.database.db
      .select()
      .from(operatorTokens)
      .where(eq(operatorTokens.id, token.id));
    expect(JSON.stringify(row)).not.toContain(secret);
    const listed = await request(server.baseUrl, "GET", "/operator/tokens", { token: operatorSession });
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).toContain(token.id);
    expect(JSON.stringify(listed.body)).not.toContain(secret);
  });

  it("answers a token with the scope, and 403 INSUFFICIENT_SCOPE naming it without, over REST and tRPC", async () => {
    const reader = await createToken(["wallets:read"]);
    expect((await listEvents(reader.secret)).status).toBe(200);
    const payments = await createToken(["payments:read"]);
    const refused = await listEvents(payments.secret);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      code: "FORBIDDEN",
      message: "This operator token lacks the scope wallets:read",
      reason: "INSUFFICIENT_SCOPE",
      details: { scope: "wallets:read" },
    });
    const error = await trpc(server.baseUrl, payments.secret)
      .operator.audit.list.query()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCClientError);
    expect((error as TRPCClientError<AppRouter>).data).toMatchObject({
      code: "FORBIDDEN",
      httpStatus: 403,
      reason: "INSUFFICIENT_SCOPE",
      details: { scope: "wallets:read" },
    });
  });

  it("refuses a token outside the operator API with 401, and a token creating or revoking tokens with 403", async () => {
    const { token, secret } = await createToken(["wallets:read", "wallets:write", "keys:write"]);
    const keys = await request(server.baseUrl, "GET", `/api-keys/${operator.address}`, { token: secret });
    expect(keys.status).toBe(401);
    const session = await request(server.baseUrl, "GET", "/auth/session", { token: secret });
    expect(session.status).toBe(401);
    const mint = await request(server.baseUrl, "POST", "/operator/tokens", {
      token: secret,
      body: { name: "escalate", scopes: ["wallets:read"] },
    });
    expect(mint.status).toBe(403);
    const revoke = await request(server.baseUrl, "DELETE", `/operator/tokens/${token.id}`, { token: secret });
    expect(revoke.status).toBe(403);
  });

  it("refuses a wallet that is not an operator with 403, and no bearer or an unknown token with 401", async () => {
    const wallet = await signIn(server.baseUrl);
    for (const path of ["/operator/events", "/operator/tokens"]) {
      expect((await request(server.baseUrl, "GET", path, { token: wallet.token })).status).toBe(403);
      expect((await request(server.baseUrl, "GET", path)).status).toBe(401);
    }
    const mint = await request(server.baseUrl, "POST", "/operator/tokens", {
      token: wallet.token,
      body: { name: "x", scopes: ["wallets:read"] },
    });
    expect(mint.status).toBe(403);
    // Well-formed (checksummed) but never issued; and a typo, refused without a lookup.
    const { secret } = await createToken(["wallets:read"]);
    const unknown = `kpo_${"A".repeat(32)}${secret.slice(-6)}`;
    expect((await listEvents(unknown)).status).toBe(401);
    // The last character changed (to one it is not), so the checksum no longer matches.
    const typo = `${secret.slice(0, -1)}${secret.endsWith("x") ? "y" : "x"}`;
    expect((await listEvents(typo)).status).toBe(401);
  });

  it("refuses an unknown scope, a repeated one and none with 400, before anything is stored", async () => {
    const before = await target.database.db.select().from(operatorTokens);
    for (const scopes of [["tokens:write"], ["wallets:read", "wallets:read"], []]) {
      const answer = await request(server.baseUrl, "POST", "/operator/tokens", {
        token: operatorSession,
        body: { name: "bad", scopes },
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: "BAD_REQUEST" });
    }
    expect(await target.database.db.select().from(operatorTokens)).toHaveLength(before.length);
  });

  it("stops a revoked token and an expired one at once, and records who created and revoked it", async () => {
    const { token, secret } = await createToken(["wallets:read"]);
    expect((await listEvents(secret)).status).toBe(200);
    const revoked = await request(server.baseUrl, "DELETE", `/operator/tokens/${token.id}`, {
      token: operatorSession,
    });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ token: { id: token.id, status: "revoked" } });
    expect((await listEvents(secret)).status).toBe(401);
    const again = await request(server.baseUrl, "DELETE", `/operator/tokens/${token.id}`, {
      token: operatorSession,
    });
    expect(again.status).toBe(200);
    const missing = await request(server.baseUrl, "DELETE", `/operator/tokens/opt_${"a".repeat(22)}`, {
      token: operatorSession,
    });
    expect(missing.status).toBe(404);

    const soon = await createToken(["wallets:read"], {
      expiresAt: new Date(Date.now() + 1_000).toISOString(),
    });
    expect((await listEvents(soon.secret)).status).toBe(200);
    await expect.poll(async () => (await listEvents(soon.secret)).status, { timeout: 5_000 }).toBe(401);

    const trail = await listEvents(operatorSession);
    const events = (trail.body as { events: { action: string; actor: unknown; changes: { id?: string } }[] })
      .events;
    const mine = events.filter((event) => event.changes.id === token.id).map((event) => event.action);
    expect(mine).toEqual(["token.revoked", "token.created"]);
    for (const event of events.filter((e) => e.changes.id === token.id))
      expect(event.actor).toEqual({ type: "wallet", address: operator.address });
    expect(JSON.stringify(trail.body)).not.toContain(secret);
  });

  it("revokes an operator token that a leak report finds, and records it", async () => {
    const { token, secret } = await createToken(["wallets:read"]);
    const report = await request(server.baseUrl, "POST", "/api-keys/report-leak", { body: { key: secret } });
    expect(report.status).toBe(202);
    expect((await listEvents(secret)).status).toBe(401);
    const listed = await request(server.baseUrl, "GET", "/operator/tokens", { token: operatorSession });
    const found = (
      listed.body as { tokens: { id: string; status: string; leakedAt: string | null }[] }
    ).tokens.find((t) => t.id === token.id);
    expect(found).toMatchObject({ status: "revoked" });
    expect(found?.leakedAt).not.toBeNull();
    const trail = await listEvents(operatorSession);
    expect(JSON.stringify(trail.body)).toContain('"token.leaked"');
  });

  it("holds at most 50 live tokens (409 past it), and a revoked one frees its place", async () => {
    const listed = await request(server.baseUrl, "GET", "/operator/tokens?limit=100", {
      token: operatorSession,
    });
    const live = (listed.body as { tokens: { status: string }[] }).tokens.filter(
      (t) => t.status === "active",
    );
    const made = await Promise.all(
      Array.from({ length: 50 - live.length }, () => createToken(["usage:read"])),
    );
    const refused = await request(server.baseUrl, "POST", "/operator/tokens", {
      token: operatorSession,
      body: { name: "one too many", scopes: ["usage:read"] },
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: "CONFLICT" });
    const first = made[0];
    if (first === undefined) throw new Error("no token made");
    await request(server.baseUrl, "DELETE", `/operator/tokens/${first.token.id}`, { token: operatorSession });
    await createToken(["usage:read"]);
  });

  it("records each wallet that signs in or makes a key, with its last activity", async () => {
    const account = newAccount();
    const { token } = await signIn(server.baseUrl, account);
    const [signedIn] = await target.database.db
      .select()
      .from(wallets)
      .where(eq(wallets.address, account.address));
    expect(signedIn?.lastSignInAt).not.toBeNull();
    const created = await request(server.baseUrl, "POST", "/api-keys", { token, body: { name: "k" } });
    expect(created.status).toBe(201);
    const [active] = await target.database.db
      .select()
      .from(wallets)
      .where(eq(wallets.address, account.address));
    expect(active?.lastActiveAt.getTime()).toBeGreaterThanOrEqual(signedIn?.lastActiveAt.getTime() ?? 0);
  });
});
