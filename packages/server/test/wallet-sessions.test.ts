import { useMovableDate } from "@keyport/test-support/clock";
import { request } from "@keyport/test-support/http";
import { buildSiweMessage, fetchNonce, newAccount, signIn } from "@keyport/test-support/siwe";
import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import superjson from "superjson";
import type { PrivateKeyAccount } from "viem";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { AppRouter } from "../src/index.js";
import { hashKey } from "../src/keys/secret.js";
import { describeDatabases } from "./support/databases.js";
import { startTestServer, type TestServer } from "./support/server.js";

// A wallet's sessions (docs/api.md#sessions): listed with a public id, ended one at a time or all but
// the caller's, each refused at once on every instance as a sign-out is.

const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

interface ListedSession {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  userAgent: string | null;
  ip: string | null;
  current: boolean;
}

/** Signs `account` in with the given browser headers (the loopback peer is a trusted proxy by default). */
async function signInFrom(baseUrl: string, account: PrivateKeyAccount, headers: Record<string, string>) {
  const message = buildSiweMessage(account, await fetchNonce(baseUrl));
  const signature = await account.signMessage({ message });
  const answer = await request(baseUrl, "POST", "/auth/verify", { body: { message, signature }, headers });
  expect(answer.status).toBe(200);
  const body = answer.body as { token: string };
  return body.token;
}

function trpc(baseUrl: string, token: string) {
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

describeDatabases("a wallet's sessions", (target) => {
  const clock = useMovableDate();
  let first: TestServer;
  let second: TestServer;

  beforeAll(async () => {
    first = await startTestServer(target);
    second = await startTestServer(target);
  });
  afterAll(async () => {
    await first.close();
    await second.close();
  });

  const list = async (server: TestServer, token: string) => {
    const answer = await request(server.baseUrl, "GET", "/auth/sessions", { token });
    expect(answer.status).toBe(200);
    return (answer.body as { sessions: ListedSession[] }).sessions;
  };
  const sessionStatus = (server: TestServer, token: string) =>
    request(server.baseUrl, "GET", "/auth/session", { token }).then((answer) => answer.status);

  it("lists only the wallet's live sessions, newest first, the caller's marked, never a token or hash", async () => {
    const account = newAccount();
    const older = await signInFrom(first.baseUrl, account, {
      "user-agent": FIREFOX,
      "x-forwarded-for": "203.0.113.7",
    });
    const newer = await signInFrom(second.baseUrl, account, { "user-agent": "curl/8.5.0" });
    const other = await signIn(first.baseUrl);

    const answer = await request(first.baseUrl, "GET", "/auth/sessions", { token: older });
    expect(answer.status).toBe(200);
    const { sessions } = answer.body as { sessions: ListedSession[] };
    expect(sessions).toEqual([
      {
        id: expect.stringMatching(/^ses_[0-9A-Za-z]{22}$/),
        createdAt: expect.any(String),
        lastSeenAt: expect.any(String),
        expiresAt: expect.any(String),
        userAgent: "curl/8.5.0",
        ip: "127.0.0.1",
        current: false,
      },
      {
        id: expect.stringMatching(/^ses_[0-9A-Za-z]{22}$/),
        createdAt: expect.any(String),
        lastSeenAt: expect.any(String),
        expiresAt: expect.any(String),
        userAgent: FIREFOX,
        ip: "203.0.113.7",
        current: true,
      },
    ]);
    const text = JSON.stringify(answer.body);
    for (const token of [older, newer, other.token]) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(hashKey(token));
    }
    // Another wallet sees only its own.
    expect((await list(second, other.token)).map((session) => session.current)).toEqual([true]);
  });

  it("keeps at most 256 characters of a User-Agent, and null when none was sent", async () => {
    const account = newAccount();
    const long = await signInFrom(first.baseUrl, account, { "user-agent": `Agent/${"x".repeat(1_000)}` });
    const [session] = await list(first, long);
    expect(session?.userAgent).toHaveLength(256);
    // undici sends its own User-Agent unless told otherwise: an empty one counts as none.
    const none = await signInFrom(first.baseUrl, newAccount(), { "user-agent": "" });
    expect((await list(first, none))[0]?.userAgent).toBeNull();
  });

  it("writes lastSeenAt at most once a minute a session, whichever instance answers", async () => {
    const token = await signInFrom(first.baseUrl, newAccount(), {});
    const [signedIn] = await list(first, token);
    const seenAt = signedIn?.lastSeenAt;
    expect(seenAt).toBe(signedIn?.createdAt);

    clock.advance(30_000);
    for (let i = 0; i < 5; i++) expect(await sessionStatus(i % 2 === 0 ? first : second, token)).toBe(200);
    expect((await list(second, token))[0]?.lastSeenAt).toBe(seenAt);

    clock.advance(31_000);
    const before = Date.now();
    expect(await sessionStatus(second, token)).toBe(200);
    const written = (await list(first, token))[0]?.lastSeenAt ?? "";
    expect(Date.parse(written)).toBeGreaterThanOrEqual(before);

    // A minute has not passed since that write: neither instance writes again.
    clock.advance(50_000);
    for (const server of [first, second, first]) expect(await sessionStatus(server, token)).toBe(200);
    expect((await list(second, token))[0]?.lastSeenAt).toBe(written);
  });

  it("ends one session by its id: its token is refused at once on every instance", async () => {
    const account = newAccount();
    const mine = await signInFrom(first.baseUrl, account, {});
    const doomed = await signInFrom(first.baseUrl, account, {});
    expect(await sessionStatus(first, doomed)).toBe(200);
    expect(await sessionStatus(second, doomed)).toBe(200);
    const target = (await list(first, mine)).find((session) => !session.current);
    if (target === undefined) throw new Error("the second session is not listed");

    const ended = await request(second.baseUrl, "DELETE", `/auth/sessions/${target.id}`, { token: mine });
    expect(ended).toMatchObject({ status: 200, body: { ok: true } });
    expect(await sessionStatus(first, doomed)).toBe(401);
    expect(await sessionStatus(second, doomed)).toBe(401);
    expect(await sessionStatus(first, mine)).toBe(200);
    expect((await list(first, mine)).map((session) => session.current)).toEqual([true]);
    // Ended already: gone from the list, and 404.
    const again = await request(first.baseUrl, "DELETE", `/auth/sessions/${target.id}`, { token: mine });
    expect(again).toMatchObject({ status: 404, body: { code: "NOT_FOUND", message: "No such session" } });
  });

  it("answers 404 for another wallet's session id, exactly as for an unknown one, and leaves it live", async () => {
    const mine = await signInFrom(first.baseUrl, newAccount(), {});
    const theirs = await signIn(first.baseUrl);
    const [theirSession] = await list(first, theirs.token);
    const id = theirSession?.id ?? "";
    const foreign = await request(first.baseUrl, "DELETE", `/auth/sessions/${id}`, { token: mine });
    const unknown = await request(first.baseUrl, "DELETE", "/auth/sessions/ses_0000000000000000000000", {
      token: mine,
    });
    expect(foreign).toMatchObject({ status: 404, body: { code: "NOT_FOUND", message: "No such session" } });
    expect(unknown.body).toEqual(foreign.body);
    expect(await sessionStatus(second, theirs.token)).toBe(200);
    const malformed = await request(first.baseUrl, "DELETE", "/auth/sessions/kps_token", { token: mine });
    expect(malformed).toMatchObject({ status: 400, body: { code: "BAD_REQUEST" } });
    const anonymous = await request(first.baseUrl, "DELETE", `/auth/sessions/${id}`);
    expect(anonymous.status).toBe(401);
  });

  it("ends the caller's own session by its id as a sign-out does", async () => {
    const token = await signInFrom(first.baseUrl, newAccount(), {});
    const [own] = await list(first, token);
    expect(own?.current).toBe(true);
    const ended = await request(first.baseUrl, "DELETE", `/auth/sessions/${own?.id}`, { token });
    expect(ended.status).toBe(200);
    expect(await sessionStatus(first, token)).toBe(401);
    expect(await sessionStatus(second, token)).toBe(401);
  });

  it("logout-others ends every other session of the wallet, keeps the caller's and other wallets'", async () => {
    const account = newAccount();
    const keep = await signInFrom(first.baseUrl, account, {});
    const others = [
      await signInFrom(first.baseUrl, account, {}),
      await signInFrom(second.baseUrl, account, {}),
    ];
    const stranger = await signIn(second.baseUrl);
    for (const token of others) expect(await sessionStatus(second, token)).toBe(200);

    const answer = await request(second.baseUrl, "POST", "/auth/logout-others", { token: keep });
    expect(answer).toMatchObject({ status: 200, body: { ended: 2 } });
    for (const token of others) {
      expect(await sessionStatus(first, token)).toBe(401);
      expect(await sessionStatus(second, token)).toBe(401);
    }
    expect(await sessionStatus(first, keep)).toBe(200);
    expect(await sessionStatus(first, stranger.token)).toBe(200);
    expect((await list(first, keep)).length).toBe(1);
    const again = await request(first.baseUrl, "POST", "/auth/logout-others", { token: keep });
    expect(again).toMatchObject({ status: 200, body: { ended: 0 } });

    // Each ended session is in the audit trail as a sign-out is.
    const events = await request(
      first.baseUrl,
      "GET",
      `/api-keys/${account.address}/events?action=session.ended`,
      {
        token: keep,
      },
    );
    expect((events.body as { events: unknown[] }).events).toHaveLength(2);
  });

  it("serves the same over tRPC, times as Dates", async () => {
    const account = newAccount();
    const token = await signInFrom(first.baseUrl, account, {});
    const otherToken = await signInFrom(first.baseUrl, account, {});
    const client = trpc(first.baseUrl, token);
    const { sessions } = await client.auth.sessions.query();
    expect(sessions).toHaveLength(2);
    expect(sessions[0]?.createdAt).toBeInstanceOf(Date);
    const other = sessions.find((session) => !session.current);
    expect(await client.auth.endSession.mutate({ id: other?.id ?? "" })).toEqual({ ok: true });
    expect(await sessionStatus(second, otherToken)).toBe(401);
    const missing = await client.auth.endSession
      .mutate({ id: other?.id ?? "" })
      .catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(TRPCClientError);
    expect(missing).toMatchObject({ data: { code: "NOT_FOUND", httpStatus: 404 } });
    expect(await client.auth.endOtherSessions.mutate()).toEqual({ ended: 0 });
  });
});
