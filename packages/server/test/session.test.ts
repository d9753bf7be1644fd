import { useMovableDate } from "@keyport/test-support/clock";
import { request } from "@keyport/test-support/http";
import { buildSiweMessage, fetchNonce, newAccount, postVerify, signIn } from "@keyport/test-support/siwe";
import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import superjson from "superjson";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { AppRouter } from "../src/index.js";
import { describeDatabases } from "./support/databases.js";
import { startTestServer, type TestServer } from "./support/server.js";

const TEN_MINUTES = 10 * 60_000;

function clientFor(baseUrl: string, token: string) {
  return createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: `${baseUrl}/trpc`,
        transformer: superjson,
        headers: { authorization: `Bearer ${token}` },
      }),
    ],
  });
}

/** Signs in with a message carrying `expirationTime`; returns the verify answer. */
async function signInUntil(baseUrl: string, expirationTime: Date) {
  const account = newAccount();
  const message = buildSiweMessage(account, await fetchNonce(baseUrl), { expirationTime });
  const { status, body } = await postVerify(baseUrl, account, message);
  expect(status).toBe(200);
  const answer = body as { token: string; wallet: string; expiresAt: string };
  return { ...answer, wallet: account.address };
}

describeDatabases("the current session (auth.session)", (target) => {
  const clock = useMovableDate();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(target, { SESSION_TTL_SECONDS: "3600" });
  });
  afterAll(() => server.close());

  it("answers GET /auth/session with the token's wallet and the end sign-in announced", async () => {
    const account = newAccount();
    const message = buildSiweMessage(account, await fetchNonce(server.baseUrl));
    const verified = (await postVerify(server.baseUrl, account, message)).body as {
      expiresAt: string;
      token: string;
    };
    const { status, body, headers } = await request(server.baseUrl, "GET", "/auth/session", {
      token: verified.token,
    });
    expect(status).toBe(200);
    expect(headers.get("content-type")).toMatch(/^application\/json/);
    expect(body).toEqual({ wallet: account.address, expiresAt: verified.expiresAt, operator: false });
  });

  it("answers auth.session over tRPC with expiresAt as a Date", async () => {
    const { token, wallet } = await signIn(server.baseUrl);
    const session = await clientFor(server.baseUrl, token).auth.session.query();
    expect(session.wallet).toBe(wallet);
    expect(session.expiresAt).toBeInstanceOf(Date);
    expect(session.expiresAt.getTime() - Date.now()).toBeGreaterThan(3_500_000);
  });

  it("answers 401 without a token, with an unknown one, and after logout", async () => {
    const { token } = await signIn(server.baseUrl);
    expect(await request(server.baseUrl, "GET", "/auth/session")).toMatchObject({
      status: 401,
      body: { code: "UNAUTHORIZED", message: expect.any(String) },
    });
    const unknown = await request(server.baseUrl, "GET", "/auth/session", { token: "kps_unknown" });
    expect(unknown.status).toBe(401);
    expect((await request(server.baseUrl, "POST", "/auth/logout", { token })).status).toBe(200);
    expect((await request(server.baseUrl, "GET", "/auth/session", { token })).status).toBe(401);
    const error = await clientFor(server.baseUrl, token)
      .auth.session.query()
      .catch((cause: unknown) => cause);
    expect(error).toBeInstanceOf(TRPCClientError);
    expect(error).toMatchObject({ data: { code: "UNAUTHORIZED", httpStatus: 401 } });
  });

  it("ends a session at the SIWE message's expiration time when that comes before SESSION_TTL_SECONDS", async () => {
    const expirationTime = new Date(Date.now() + TEN_MINUTES);
    const { token, wallet, expiresAt } = await signInUntil(server.baseUrl, expirationTime);
    expect(expiresAt).toBe(expirationTime.toISOString());
    const session = await request(server.baseUrl, "GET", "/auth/session", { token });
    expect(session.body).toEqual({ wallet, expiresAt: expirationTime.toISOString(), operator: false });

    clock.advance(expirationTime.getTime() - Date.now() - 1_000);
    expect((await request(server.baseUrl, "GET", `/api-keys/${wallet}`, { token })).status).toBe(200);
    clock.advance(1_001);
    expect((await request(server.baseUrl, "GET", `/api-keys/${wallet}`, { token })).status).toBe(401);
    expect((await request(server.baseUrl, "GET", "/auth/session", { token })).status).toBe(401);
  });

  it("keeps SESSION_TTL_SECONDS when the message expires later", async () => {
    const before = Date.now();
    const { expiresAt } = await signInUntil(server.baseUrl, new Date(Date.now() + 2 * 3_600_000));
    expect(Date.parse(expiresAt)).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(Date.parse(expiresAt)).toBeLessThanOrEqual(Date.now() + 3_600_000);
  });
});
