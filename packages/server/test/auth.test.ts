import { request } from "@keyport/test-support/http";
import { buildSiweMessage, fetchNonce, newAccount, postVerify, signIn } from "@keyport/test-support/siwe";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { consumeNonce, issueNonce } from "../src/auth/nonce.js";
import { describeDatabases, openTestPglite } from "./support/databases.js";
import { startTestServer, type TestServer } from "./support/server.js";

describeDatabases("sign-in with Ethereum", (target) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(target);
  });
  afterAll(() => server.close());

  it("issues single-use nonces that expire in 10 minutes", async () => {
    const { status, body } = await request(server.baseUrl, "POST", "/auth/nonce");
    expect(status).toBe(200);
    expect(body).toMatchObject({ nonce: expect.stringMatching(/^[0-9A-Za-z]{16,}$/) });
    const expiresAt = Date.parse(String((body as { expiresAt: string }).expiresAt));
    expect(expiresAt - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(10 * 60_000);
  });

  it("signs in a viem account and returns an opaque token for its checksummed wallet", async () => {
    const account = newAccount();
    const message = buildSiweMessage(account, await fetchNonce(server.baseUrl));
    const { status, body } = await postVerify(server.baseUrl, account, message);
    expect(status).toBe(200);
    expect(body).toEqual({
      token: expect.stringMatching(/^kps_/),
      wallet: account.address,
      expiresAt: expect.any(String),
    });
    const token = (body as { token: string }).token;
    const list = await request(server.baseUrl, "GET", `/api-keys/${account.address}`, { token });
    expect(list.status).toBe(200);
  });

  it("rejects a replayed nonce with 401", async () => {
    const account = newAccount();
    const message = buildSiweMessage(account, await fetchNonce(server.baseUrl));
    expect((await postVerify(server.baseUrl, account, message)).status).toBe(200);
    const replay = await postVerify(server.baseUrl, account, message);
    expect(replay.status).toBe(401);
    expect(replay.body).toMatchObject({ code: "UNAUTHORIZED", message: expect.any(String) });
  });

  it("rejects two concurrent sign-ins with one nonce: exactly one wins", async () => {
    const account = newAccount();
    const message = buildSiweMessage(account, await fetchNonce(server.baseUrl));
    const results = await Promise.all([1, 2, 3].map(() => postVerify(server.baseUrl, account, message)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401]);
  });

  const failures: [string, (nonce: string) => Parameters<typeof buildSiweMessage>[2]][] = [
    ["a wrong domain", () => ({ domain: "evil.example" })],
    ["a wrong chain id", () => ({ chainId: 8453 })],
    ["an expired message", () => ({ expirationTime: new Date(Date.now() - 1000) })],
    ["a message not yet valid", () => ({ notBefore: new Date(Date.now() + 3_600_000) })],
    ["an issued-at in the future", () => ({ issuedAt: new Date(Date.now() + 3_600_000) })],
    ["a nonce the server never issued", () => ({ nonce: "NeverIssued12345678" })],
  ];
  for (const [what, overrides] of failures) {
    it(`rejects ${what} with 401 and keeps the nonce usable`, async () => {
      const account = newAccount();
      const nonce = await fetchNonce(server.baseUrl);
      const bad = await postVerify(
        server.baseUrl,
        account,
        buildSiweMessage(account, nonce, overrides(nonce)),
      );
      expect(bad.status).toBe(401);
      expect(bad.body).toMatchObject({ code: "UNAUTHORIZED" });
      // The failed attempt did not burn the nonce: a correct message with it still signs in.
      const good = await postVerify(server.baseUrl, account, buildSiweMessage(account, nonce));
      expect(good.status).toBe(200);
    });
  }

  it("treats a nonce older than 10 minutes as spent", async () => {
    const { db } = target.database;
    const elevenMinutesAgo = new Date(Date.now() - 11 * 60_000);
    const { nonce } = await issueNonce(db, elevenMinutesAgo);
    expect(await consumeNonce(db, nonce)).toBe(false);
    const account = newAccount();
    expect((await postVerify(server.baseUrl, account, buildSiweMessage(account, nonce))).status).toBe(401);
  });

  it("ends sessions after SESSION_TTL_SECONDS", async () => {
    // The session's end passes on a fake Date (timers stay real for the sockets and the database).
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
    const shortLived = await startTestServer(target, { SESSION_TTL_SECONDS: "60" });
    try {
      const account = newAccount();
      const before = Date.now();
      const message = buildSiweMessage(account, await fetchNonce(shortLived.baseUrl));
      const { body } = await postVerify(shortLived.baseUrl, account, message);
      const { token, wallet, expiresAt } = body as { token: string; wallet: string; expiresAt: string };
      expect(Date.parse(expiresAt)).toBeGreaterThanOrEqual(before + 60_000);
      expect(Date.parse(expiresAt)).toBeLessThanOrEqual(Date.now() + 60_000);
      expect((await request(shortLived.baseUrl, "GET", `/api-keys/${wallet}`, { token })).status).toBe(200);
      vi.setSystemTime(Date.parse(expiresAt) + 1);
      expect((await request(shortLived.baseUrl, "GET", `/api-keys/${wallet}`, { token })).status).toBe(401);
    } finally {
      await shortLived.close();
      vi.useRealTimers();
    }
  });

  it("rejects a signature from another account with 401", async () => {
    const account = newAccount();
    const message = buildSiweMessage(account, await fetchNonce(server.baseUrl));
    const signature = await newAccount().signMessage({ message });
    const { status, body } = await request(server.baseUrl, "POST", "/auth/verify", {
      body: { message, signature },
    });
    expect(status).toBe(401);
    expect(body).toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("rejects a garbage signature and a garbage message with 401, never 500", async () => {
    const account = newAccount();
    const message = buildSiweMessage(account, await fetchNonce(server.baseUrl));
    const garbageSignature = await request(server.baseUrl, "POST", "/auth/verify", {
      body: { message, signature: "0x1234" },
    });
    expect(garbageSignature.status).toBe(401);
    const garbageMessage = await request(server.baseUrl, "POST", "/auth/verify", {
      body: { message: "hello", signature: await account.signMessage({ message: "hello" }) },
    });
    expect(garbageMessage.status).toBe(401);
  });

  it("logs out: the token gets 401 afterwards", async () => {
    const { token, wallet } = await signIn(server.baseUrl);
    const logout = await request(server.baseUrl, "POST", "/auth/logout", { token });
    expect(logout).toMatchObject({ status: 200, body: { ok: true } });
    const after = await request(server.baseUrl, "GET", `/api-keys/${wallet}`, { token });
    expect(after.status).toBe(401);
    expect((await request(server.baseUrl, "POST", "/auth/logout", { token })).status).toBe(401);
  });

  it("answers 401 for a missing, malformed or unknown token", async () => {
    const { wallet } = await signIn(server.baseUrl);
    const headerSets: Record<string, string>[] = [
      {},
      { authorization: "Basic abc" },
      { authorization: "Bearer kps_unknown" },
    ];
    for (const headers of headerSets) {
      const { status, body } = await request(server.baseUrl, "GET", `/api-keys/${wallet}`, { headers });
      expect(status).toBe(401);
      expect(body).toMatchObject({ code: "UNAUTHORIZED", message: expect.any(String) });
    }
  });
});

describe("sign-in settings", () => {
  it("accepts a configured domain with a port and chain id, and rejects the defaults then", async () => {
    const database = await openTestPglite();
    const server = await startTestServer(
      { database, url: "memory:" },
      { SIWE_DOMAINS: "app.example:8443", SIWE_CHAIN_IDS: "10,8453" },
    );
    try {
      const account = newAccount();
      const ok = buildSiweMessage(account, await fetchNonce(server.baseUrl), {
        domain: "app.example:8443",
        uri: "https://app.example:8443/login",
        chainId: 8453,
      });
      expect((await postVerify(server.baseUrl, account, ok)).status).toBe(200);
      const localhost = buildSiweMessage(account, await fetchNonce(server.baseUrl), { chainId: 10 });
      expect((await postVerify(server.baseUrl, account, localhost)).status).toBe(401);
    } finally {
      await server.close();
      await database.close();
    }
  });
});
