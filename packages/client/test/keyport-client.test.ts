import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKeyportClient, type KeyportClient, KeyportError } from "../src/index.js";
import { type RunningServer, startKeyportServer } from "./support/keyport-server.js";

const SIWE = { chainId: 1, domain: "localhost", uri: "http://localhost/login" };

/** Awaits a promise that must reject and returns the rejection. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (error: unknown) => error,
  );
}

describe("createKeyportClient against the real server", () => {
  let server: RunningServer;
  const account = privateKeyToAccount(generatePrivateKey());
  let keyport: KeyportClient;

  beforeAll(async () => {
    // Usage counts reach the database every USAGE_FLUSH_INTERVAL_MS; short here so reads catch up soon.
    server = await startKeyportServer({ USAGE_FLUSH_INTERVAL_MS: "50" });
    keyport = createKeyportClient({ url: server.trpcUrl });
  });
  afterAll(() => server.close());

  it("signs in with a viem local account and stores the session token", async () => {
    const session = await keyport.signIn({ account }, SIWE);
    expect(session.wallet).toBe(account.address);
    expect(session.expiresAt).toBeInstanceOf(Date);
    expect(session.token.length).toBeGreaterThan(20);
    const page = await keyport.keys.list.query({ wallet: account.address });
    expect(page.keys).toEqual([]);
  });

  it("creates, lists, rolls and revokes a key, with times as Dates", async () => {
    const expiresAt = new Date(Date.now() + 86_400_000);
    const created = await keyport.keys.create.mutate({
      name: "dashboard",
      expiresAt,
      rateLimit: { limit: 10, windowSeconds: 60 },
    });
    expect(created.key).toMatch(/^kp_/);
    expect(created.apiKey).toMatchObject({ name: "dashboard", status: "active", wallet: account.address });
    expect(created.apiKey.expiresAt?.getTime()).toBe(expiresAt.getTime());

    const listed = await keyport.keys.list.query({ wallet: account.address, status: "active" });
    expect(listed.keys.map((key) => key.id)).toContain(created.apiKey.id);
    expect(listed.keys[0]?.createdAt).toBeInstanceOf(Date);
    expect(JSON.stringify(listed)).not.toContain(created.key);

    const rolled = await keyport.keys.roll.mutate({ id: created.apiKey.id, gracePeriodSeconds: 60 });
    expect(rolled.key).not.toBe(created.key);
    expect(rolled.previous.id).toBe(created.apiKey.id);
    expect(rolled.apiKey).toMatchObject({ name: "dashboard", rateLimit: { limit: 10, windowSeconds: 60 } });

    const revoked = await keyport.keys.revoke.mutate({ id: rolled.apiKey.id });
    expect(revoked.apiKey.status).toBe("revoked");
    expect(revoked.apiKey.revokedAt).toBeInstanceOf(Date);
  });

  it("verifies keys without a session: VALID, RATE_LIMITED, REVOKED and NOT_FOUND", async () => {
    const { key, apiKey } = await keyport.keys.create.mutate({
      name: "verified",
      rateLimit: { limit: 2, windowSeconds: 3_600 },
    });
    const backend = createKeyportClient({ url: server.trpcUrl });
    const first = await backend.keys.verify.mutate({ key });
    expect(first).toMatchObject({ valid: true, code: "VALID", keyId: apiKey.id, wallet: account.address });
    expect(first.ratelimit).toMatchObject({ limit: 2, remaining: 1 });
    expect(first.ratelimit?.resetAt).toBeInstanceOf(Date);
    expect(await backend.keys.verify.mutate({ key })).toMatchObject({ valid: true, code: "VALID" });
    expect(await backend.keys.verify.mutate({ key })).toMatchObject({ valid: false, code: "RATE_LIMITED" });

    await keyport.keys.revoke.mutate({ id: apiKey.id });
    expect(await backend.keys.verify.mutate({ key })).toMatchObject({ valid: false, code: "REVOKED" });
    expect(await backend.keys.verify.mutate({ key: "kp_not-a-key" })).toEqual({
      valid: false,
      code: "NOT_FOUND",
      keyId: null,
      wallet: null,
      expiresAt: null,
      ratelimit: null,
    });

    // Every verification of the key counts once, under its outcome.
    const readUsage = () =>
      keyport.usage.get.query({ wallet: account.address, keyId: apiKey.id, granularity: "hour" });
    // Counts reach the database on the server's flush interval.
    await expect.poll(async () => (await readUsage()).totals.requests).toBe(4);
    const usage = await readUsage();
    expect(usage.totals).toEqual({ requests: 4, valid: 2, rateLimited: 1, expired: 0, revoked: 1 });
    expect(usage.keys).toEqual([
      { keyId: apiKey.id, name: "verified", requests: 4, valid: 2, rateLimited: 1, expired: 0, revoked: 1 },
    ]);
    expect(usage.granularity).toBe("hour");
    expect(usage.from).toBeInstanceOf(Date);
    expect(usage.series.length).toBeGreaterThan(0);
    expect(usage.series.reduce((sum, bucket) => sum + bucket.requests, 0)).toBe(4);
  });

  it("reads usage only for the session's own wallet: another wallet is FORBIDDEN 403", async () => {
    const stranger = privateKeyToAccount(generatePrivateKey()).address;
    await expect(keyport.usage.get.query({ wallet: stranger })).rejects.toMatchObject({
      code: "FORBIDDEN",
      status: 403,
    });
  });

  it("uses the token it was given, or asks getToken when it has none", async () => {
    const other = privateKeyToAccount(generatePrivateKey());
    const signer = createKeyportClient({ url: server.trpcUrl });
    const { token } = await signer.signIn(
      { address: other.address, signMessage: (message) => other.signMessage({ message }) },
      SIWE,
    );

    const withToken = createKeyportClient({ url: server.trpcUrl, token });
    await withToken.keys.create.mutate({ name: "from-token" });
    let asked = 0;
    const withGetter = createKeyportClient({
      url: server.trpcUrl,
      getToken: async () => {
        asked += 1;
        return token;
      },
    });
    const page = await withGetter.keys.list.query({ wallet: other.address });
    expect(page.keys.map((key) => key.name)).toEqual(["from-token"]);
    expect(asked).toBeGreaterThan(0);
  });

  it("signs out: the server ends the session and later calls fail with UNAUTHORIZED 401", async () => {
    const other = privateKeyToAccount(generatePrivateKey());
    const client = createKeyportClient({ url: server.trpcUrl });
    const { token } = await client.signIn({ account: other }, SIWE);
    await client.signOut();
    const error = await rejection(client.keys.list.query({ wallet: other.address }));
    expect(error).toBeInstanceOf(KeyportError);
    expect(error).toMatchObject({ code: "UNAUTHORIZED", status: 401 });
    // The token itself is dead on the server, not just forgotten by the client.
    const reused = createKeyportClient({ url: server.trpcUrl, token });
    await expect(reused.keys.list.query({ wallet: other.address })).rejects.toMatchObject({ status: 401 });
    await client.signOut(); // signing out twice is harmless
  });

  it("reports invalid input as BAD_REQUEST 400 with the issues", async () => {
    const error = await rejection(keyport.keys.create.mutate({ name: "" }));
    expect(error).toBeInstanceOf(KeyportError);
    expect(error).toMatchObject({ code: "BAD_REQUEST", status: 400 });
    const paths = error instanceof KeyportError ? error.issues?.map((issue) => issue.path.join(".")) : [];
    expect(new Set(paths)).toEqual(new Set(["name"]));
    expect(error instanceof KeyportError && error.message).toMatch(/^Invalid input: name: /);
  });

  it("reports another wallet's list as FORBIDDEN 403 and an unknown key as NOT_FOUND 404", async () => {
    const stranger = privateKeyToAccount(generatePrivateKey()).address;
    await expect(keyport.keys.list.query({ wallet: stranger })).rejects.toMatchObject({
      name: "KeyportError",
      code: "FORBIDDEN",
      status: 403,
    });
    await expect(keyport.keys.revoke.mutate({ id: "key_0000000000000000" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      status: 404,
    });
  });

  it("rejects a sign-in for another domain with UNAUTHORIZED 401 and keeps no token", async () => {
    const client = createKeyportClient({ url: server.trpcUrl });
    const other = privateKeyToAccount(generatePrivateKey());
    await expect(
      client.signIn({ account: other }, { ...SIWE, domain: "evil.example" }),
    ).rejects.toMatchObject({
      code: "UNAUTHORIZED",
      status: 401,
    });
    await expect(client.keys.list.query({ wallet: other.address })).rejects.toMatchObject({ status: 401 });
  });

  it("reports an unreachable server as NETWORK_ERROR with status 0", async () => {
    const client = createKeyportClient({ url: "http://127.0.0.1:1/trpc" });
    await expect(client.auth.nonce.mutate()).rejects.toMatchObject({ code: "NETWORK_ERROR", status: 0 });
  });
});
