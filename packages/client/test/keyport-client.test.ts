import { createTRPCClient, getUntypedClient, TRPCClientError } from "@trpc/client";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AppRouter,
  createKeyportClient,
  type KeyportClient,
  type KeyportError,
  keyportLinks,
  signIn,
  toKeyportError,
} from "../src/index.js";
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

/** Awaits a call that must fail with tRPC's own error, and reads it as a KeyportError. */
async function failure(promise: Promise<unknown>): Promise<KeyportError> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(TRPCClientError);
  return toKeyportError(error);
}

describe("createKeyportClient against the real server", () => {
  let server: RunningServer;
  const account = privateKeyToAccount(generatePrivateKey());
  let keyport: KeyportClient;

  beforeAll(async () => {
    // Usage counts reach the database every USAGE_FLUSH_INTERVAL_MS; short here so reads catch up soon.
    server = await startKeyportServer({ USAGE_FLUSH_INTERVAL_MS: "50", OPERATOR_WALLETS: account.address });
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

  it("gets one key by id, as the list shows it, revoked keys included", async () => {
    const { apiKey } = await keyport.keys.create.mutate({
      name: "one",
      credits: { remaining: 3, refill: null },
    });
    const got = await keyport.keys.get.query({ id: apiKey.id });
    expect(got.apiKey.createdAt).toBeInstanceOf(Date);
    const listed = await keyport.keys.list.query({ wallet: account.address, limit: 100 });
    expect(got.apiKey).toEqual(listed.keys.find((key) => key.id === apiKey.id));
    expect(got.apiKey.credits).toMatchObject({ remaining: 3, purchased: 0 });

    await keyport.keys.revoke.mutate({ id: apiKey.id });
    expect((await keyport.keys.get.query({ id: apiKey.id })).apiKey.status).toBe("revoked");

    // Another wallet's key reads as an unknown one: NOT_FOUND 404, the same message.
    const stranger = createKeyportClient({ url: server.trpcUrl });
    await stranger.signIn({ account: privateKeyToAccount(generatePrivateKey()) }, SIWE);
    const hidden = await failure(stranger.keys.get.query({ id: apiKey.id }));
    const unknown = await failure(keyport.keys.get.query({ id: "key_0000000000000000" }));
    expect(hidden).toMatchObject({ code: "NOT_FOUND", status: 404 });
    expect(unknown).toMatchObject({ code: "NOT_FOUND", status: 404, message: hidden.message });
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
      ratelimits: [],
      permissions: [],
      credits: null,
      meta: null,
      plan: null,
    });

    // Every verification of the key counts once, under its outcome.
    const readUsage = () =>
      keyport.usage.get.query({ wallet: account.address, keyId: apiKey.id, granularity: "hour" });
    // Counts reach the database on the server's flush interval.
    await expect.poll(async () => (await readUsage()).totals.requests).toBe(4);
    const usage = await readUsage();
    expect(usage.totals).toEqual({
      requests: 4,
      valid: 2,
      rateLimited: 1,
      expired: 0,
      revoked: 1,
      insufficientPermissions: 0,
      usageExceeded: 0,
      ipNotAllowed: 0,
      walletSuspended: 0,
    });
    expect(usage.keys).toEqual([
      {
        keyId: apiKey.id,
        name: "verified",
        requests: 4,
        valid: 2,
        rateLimited: 1,
        expired: 0,
        revoked: 1,
        insufficientPermissions: 0,
        usageExceeded: 0,
        ipNotAllowed: 0,
        walletSuspended: 0,
      },
    ]);
    expect(usage.granularity).toBe("hour");
    expect(usage.from).toBeInstanceOf(Date);
    expect(usage.series.length).toBeGreaterThan(0);
    expect(usage.series.reduce((sum, bucket) => sum + bucket.requests, 0)).toBe(4);
  });

  it("reads usage only for the session's own wallet: another wallet is FORBIDDEN 403", async () => {
    const stranger = privateKeyToAccount(generatePrivateKey()).address;
    expect(await failure(keyport.usage.get.query({ wallet: stranger }))).toMatchObject({
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

  it("signs out through auth.logout: the server ends the session and later calls fail with UNAUTHORIZED 401", async () => {
    const other = privateKeyToAccount(generatePrivateKey());
    const client = createKeyportClient({ url: server.trpcUrl });
    const { token } = await client.signIn({ account: other }, SIWE);
    await client.auth.logout.mutate();
    expect(await failure(client.keys.list.query({ wallet: other.address }))).toMatchObject({
      code: "UNAUTHORIZED",
      status: 401,
    });
    // The token itself is dead on the server, for any client that holds it.
    const reused = createKeyportClient({ url: server.trpcUrl, token });
    expect(await failure(reused.keys.list.query({ wallet: other.address }))).toMatchObject({ status: 401 });
  });

  it("reports a refusal's reason and details: an operator token without the scope is FORBIDDEN, INSUFFICIENT_SCOPE", async () => {
    const operator = createKeyportClient({ url: server.trpcUrl });
    await operator.signIn({ account }, SIWE);
    const { secret } = await operator.operator.tokens.create.mutate({
      name: "ci",
      scopes: ["payments:read"],
    });
    const scoped = createKeyportClient({ url: server.trpcUrl, token: secret });
    expect(await failure(scoped.operator.audit.list.query())).toMatchObject({
      code: "FORBIDDEN",
      status: 403,
      reason: "INSUFFICIENT_SCOPE",
      details: { scope: "wallets:read" },
      message: "This operator token lacks the scope wallets:read",
    });
    // A refusal without a reason carries none.
    const other = privateKeyToAccount(generatePrivateKey()).address;
    expect((await failure(operator.keys.list.query({ wallet: other }))).reason).toBeUndefined();
  });

  it("reports invalid input as BAD_REQUEST 400 with the issues", async () => {
    const error = await failure(keyport.keys.create.mutate({ name: "" }));
    expect(error).toMatchObject({ code: "BAD_REQUEST", status: 400 });
    expect(new Set(error.issues?.map((issue) => issue.path.join(".")))).toEqual(new Set(["name"]));
    expect(error.message).toMatch(/^Invalid input: name: /);
    // The id the server gave the request, to quote to its operator (its X-Request-Id header).
    expect(error.requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it("reports another wallet's list as FORBIDDEN 403 and an unknown key as NOT_FOUND 404", async () => {
    const stranger = privateKeyToAccount(generatePrivateKey()).address;
    const forbidden = await rejection(keyport.keys.list.query({ wallet: stranger }));
    // tRPC's own error, as TanStack Query's hooks type it: the status is in `data`.
    expect(forbidden).toMatchObject({
      name: "TRPCClientError",
      data: { code: "FORBIDDEN", httpStatus: 403 },
    });
    expect(toKeyportError(forbidden)).toMatchObject({ name: "KeyportError", code: "FORBIDDEN", status: 403 });
    expect(await failure(keyport.keys.revoke.mutate({ id: "key_0000000000000000" }))).toMatchObject({
      code: "NOT_FOUND",
      status: 404,
    });
  });

  it("rejects a sign-in for another domain with UNAUTHORIZED 401 and keeps no token", async () => {
    const client = createKeyportClient({ url: server.trpcUrl });
    const other = privateKeyToAccount(generatePrivateKey());
    expect(
      await failure(client.signIn({ account: other }, { ...SIWE, domain: "evil.example" })),
    ).toMatchObject({
      code: "UNAUTHORIZED",
      status: 401,
    });
    expect(await failure(client.keys.list.query({ wallet: other.address }))).toMatchObject({ status: 401 });
  });

  it("reports an unreachable server as NETWORK_ERROR with status 0, and an aborted call as 499", async () => {
    const client = createKeyportClient({ url: "http://127.0.0.1:1/trpc" });
    expect(await failure(client.auth.nonce.mutate())).toMatchObject({ code: "NETWORK_ERROR", status: 0 });
    const aborted = new AbortController();
    aborted.abort();
    expect(await failure(keyport.auth.nonce.mutate(undefined, { signal: aborted.signal }))).toMatchObject({
      code: "CLIENT_CLOSED_REQUEST",
      status: 499,
    });
  });
});

describe("the parts of the client, used with tRPC's own createTRPCClient", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startKeyportServer();
  });
  afterAll(() => server.close());

  it("signs in with the standalone signIn, then acts with the token through keyportLinks", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const anonymous = createTRPCClient<AppRouter>({ links: keyportLinks({ url: server.trpcUrl }) });
    const session = await signIn(anonymous, { account }, SIWE);
    expect(session.wallet).toBe(account.address);
    // signIn returned the token and kept nothing: the anonymous client is still anonymous.
    expect(await failure(anonymous.keys.create.mutate({ name: "nope" }))).toMatchObject({ status: 401 });

    const signedIn = createTRPCClient<AppRouter>({
      links: keyportLinks({ url: server.trpcUrl, token: session.token }),
    });
    const created = await signedIn.keys.create.mutate({ name: "by-links" });
    expect(created.apiKey.createdAt).toBeInstanceOf(Date);
  });

  it("batches at most 10 calls a request, the server's limit", async () => {
    const bodies: number[] = [];
    const counting: typeof fetch = async (input, init) => {
      bodies.push(new URL(String(input)).pathname.split(",").length);
      return fetch(input, init);
    };
    const account = privateKeyToAccount(generatePrivateKey());
    const { token } = await signIn(createKeyportClient({ url: server.trpcUrl }), { account }, SIWE);
    const client = createTRPCClient<AppRouter>({
      links: keyportLinks({ url: server.trpcUrl, token, fetch: counting }),
    });
    const pages = await Promise.all(
      Array.from({ length: 23 }, () => client.keys.list.query({ wallet: account.address })),
    );
    expect(pages.map((page) => page.keys)).toEqual(Array.from({ length: 23 }, () => []));
    expect(bodies).toEqual([10, 10, 3]);
  });

  it("keeps createKeyportClient a plain tRPC client: tRPC's helpers find its untyped client", async () => {
    const keyport = createKeyportClient({ url: server.trpcUrl });
    const untyped = getUntypedClient(keyport);
    const answer = await untyped.mutation("auth.nonce", undefined);
    expect(answer).toMatchObject({ nonce: expect.any(String) });
  });
});
