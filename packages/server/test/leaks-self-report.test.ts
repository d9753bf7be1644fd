import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { afterAll, beforeAll, expect, it } from "vitest";
import { newKey } from "../src/keys/secret.js";
import { describeDatabases } from "./support/databases.js";
import { verifyOver } from "./support/keys.js";
import { createKeysFor } from "./support/leak-reports.js";
import { startTestServer, type TestServer } from "./support/server.js";

describeDatabases("self-reported leaks and TruffleHog verification", (target) => {
  let server: TestServer;
  let limited: TestServer;
  let wallet: string;
  let token: string;

  beforeAll(async () => {
    [server, limited] = await Promise.all([
      startTestServer(target),
      startTestServer(target, { NONCE_RATE_LIMIT: "3/60" }),
    ]);
    ({ wallet, token } = await signIn(server.baseUrl));
  });
  afterAll(() => Promise.all([server?.close(), limited?.close()]));

  const report = (key: unknown, on = server) =>
    request(on.baseUrl, "POST", "/api-keys/report-leak", { body: { key } });
  const headersOf = (headers: Headers) =>
    Object.fromEntries([...headers].filter(([name]) => !["date", "x-request-id"].includes(name)));

  it("revokes a real key and answers exactly as for a made-up or malformed one", async () => {
    const [key] = await createKeysFor(server.app, wallet, 1);
    if (key === undefined) throw new Error("no key");
    const answers = [await report(key.key), await report(newKey("kp").key), await report("not a key at all")];
    for (const answer of answers) {
      expect(answer.status).toBe(202);
      expect(answer.body).toEqual({ received: true });
      expect(headersOf(answer.headers)).toEqual(headersOf(answers[0]?.headers ?? new Headers()));
    }
    expect((await verifyOver(server.baseUrl, key.key)).code).toBe("REVOKED");
    const listed = await request(server.baseUrl, "GET", `/api-keys/${wallet}?status=revoked`, { token });
    const shown = (listed.body as { keys: Array<{ id: string; leak: unknown }> }).keys.find(
      (k) => k.id === key.id,
    );
    expect(shown?.leak).toEqual({ url: null, source: "self-report", reportedAt: expect.any(String) });
    const events = await request(server.baseUrl, "GET", `/api-keys/${wallet}/events?action=key.leaked`, {
      token,
    });
    expect((events.body as { events: unknown[] }).events).toEqual([
      expect.objectContaining({
        keyId: key.id,
        changes: { url: null, source: "self-report", revokedAt: expect.any(String) },
      }),
    ]);
    // Reported again: the same answer, no second event.
    expect((await report(key.key)).status).toBe(202);
    const again = await request(server.baseUrl, "GET", `/api-keys/${wallet}/events?action=key.leaked`, {
      token,
    });
    expect((again.body as { events: unknown[] }).events).toHaveLength(1);
  });

  it("answers 400 for a body without a string key, and 429 with Retry-After past NONCE_RATE_LIMIT per client", async () => {
    expect((await report(42)).status).toBe(400);
    expect((await report("")).status).toBe(400);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await report(newKey("kp").key, limited)).status);
    expect(statuses).toEqual([202, 202, 202, 429]);
    const refused = await report(newKey("kp").key, limited);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("TruffleHog: 429 with Retry-After past NONCE_RATE_LIMIT per client, on a budget apart from the self-report's", async () => {
    const [live] = await createKeysFor(limited.app, wallet, 1);
    if (live === undefined) throw new Error("no key");
    const lookup = () =>
      request(limited.baseUrl, "POST", "/leaks/trufflehog", {
        rawBody: JSON.stringify({ KeyportKey: { key: [live.key] } }),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await lookup()).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await lookup();
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: "TOO_MANY_REQUESTS" });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another client (named by the trusted proxy) has its own budget.
    const other = await request(limited.baseUrl, "POST", "/leaks/trufflehog", {
      rawBody: JSON.stringify({ KeyportKey: { key: [live.key] } }),
      headers: { "x-forwarded-for": "203.0.113.9" },
    });
    expect(other.status).toBe(200);
  });

  it("TruffleHog: 200 when any string of the body is a live key, whatever the names, else 403; revokes nothing", async () => {
    const [live, revoked] = await createKeysFor(server.app, wallet, 2);
    if (live === undefined || revoked === undefined) throw new Error("no keys");
    await report(revoked.key);
    const verifyWith = (body: unknown) =>
      request(server.baseUrl, "POST", "/leaks/trufflehog", { rawBody: JSON.stringify(body) });
    expect((await verifyWith({ KeyportKey: { key: ["nothing", live.key] } })).status).toBe(200);
    expect((await verifyWith({ Mine: { a: ["x"], b: [{ deep: [live.key] }] } })).status).toBe(200);
    for (const body of [
      { KeyportKey: { key: [revoked.key] } },
      { KeyportKey: { key: [newKey("kp").key] } },
      {},
      "str",
    ]) {
      expect((await verifyWith(body)).status).toBe(403);
    }
    expect(
      (await request(server.baseUrl, "POST", "/leaks/trufflehog", { rawBody: "{not json" })).status,
    ).toBe(400);
    expect((await verifyOver(server.baseUrl, live.key)).code).toBe("VALID");
  });
});
