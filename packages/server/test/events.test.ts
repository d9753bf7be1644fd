import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { apiKeys, keyEvents, sessions } from "../src/db/schema/index.js";
import { hashKey } from "../src/keys/secret.js";
import { describeDatabases } from "./support/databases.js";
import { createKeyOver, trpcClient } from "./support/keys.js";
import { startTestServer, type TestServer } from "./support/server.js";

interface EventBody {
  id: string;
  action: string;
  keyId: string | null;
  at: string;
  changes: Record<string, unknown>;
}
interface EventsPage {
  events: EventBody[];
  nextCursor: string | null;
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describeDatabases("audit events", (target) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(target);
  });
  afterAll(() => server.close());

  async function listEvents(wallet: string, token: string, query = ""): Promise<EventsPage> {
    const { status, body } = await request(server.baseUrl, "GET", `/api-keys/${wallet}/events${query}`, {
      token,
    });
    expect(status, JSON.stringify(body)).toBe(200);
    return body as EventsPage;
  }

  /** Every page with `limit`, following nextCursor; `between` runs after each page. */
  async function allPages(wallet: string, token: string, limit: number, between?: () => Promise<void>) {
    const events: EventBody[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `?limit=${limit}${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`;
      const page = await listEvents(wallet, token, query);
      expect(page.events.length).toBeLessThanOrEqual(limit);
      events.push(...page.events);
      cursor = page.nextCursor;
      pages++;
      await between?.();
    } while (cursor !== null && pages < 50);
    return { events, pages };
  }

  it("records every action with its public fields, newest first, and never a secret", async () => {
    const session = await signIn(server.baseUrl);
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const created = await createKeyOver(server.baseUrl, session.token, {
      name: "prod",
      expiresAt,
      rateLimit: { limit: 100, windowSeconds: 60 },
    });
    const rollResponse = await request(server.baseUrl, "POST", `/api-keys/${created.apiKey.id}/roll`, {
      token: session.token,
      body: { gracePeriodSeconds: 60 },
    });
    expect(rollResponse.status).toBe(201);
    const rolled = rollResponse.body as {
      key: string;
      apiKey: { id: string };
      previous: { revokedAt: string };
    };
    const revoke = () =>
      request(server.baseUrl, "DELETE", `/api-keys/${rolled.apiKey.id}`, { token: session.token });
    const revoked = await revoke();
    expect(revoked.status).toBe(200);
    expect((await revoke()).status).toBe(200); // idempotent: records nothing more
    const logout = await request(server.baseUrl, "POST", "/auth/logout", { token: session.token });
    expect(logout.status).toBe(200);

    const reader = await signIn(server.baseUrl, session.account);
    const page = await listEvents(session.wallet, reader.token);
    expect(page.nextCursor).toBeNull();
    expect(page.events.map((event) => event.action)).toEqual([
      "session.created", // the reader's sign-in
      "session.ended",
      "key.revoked",
      "key.rolled",
      "key.created",
      "session.created",
    ]);
    const [readerSignIn, signOut, revokedEvent, rolledEvent, createdEvent, signInEvent] = page.events;
    expect(createdEvent).toEqual({
      id: expect.stringMatching(/^[1-9][0-9]*$/),
      action: "key.created",
      keyId: created.apiKey.id,
      at: expect.stringMatching(ISO),
      changes: {
        name: "prod",
        expiresAt,
        rateLimit: { limit: 100, windowSeconds: 60 },
        rateLimits: [{ name: "default", limit: 100, windowSeconds: 60, autoApply: true }],
        permissions: [],
        credits: null,
        meta: null,
        allowedIps: null,
      },
    });
    expect(rolledEvent).toMatchObject({
      keyId: created.apiKey.id,
      changes: { rolledTo: rolled.apiKey.id, revokedAt: rolled.previous.revokedAt, gracePeriodSeconds: 60 },
    });
    expect(revokedEvent).toMatchObject({
      keyId: rolled.apiKey.id,
      changes: { revokedAt: (revoked.body as { apiKey: { revokedAt: string } }).apiKey.revokedAt },
    });
    expect(signOut).toMatchObject({ keyId: null, changes: {} });
    expect(signInEvent).toMatchObject({ keyId: null, changes: { expiresAt: expect.stringMatching(ISO) } });
    expect(readerSignIn?.keyId).toBeNull();
    // Strictly newer events have larger ids and never an earlier time.
    const ids = page.events.map((event) => Number(event.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const times = page.events.map((event) => Date.parse(event.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    // No secret, hash or token in the answer nor in the stored rows.
    const stored = await target.database.db
      .select()
      .from(keyEvents)
      .where(eq(keyEvents.wallet, session.wallet));
    const [keyRow] = await target.database.db.select().from(apiKeys).where(eq(apiKeys.id, created.apiKey.id));
    const secrets = [
      created.key,
      rolled.key,
      hashKey(created.key),
      hashKey(rolled.key),
      keyRow?.hash ?? "missing",
      session.token,
      reader.token,
      hashKey(session.token),
      hashKey(reader.token),
    ];
    for (const text of [JSON.stringify(page), JSON.stringify(stored)]) {
      for (const secret of secrets) expect(text).not.toContain(secret);
      expect(text).not.toMatch(/signature|Sign in to Keyport|kp_[0-9A-Za-z]{10}|kps_/);
    }
  });

  it("pages newest first with no duplicate and no gap, also while new events arrive", async () => {
    const session = await signIn(server.baseUrl);
    for (let i = 0; i < 7; i++) await createKeyOver(server.baseUrl, session.token, { name: `key ${i}` });
    const everything = await listEvents(session.wallet, session.token, "?limit=100");
    expect(everything.events).toHaveLength(8); // 7 creations and the sign-in

    const quiet = await allPages(session.wallet, session.token, 3);
    expect(quiet.pages).toBe(3);
    expect(quiet.events).toEqual(everything.events);

    // Events recorded between pages are newer than the cursor: later pages neither repeat nor skip.
    const busy = await allPages(session.wallet, session.token, 2, async () => {
      await createKeyOver(server.baseUrl, session.token, { name: "meanwhile" });
    });
    expect(busy.events).toEqual(everything.events);
    expect(new Set(busy.events.map((event) => event.id)).size).toBe(busy.events.length);

    // A page holding exactly the remaining events is the last one: no empty page follows.
    const total = (await listEvents(session.wallet, session.token, "?limit=100")).events.length;
    const exact = await listEvents(session.wallet, session.token, `?limit=${total}`);
    expect(exact.events).toHaveLength(total);
    expect(exact.nextCursor).toBeNull();
  });

  it("serves events.list over tRPC with Dates and the same pages", async () => {
    const session = await signIn(server.baseUrl);
    await createKeyOver(server.baseUrl, session.token, { name: "over trpc" });
    const client = trpcClient(server.baseUrl, session.token);
    const first = await client.events.list.query({ wallet: session.wallet.toLowerCase(), limit: 1 });
    expect(first.events[0]?.action).toBe("key.created");
    expect(first.events[0]?.at).toBeInstanceOf(Date);
    expect(first.nextCursor).not.toBeNull();
    const second = await client.events.list.query({
      wallet: session.wallet,
      limit: 1,
      cursor: first.nextCursor ?? undefined,
    });
    expect(second.events.map((event) => event.action)).toEqual(["session.created"]);
    expect(second.nextCursor).toBeNull();
  });

  it("lets only the wallet itself read its events: 401 without a session, 403 for another wallet", async () => {
    const owner = await signIn(server.baseUrl);
    const intruder = await signIn(server.baseUrl);
    const path = `/api-keys/${owner.wallet}/events`;
    const anonymous = await request(server.baseUrl, "GET", path);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ code: "UNAUTHORIZED" });
    const other = await request(server.baseUrl, "GET", path, { token: intruder.token });
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject({ code: "FORBIDDEN" });
    expect(JSON.stringify(other.body)).not.toContain("session.created");
  });

  it("is in the OpenAPI document with its statuses and the KeyEvent schema", async () => {
    const { status, body } = await request(server.baseUrl, "GET", "/openapi.json");
    expect(status).toBe(200);
    const document = body as {
      paths: Record<string, { get?: { responses: Record<string, unknown>; description: string } }>;
      components: { schemas: Record<string, unknown> };
    };
    const operation = document.paths["/api-keys/{wallet}/events"]?.get;
    expect(Object.keys(operation?.responses ?? {}).sort()).toEqual([
      "200",
      "400",
      "401",
      "403",
      "500",
      "503",
    ]);
    expect(operation?.description).toContain("never a secret");
    expect(document.components.schemas.KeyEvent).toBeDefined();
  });

  it("refuses a bad limit or cursor with 400", async () => {
    const session = await signIn(server.baseUrl);
    const keyListCursor = Buffer.from(
      JSON.stringify([new Date().toISOString(), "key_0123456789abcdef"]),
    ).toString("base64url");
    const queries = [
      "?limit=0",
      "?limit=101",
      "?limit=2.5",
      "?limit=abc",
      "?cursor=not-a-cursor",
      `?cursor=${Buffer.from("e:0").toString("base64url")}`,
      `?cursor=${Buffer.from("e:99999999999999999").toString("base64url")}`,
      `?cursor=${keyListCursor}`,
      `?cursor=${"a".repeat(201)}`,
    ];
    for (const query of queries) {
      const { status, body } = await request(
        server.baseUrl,
        "GET",
        `/api-keys/${session.wallet}/events${query}`,
        { token: session.token },
      );
      expect(status, query).toBe(400);
      expect(body, query).toMatchObject({ code: "BAD_REQUEST" });
    }
    const badWallet = await request(server.baseUrl, "GET", "/api-keys/0x1234/events", {
      token: session.token,
    });
    expect(badWallet.status).toBe(400);
  });

  it("records nothing for a refused change", async () => {
    const owner = await signIn(server.baseUrl);
    const other = await signIn(server.baseUrl);
    const { apiKey } = await createKeyOver(server.baseUrl, owner.token, { name: "owned" });
    // Another wallet's key is 404 to revoke or roll, and leaves no trace in either wallet's trail.
    expect(
      (await request(server.baseUrl, "DELETE", `/api-keys/${apiKey.id}`, { token: other.token })).status,
    ).toBe(404);
    const refusedRoll = await request(server.baseUrl, "POST", `/api-keys/${apiKey.id}/roll`, {
      token: other.token,
      body: {},
    });
    expect(refusedRoll.status).toBe(404);
    const past = await request(server.baseUrl, "POST", "/api-keys", {
      token: owner.token,
      body: { name: "past", expiresAt: "2020-01-01T00:00:00Z" },
    });
    expect(past.status).toBe(400);
    const ownerEvents = await listEvents(owner.wallet, owner.token);
    expect(ownerEvents.events.map((event) => event.action)).toEqual(["key.created", "session.created"]);
    const otherEvents = await listEvents(other.wallet, other.token);
    expect(otherEvents.events.map((event) => event.action)).toEqual(["session.created"]);
  });

  it("filters by key and by action, and pages a filtered list with the same filters", async () => {
    const session = await signIn(server.baseUrl);
    const first = await createKeyOver(server.baseUrl, session.token, { name: "first" });
    const second = await createKeyOver(server.baseUrl, session.token, { name: "second" });
    for (const id of [first.apiKey.id, second.apiKey.id]) {
      const revoked = await request(server.baseUrl, "DELETE", `/api-keys/${id}`, { token: session.token });
      expect(revoked.status).toBe(200);
    }

    const ofFirst = await listEvents(session.wallet, session.token, `?keyId=${first.apiKey.id}`);
    expect(ofFirst.events.map((event) => event.action)).toEqual(["key.revoked", "key.created"]);
    expect(ofFirst.events.every((event) => event.keyId === first.apiKey.id)).toBe(true);

    const revocations = await listEvents(session.wallet, session.token, "?action=key.revoked");
    expect(revocations.events.map((event) => event.keyId)).toEqual([second.apiKey.id, first.apiKey.id]);

    const both = await listEvents(
      session.wallet,
      session.token,
      `?keyId=${second.apiKey.id}&action=key.created`,
    );
    expect(both.events.map((event) => [event.action, event.keyId])).toEqual([
      ["key.created", second.apiKey.id],
    ]);

    const pageOne = await listEvents(session.wallet, session.token, "?action=key.created&limit=1");
    expect(pageOne.events.map((event) => event.keyId)).toEqual([second.apiKey.id]);
    const pageTwo = await listEvents(
      session.wallet,
      session.token,
      `?action=key.created&limit=1&cursor=${encodeURIComponent(pageOne.nextCursor ?? "")}`,
    );
    expect(pageTwo.events.map((event) => event.keyId)).toEqual([first.apiKey.id]);

    const unknown = await request(
      server.baseUrl,
      "GET",
      `/api-keys/${session.wallet}/events?action=key.eaten`,
      {
        token: session.token,
      },
    );
    expect(unknown.status).toBe(400);
  });
});

describeDatabases("audit events at the active-key cap", (target) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(target, { MAX_ACTIVE_KEYS_PER_WALLET: "3" });
  });
  afterAll(() => server.close());

  it("records one key.created per key that went in, none for a create or roll refused at the cap", async () => {
    const session = await signIn(server.baseUrl);
    const attempts = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        request(server.baseUrl, "POST", "/api-keys", { token: session.token, body: { name: `race ${i}` } }),
      ),
    );
    const statuses = attempts.map((attempt) => attempt.status).sort();
    expect(statuses).toEqual([...Array(3).fill(201), ...Array(9).fill(409)]);
    const createdIds = attempts
      .filter((attempt) => attempt.status === 201)
      .map((attempt) => (attempt.body as { apiKey: { id: string } }).apiKey.id)
      .sort();

    const first = createdIds[0] ?? "missing";
    const roll = await request(server.baseUrl, "POST", `/api-keys/${first}/roll`, {
      token: session.token,
      body: { gracePeriodSeconds: 60 },
    });
    expect(roll.status).toBe(409);

    const stored = await target.database.db
      .select()
      .from(keyEvents)
      .where(eq(keyEvents.wallet, session.wallet));
    expect(
      stored
        .filter((event) => event.action === "key.created")
        .map((event) => event.keyId)
        .sort(),
    ).toEqual(createdIds);
    expect(stored).toHaveLength(4); // and the sign-in
    const keys = await target.database.db.select().from(apiKeys).where(eq(apiKeys.wallet, session.wallet));
    expect(keys).toHaveLength(3);
  });

  it("ends a session once: a second sign-out of the same token records nothing", async () => {
    const session = await signIn(server.baseUrl);
    const [first, second] = await Promise.all([
      request(server.baseUrl, "POST", "/auth/logout", { token: session.token }),
      request(server.baseUrl, "POST", "/auth/logout", { token: session.token }),
    ]);
    // Both may pass the session check before either ends it; only one of them ends it.
    expect([first?.status, second?.status].every((status) => status === 200 || status === 401)).toBe(true);
    const ended = await target.database.db
      .select()
      .from(keyEvents)
      .where(eq(keyEvents.wallet, session.wallet));
    expect(ended.map((event) => event.action).sort()).toEqual(["session.created", "session.ended"]);
    const [row] = await target.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, hashKey(session.token)));
    expect(row?.revokedAt).toBeInstanceOf(Date);
  });
});
