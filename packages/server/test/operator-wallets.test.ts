import { request } from "@keyport/test-support/http";
import { newAccount, signIn } from "@keyport/test-support/siwe";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDatabases } from "./support/databases.js";
import { startTestServer, type TestServer } from "./support/server.js";

// The operator's view of the deployment's wallets (docs/operator.md#wallets): the list with search,
// sorts and cursors, one wallet, and its keys, trail and usage as its owner sees them.

interface WalletItem {
  address: string;
  activeKeys: number;
  lastSignInAt: string | null;
  suspended: unknown;
}
interface WalletPage {
  wallets: WalletItem[];
  nextCursor: string | null;
}

describeDatabases("operator wallets", (target) => {
  const operator = newAccount();
  let server: TestServer;
  let operatorSession: string;
  // Three wallets made by this file, holding 2, 0 and 1 active keys (and one revoked key).
  const made: { wallet: string; token: string; keys: { id: string; key: string }[] }[] = [];

  const get = (path: string, token: string = operatorSession) =>
    request(server.baseUrl, "GET", path, { token });

  const createKey = async (token: string, name: string) => {
    const answer = await request(server.baseUrl, "POST", "/api-keys", { token, body: { name } });
    expect(answer.status).toBe(201);
    const body = answer.body as { key: string; apiKey: { id: string } };
    return { id: body.apiKey.id, key: body.key };
  };

  /** Every page of a list, following cursors. */
  const allPages = async (query: string) => {
    const seen: WalletItem[] = [];
    let cursor: string | null = null;
    do {
      const suffix: string = cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`;
      const answer = await get(`/operator/wallets?limit=2${query}${suffix}`);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const page = answer.body as WalletPage;
      seen.push(...page.wallets);
      cursor = page.nextCursor;
    } while (cursor !== null);
    return seen;
  };

  beforeAll(async () => {
    server = await startTestServer(target, { OPERATOR_WALLETS: operator.address });
    operatorSession = (await signIn(server.baseUrl, operator)).token;
    for (const count of [2, 0, 1]) {
      const session = await signIn(server.baseUrl);
      const keys = [];
      for (let i = 0; i < count; i++) keys.push(await createKey(session.token, `key ${i}`));
      made.push({ wallet: session.wallet, token: session.token, keys });
    }
    const first = made[0];
    if (!first) throw new Error("no wallet made");
    const gone = await createKey(first.token, "revoked");
    expect(
      (await request(server.baseUrl, "DELETE", `/api-keys/${gone.id}`, { token: first.token })).status,
    ).toBe(200);
  });
  afterAll(() => server.close());

  it("lists every wallet that signed in, most recently active first, in cursor pages without repeats", async () => {
    const listed = await allPages("");
    const addresses = listed.map((w) => w.address);
    expect(new Set(addresses).size).toBe(addresses.length);
    for (const { wallet } of made) expect(addresses).toContain(wallet);
    expect(addresses).toContain(operator.address);
    // The first wallet made a key after the others signed in; the second only signed in.
    const mine = addresses.filter((a) => made.some((m) => m.wallet === a));
    expect(mine).toEqual([made[0]?.wallet, made[2]?.wallet, made[1]?.wallet]);
    const first = listed.find((w) => w.address === made[0]?.wallet);
    expect(first).toMatchObject({ activeKeys: 2, suspended: null });
    expect(first?.lastSignInAt).not.toBeNull();
  });

  it("sorts by active keys, most first, ties by address", async () => {
    const listed = await allPages("&sort=activeKeys");
    const counts = listed.map((w) => w.activeKeys);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    for (let i = 1; i < listed.length; i++) {
      const [before, after] = [listed[i - 1], listed[i]];
      if (before && after && before.activeKeys === after.activeKeys)
        expect(before.address < after.address).toBe(true);
    }
    expect(listed.find((w) => w.address === made[2]?.wallet)?.activeKeys).toBe(1);
  });

  it("finds wallets by the start of their address, in any case, with or without 0x", async () => {
    const wallet = made[1]?.wallet ?? "";
    for (const q of [wallet.slice(0, 10).toLowerCase(), wallet.slice(2, 10).toUpperCase(), wallet]) {
      const answer = await get(`/operator/wallets?q=${q}`);
      expect(answer.status).toBe(200);
      expect((answer.body as WalletPage).wallets.map((w) => w.address)).toEqual([wallet]);
    }
    for (const q of ["0xzz", "%25", "0x_"]) {
      const refused = await get(`/operator/wallets?q=${q}`);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: "BAD_REQUEST" });
    }
  });

  it("refuses a cursor it did not issue, or one of another sort, with 400", async () => {
    const page = (await get("/operator/wallets?limit=1")).body as WalletPage;
    expect(page.nextCursor).not.toBeNull();
    const other = await get(`/operator/wallets?limit=1&sort=activeKeys&cursor=${page.nextCursor}`);
    expect(other.status).toBe(400);
    const forged = await get(
      `/operator/wallets?cursor=${Buffer.from('["lastActive",1,"x"]').toString("base64url")}`,
    );
    expect(forged.status).toBe(400);
  });

  it("shows one wallet with its key counts and live sessions, and 404 for a wallet never seen", async () => {
    const first = made[0];
    const answer = await get(`/operator/wallets/${first?.wallet.toLowerCase()}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      wallet: { address: first?.wallet, activeKeys: 2 },
      keys: { total: 3, active: 2 },
      sessions: 1,
    });
    const unknown = await get(`/operator/wallets/${newAccount().address}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: "NOT_FOUND", message: "No such wallet" });
  });

  it("lists a wallet's keys, trail and usage as its owner reads them, never a secret", async () => {
    const first = made[0];
    if (!first) throw new Error("no wallet made");
    const keys = await get(`/operator/wallets/${first.wallet}/keys?status=active`);
    expect(keys.status).toBe(200);
    const owner = await get(`/api-keys/${first.wallet}?status=active`, first.token);
    expect(keys.body).toEqual(owner.body);
    for (const { key } of first.keys) expect(JSON.stringify(keys.body)).not.toContain(key);

    const trail = await get(`/operator/wallets/${first.wallet}/events`);
    expect(trail.status).toBe(200);
    expect(trail.body).toEqual((await get(`/api-keys/${first.wallet}/events`, first.token)).body);
    const actions = (trail.body as { events: { action: string }[] }).events.map((e) => e.action);
    expect(actions).toContain("key.revoked");

    const [key] = first.keys;
    const verified = await request(server.baseUrl, "POST", "/api-keys/verify", { body: { key: key?.key } });
    expect(verified.status).toBe(200);
    await server.app.services.verification.usage.flush();
    const usage = await get(`/operator/wallets/${first.wallet}/usage`);
    expect(usage.status).toBe(200);
    expect(usage.body).toMatchObject({ totals: { requests: 1, valid: 1 } });
  });

  it("needs wallets:read for wallets and keys, usage:read for usage, and an operator for any of it", async () => {
    const token = async (scopes: string[]) => {
      const answer = await request(server.baseUrl, "POST", "/operator/tokens", {
        token: operatorSession,
        body: { name: "wallet reader", scopes },
      });
      return (answer.body as { secret: string }).secret;
    };
    const wallet = made[0]?.wallet ?? "";
    const reader = await token(["wallets:read"]);
    const counter = await token(["usage:read"]);
    for (const path of [
      "/operator/wallets",
      `/operator/wallets/${wallet}`,
      `/operator/wallets/${wallet}/keys`,
    ]) {
      expect((await get(path, reader)).status).toBe(200);
      const refused = await get(path, counter);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({
        reason: "INSUFFICIENT_SCOPE",
        details: { scope: "wallets:read" },
      });
    }
    expect((await get(`/operator/wallets/${wallet}/usage`, counter)).status).toBe(200);
    expect((await get(`/operator/wallets/${wallet}/usage`, reader)).status).toBe(403);
    // Another wallet's session reaches nothing of it through the operator API.
    const other = made[1]?.token ?? "";
    for (const path of [
      `/operator/wallets/${wallet}`,
      `/operator/wallets/${wallet}/keys`,
      `/operator/wallets/${wallet}/usage`,
    ])
      expect((await get(path, other)).status).toBe(403);
    expect((await request(server.baseUrl, "GET", "/operator/wallets")).status).toBe(401);
  });

  it("counts the deployment's verifications by day and outcome, with the busiest wallets and keys", async () => {
    const before = (await get("/operator/usage")).body as { totals: { requests: number } };
    const [first, , third] = made;
    const busy = first?.keys[0];
    const quiet = third?.keys[0];
    if (!busy || !quiet || !first || !third) throw new Error("no keys made");
    const verify = (key: string) => request(server.baseUrl, "POST", "/api-keys/verify", { body: { key } });
    for (let i = 0; i < 3; i++) await verify(busy.key);
    await verify(quiet.key);
    await request(server.baseUrl, "DELETE", `/api-keys/${quiet.id}`, { token: third.token });
    await verify(quiet.key);
    await server.app.services.verification.usage.flush();

    const answer = await get("/operator/usage");
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const usage = answer.body as {
      totals: { requests: number; valid: number; revoked: number };
      series: { start: string; requests: number }[];
      topWallets: { wallet: string; requests: number; valid: number; revoked: number }[];
      topKeys: { keyId: string; wallet: string; name: string; requests: number }[];
    };
    expect(usage.totals.requests - before.totals.requests).toBe(5);
    expect(usage.series).toHaveLength(31);
    expect(usage.series.at(-1)?.requests).toBe(usage.totals.requests);
    expect(usage.topWallets.find((w) => w.wallet === third.wallet)).toMatchObject({
      requests: 2,
      valid: 1,
      revoked: 1,
    });
    const busiest = usage.topKeys[0];
    expect(busiest).toMatchObject({ keyId: busy.id, wallet: first.wallet, name: "key 0" });
    expect(busiest?.requests).toBeGreaterThanOrEqual(3);

    expect((await get("/operator/usage?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z")).status).toBe(400);
    const created = await request(server.baseUrl, "POST", "/operator/tokens", {
      token: operatorSession,
      body: { name: "wallets only", scopes: ["wallets:read"] },
    });
    const refused = await get("/operator/usage", (created.body as { secret: string }).secret);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ details: { scope: "usage:read" } });
  });
});
