import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDatabases } from "./support/databases.js";
import { trpcClient } from "./support/keys.js";
import { startTestServer, type TestServer } from "./support/server.js";

type Limit = { limit: number; windowSeconds: number } | null;
const list = (limit: Limit) => (limit === null ? [] : [{ name: "default", ...limit, autoApply: true }]);
/** A limits.updated event's changes when the wallet's only limit went from `before` to `now`. */
const change = (now: Limit, before: Limit) => ({
  rateLimit: now,
  previousRateLimit: before,
  rateLimits: list(now),
  previousRateLimits: list(before),
});

interface EventBody {
  action: string;
  keyId: string | null;
  changes: Record<string, unknown>;
}

type Session = { token: string; wallet: string };

describeDatabases("wallet-limit changes in the audit trail", (target) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(target);
  });
  afterAll(() => server.close());

  async function putLimit(session: Session, wallet: string, rateLimit: unknown) {
    return request(server.baseUrl, "PUT", `/api-keys/${wallet}/limits`, {
      token: session.token,
      body: { rateLimit },
    });
  }

  async function limitEvents(session: Session): Promise<EventBody[]> {
    const { status, body } = await request(
      server.baseUrl,
      "GET",
      `/api-keys/${session.wallet}/events?action=limits.updated`,
      { token: session.token },
    );
    expect(status, JSON.stringify(body)).toBe(200);
    return (body as { events: EventBody[] }).events;
  }

  it("records one limits.updated per set, change and removal over REST, with the limit before and after", async () => {
    const session = await signIn(server.baseUrl);
    expect((await putLimit(session, session.wallet, { limit: 100, windowSeconds: 60 })).status).toBe(200);
    expect((await putLimit(session, session.wallet, { limit: 200, windowSeconds: 60 })).status).toBe(200);
    expect((await putLimit(session, session.wallet, null)).status).toBe(200);

    const events = await limitEvents(session);
    expect(events.map((event) => [event.keyId, event.changes])).toEqual([
      [null, change(null, { limit: 200, windowSeconds: 60 })],
      [null, change({ limit: 200, windowSeconds: 60 }, { limit: 100, windowSeconds: 60 })],
      [null, change({ limit: 100, windowSeconds: 60 }, null)],
    ]);
  });

  it("records nothing for a PUT that changes nothing", async () => {
    const session = await signIn(server.baseUrl);
    expect((await putLimit(session, session.wallet, null)).status).toBe(200);
    expect(await limitEvents(session)).toEqual([]);
    expect((await putLimit(session, session.wallet, { limit: 5, windowSeconds: 10 })).status).toBe(200);
    expect((await putLimit(session, session.wallet, { limit: 5, windowSeconds: 10 })).status).toBe(200);
    expect(await limitEvents(session)).toHaveLength(1);
  });

  it("records the same events for limits.set over tRPC", async () => {
    const session = await signIn(server.baseUrl);
    const client = trpcClient(server.baseUrl, session.token);
    await client.limits.set.mutate({ wallet: session.wallet, rateLimit: { limit: 10, windowSeconds: 1 } });
    await client.limits.set.mutate({ wallet: session.wallet, rateLimit: { limit: 10, windowSeconds: 5 } });
    await client.limits.set.mutate({ wallet: session.wallet, rateLimit: null });

    const { events } = await client.events.list.query({ wallet: session.wallet, action: "limits.updated" });
    expect(events.map((event) => [event.action, event.keyId, event.changes])).toEqual([
      ["limits.updated", null, change(null, { limit: 10, windowSeconds: 5 })],
      ["limits.updated", null, change({ limit: 10, windowSeconds: 5 }, { limit: 10, windowSeconds: 1 })],
      ["limits.updated", null, change({ limit: 10, windowSeconds: 1 }, null)],
    ]);
  });

  it("keeps each wallet's limit changes in its own trail; another wallet's PUT is 403 and records nothing", async () => {
    const owner = await signIn(server.baseUrl);
    const other = await signIn(server.baseUrl);
    expect((await putLimit(owner, owner.wallet, { limit: 7, windowSeconds: 60 })).status).toBe(200);
    expect((await putLimit(other, owner.wallet, { limit: 1, windowSeconds: 60 })).status).toBe(403);

    expect((await limitEvents(owner)).map((event) => event.changes)).toEqual([
      change({ limit: 7, windowSeconds: 60 }, null),
    ]);
    expect(await limitEvents(other)).toEqual([]);
  });
});
