import { randomBytes } from "node:crypto";
import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { webhookDeliveries, webhookMessages, webhooks } from "../src/db/schema/index.js";
import { WEBHOOK_EVENT_TYPES } from "../src/schemas/webhook.js";
import { createExpiryEvents } from "../src/webhooks/expiry-events.js";
import { encryptSecret, newWebhookSecret } from "../src/webhooks/secret.js";
import { describeDatabases } from "./support/databases.js";
import { type CreatedKey, createKeyOver } from "./support/keys.js";
import { startTestServer, type TestServer } from "./support/server.js";
import { pollFor, startWebhookReceiver } from "./support/webhook-receiver.js";
import { TEST_WEBHOOKS_KEY } from "./support/webhooks-key.js";

const KEY = Buffer.from(TEST_WEBHOOKS_KEY, "base64");

type Session = { token: string; wallet: string };

interface Payload {
  type: string;
  timestamp: string;
  data: { key?: { id: string; [field: string]: unknown }; changes?: Record<string, unknown> };
}

const DAY = 86_400_000;

describeDatabases("webhook events from key changes", (target) => {
  let server: TestServer;
  const db = () => target.database.db;

  beforeAll(async () => {
    server = await startTestServer(target, { MAX_ACTIVE_KEYS_PER_WALLET: "3" });
  });
  afterAll(() => server.close());

  /** An endpoint row of `wallet` subscribed to `events` (all by default); only the outbox is read. */
  async function addEndpoint(
    wallet: string,
    events: readonly string[] = WEBHOOK_EVENT_TYPES,
    enabled = true,
  ) {
    const id = `wh_${randomBytes(11).toString("hex").slice(0, 22)}`;
    await db()
      .insert(webhooks)
      // A loopback URL the server (without WEBHOOKS_ALLOW_PRIVATE) refuses to send to: only the outbox is read.
      .values({
        id,
        wallet,
        url: "https://127.0.0.1:9/hook",
        events: [...events],
        enabled,
        secret: encryptSecret(KEY, newWebhookSecret()),
      });
    return id;
  }

  async function subscribed(events?: readonly string[]): Promise<Session> {
    const session = await signIn(server.baseUrl);
    await addEndpoint(session.wallet, events);
    return session;
  }

  async function messagesOf(wallet: string, type?: string) {
    const rows = await db()
      .select()
      .from(webhookMessages)
      .where(
        type === undefined
          ? eq(webhookMessages.wallet, wallet)
          : and(eq(webhookMessages.wallet, wallet), eq(webhookMessages.type, type)),
      )
      .orderBy(asc(webhookMessages.id));
    return rows.map((row) => ({ ...row, payload: row.payload as Payload }));
  }

  async function deliveriesOf(messageId: string) {
    return db().select().from(webhookDeliveries).where(eq(webhookDeliveries.messageId, messageId));
  }

  /** The key as GET /api-keys/:wallet shows it. */
  async function listed(session: Session, id: string) {
    const { body } = await request(server.baseUrl, "GET", `/api-keys/${session.wallet}?status=all`, {
      token: session.token,
    });
    return (body as { keys: { id: string }[] }).keys.find((key) => key.id === id);
  }

  /** The audit event's changes for `action` (newest). */
  async function auditChanges(session: Session, action: string) {
    const { body } = await request(
      server.baseUrl,
      "GET",
      `/api-keys/${session.wallet}/events?action=${action}`,
      {
        token: session.token,
      },
    );
    return (body as { events: { changes: unknown; at: string }[] }).events[0];
  }

  /** A payload never carries a hash or the key's secret. */
  function expectNoSecrets(payload: Payload, ...secrets: string[]) {
    const text = JSON.stringify(payload);
    expect(text).not.toMatch(/"hash"/);
    for (const secret of secrets) expect(text).not.toContain(secret);
  }

  it("a create writes one key.created with the public key, the event's changes and the change's time", async () => {
    const session = await subscribed();
    const created = await createKeyOver(server.baseUrl, session.token, {
      name: "billing",
      credits: { remaining: 50 },
      permissions: ["read"],
    });
    const [message, ...more] = await messagesOf(session.wallet);
    expect(more).toEqual([]);
    expect(message?.type).toBe("key.created");
    expect(message?.keyId).toBe(created.apiKey.id);
    const audit = await auditChanges(session, "key.created");
    expect(message?.payload).toEqual({
      type: "key.created",
      timestamp: audit?.at,
      data: { key: await listed(session, created.apiKey.id), changes: audit?.changes },
    });
    expectNoSecrets(message?.payload ?? { type: "", timestamp: "", data: {} }, created.key);
    expect(await deliveriesOf(message?.id ?? "")).toHaveLength(1);
  });

  it("an update, a roll and a revoke each write one message with the key as listed and the event's changes", async () => {
    const session = await subscribed();
    const created = await createKeyOver(server.baseUrl, session.token, { name: "a" });
    const id = created.apiKey.id;

    const patched = await request(server.baseUrl, "PATCH", `/api-keys/${id}`, {
      token: session.token,
      body: { name: "b", rateLimit: { limit: 5, windowSeconds: 60 } },
    });
    expect(patched.status).toBe(200);
    const [updated] = await messagesOf(session.wallet, "key.updated");
    const updateAudit = await auditChanges(session, "key.updated");
    expect(updated?.payload).toEqual({
      type: "key.updated",
      timestamp: updateAudit?.at,
      data: { key: (patched.body as { apiKey: unknown }).apiKey, changes: updateAudit?.changes },
    });

    const rolled = await request(server.baseUrl, "POST", `/api-keys/${id}/roll`, {
      token: session.token,
      body: { gracePeriodSeconds: 60 },
    });
    expect(rolled.status).toBe(201);
    const next = rolled.body as CreatedKey;
    const rolls = await messagesOf(session.wallet, "key.rolled");
    expect(rolls).toHaveLength(1);
    const rollAudit = await auditChanges(session, "key.rolled");
    expect(rolls[0]?.keyId).toBe(next.apiKey.id);
    expect(rolls[0]?.payload).toEqual({
      type: "key.rolled",
      timestamp: rollAudit?.at,
      data: {
        key: await listed(session, next.apiKey.id),
        changes: { ...(rollAudit?.changes as object), rolledFrom: id },
      },
    });
    expectNoSecrets(rolls[0]?.payload ?? { type: "", timestamp: "", data: {} }, created.key, next.key);

    const revoked = await request(server.baseUrl, "DELETE", `/api-keys/${next.apiKey.id}`, {
      token: session.token,
    });
    expect(revoked.status).toBe(200);
    const revokes = await messagesOf(session.wallet, "key.revoked");
    expect(revokes).toHaveLength(1);
    const revokeAudit = await auditChanges(session, "key.revoked");
    expect(revokes[0]?.payload).toEqual({
      type: "key.revoked",
      timestamp: revokeAudit?.at,
      data: { key: await listed(session, next.apiKey.id), changes: revokeAudit?.changes },
    });
    // An idempotent repeat changes nothing and sends nothing.
    await request(server.baseUrl, "DELETE", `/api-keys/${next.apiKey.id}`, { token: session.token });
    expect(await messagesOf(session.wallet, "key.revoked")).toHaveLength(1);
    expect((await messagesOf(session.wallet)).map((message) => message.type)).toEqual([
      "key.created",
      "key.updated",
      "key.rolled",
      "key.revoked",
    ]);
  });

  it("a leak report writes one key.leaked, a replay none", async () => {
    const session = await subscribed();
    const created = await createKeyOver(server.baseUrl, session.token);
    const report = () =>
      request(server.baseUrl, "POST", "/api-keys/report-leak", { body: { key: created.key } });
    expect((await report()).status).toBe(202);
    expect((await report()).status).toBe(202);
    const leaks = await messagesOf(session.wallet, "key.leaked");
    expect(leaks).toHaveLength(1);
    const audit = await auditChanges(session, "key.leaked");
    expect(leaks[0]?.payload).toEqual({
      type: "key.leaked",
      timestamp: audit?.at,
      data: { key: await listed(session, created.apiKey.id), changes: audit?.changes },
    });
    expectNoSecrets(leaks[0]?.payload ?? { type: "", timestamp: "", data: {} }, created.key);
  });

  it("a limits change writes limits.updated with the limits and the changes; a PUT that changes nothing none", async () => {
    const session = await subscribed();
    const put = (rateLimit: unknown) =>
      request(server.baseUrl, "PUT", `/api-keys/${session.wallet}/limits`, {
        token: session.token,
        body: { rateLimit },
      });
    expect((await put({ limit: 100, windowSeconds: 60 })).status).toBe(200);
    expect((await put({ limit: 100, windowSeconds: 60 })).status).toBe(200);
    const messages = await messagesOf(session.wallet);
    expect(messages).toHaveLength(1);
    const audit = await auditChanges(session, "limits.updated");
    expect(messages[0]?.keyId).toBeNull();
    expect(messages[0]?.payload).toEqual({
      type: "limits.updated",
      timestamp: audit?.at,
      data: {
        limits: {
          rateLimit: { limit: 100, windowSeconds: 60 },
          rateLimits: [{ name: "default", limit: 100, windowSeconds: 60, autoApply: true }],
        },
        changes: audit?.changes,
      },
    });
  });

  it("writes nothing for a wallet without an endpoint, nor to an endpoint not subscribed to the type", async () => {
    const lonely = await signIn(server.baseUrl);
    const key = await createKeyOver(server.baseUrl, lonely.token);
    await request(server.baseUrl, "DELETE", `/api-keys/${key.apiKey.id}`, { token: lonely.token });
    expect(await messagesOf(lonely.wallet)).toEqual([]);

    const picky = await signIn(server.baseUrl);
    const everything = await addEndpoint(picky.wallet, WEBHOOK_EVENT_TYPES);
    await addEndpoint(picky.wallet, ["key.created"]);
    await addEndpoint(picky.wallet, ["key.revoked"], false);
    const created = await createKeyOver(server.baseUrl, picky.token);
    await request(server.baseUrl, "DELETE", `/api-keys/${created.apiKey.id}`, { token: picky.token });
    const [createdMessage, revokedMessage] = await messagesOf(picky.wallet);
    expect(await deliveriesOf(createdMessage?.id ?? "")).toHaveLength(2);
    const revokedDeliveries = await deliveriesOf(revokedMessage?.id ?? "");
    expect(revokedDeliveries.map((delivery) => delivery.webhookId)).toEqual([everything]);
  });

  it("a refused change writes nothing: an update of a revoked key, a roll over the cap, a create over the cap", async () => {
    const session = await subscribed();
    const first = await createKeyOver(server.baseUrl, session.token);
    await request(server.baseUrl, "DELETE", `/api-keys/${first.apiKey.id}`, { token: session.token });
    const refused = await request(server.baseUrl, "PATCH", `/api-keys/${first.apiKey.id}`, {
      token: session.token,
      body: { name: "late" },
    });
    expect(refused.status).toBe(409);

    const keys = [];
    for (let i = 0; i < 3; i++) keys.push(await createKeyOver(server.baseUrl, session.token));
    const overCap = await request(server.baseUrl, "POST", "/api-keys", {
      token: session.token,
      body: { name: "x" },
    });
    expect(overCap.status).toBe(409);
    const roll = await request(server.baseUrl, "POST", `/api-keys/${keys[0]?.apiKey.id}/roll`, {
      token: session.token,
      body: { gracePeriodSeconds: 60 },
    });
    expect(roll.status).toBe(409);
    expect((await messagesOf(session.wallet)).map((message) => message.type)).toEqual([
      "key.created",
      "key.revoked",
      "key.created",
      "key.created",
      "key.created",
    ]);
  });

  it("a change that rolls back writes nothing", async () => {
    const session = await subscribed();
    const created = await createKeyOver(server.baseUrl, session.token);
    const before = await messagesOf(session.wallet);
    // A check at commit refuses this wallet's messages: each change has written its webhook by
    // then, so the whole transaction (or the create's statement) must go back, change included.
    await db().execute(
      sql.raw(`create or replace function fail_messages() returns trigger language plpgsql as $$
        begin if new.wallet = '${session.wallet}' then raise exception 'broken'; end if; return new; end $$`),
    );
    await db().execute(
      sql.raw(
        "create constraint trigger fail_messages after insert on webhook_messages deferrable initially deferred for each row execute function fail_messages()",
      ),
    );
    try {
      const revoke = await request(server.baseUrl, "DELETE", `/api-keys/${created.apiKey.id}`, {
        token: session.token,
      });
      expect(revoke.status).toBe(500);
      const patch = await request(server.baseUrl, "PATCH", `/api-keys/${created.apiKey.id}`, {
        token: session.token,
        body: { name: "never" },
      });
      expect(patch.status).toBe(500);
      const create = await request(server.baseUrl, "POST", "/api-keys", {
        token: session.token,
        body: { name: "y" },
      });
      expect(create.status).toBe(500);
    } finally {
      await db().execute(sql.raw("drop trigger fail_messages on webhook_messages"));
      await db().execute(sql.raw("drop function fail_messages()"));
    }
    expect(await messagesOf(session.wallet)).toEqual(before);
    expect(await listed(session, created.apiKey.id)).toMatchObject({ status: "active", name: "test key" });
    const { body } = await request(server.baseUrl, "GET", `/api-keys/${session.wallet}/events`, {
      token: session.token,
    });
    const actions = (body as { events: { action: string }[] }).events.map((event) => event.action);
    expect(actions.filter((action) => action.startsWith("key."))).toEqual(["key.created"]);
  });

  it("the sweep sends key.expiring 7 d and 1 d and key.expired once each, however many instances sweep", async () => {
    const session = await subscribed();
    const now = Date.now();
    const expiresAt = new Date(now + 6 * DAY);
    const created = await createKeyOver(server.baseUrl, session.token, {
      name: "expiring",
      expiresAt: expiresAt.toISOString(),
    });
    const id = created.apiKey.id;
    const notices = async () =>
      (await messagesOf(session.wallet)).filter(
        (message) => message.type !== "key.created" && message.keyId === id,
      );
    const one = createExpiryEvents(db());
    const two = createExpiryEvents(db());
    const sweepBoth = async (at: number) => {
      await Promise.all([one.sweep(new Date(at)), two.sweep(new Date(at))]);
      await one.sweep(new Date(at + 1000));
    };

    await sweepBoth(now);
    await sweepBoth(now + 60_000);
    expect((await notices()).map((message) => [message.type, message.payload.data.changes])).toEqual([
      ["key.expiring", { expiresAt: expiresAt.toISOString(), notice: "7d" }],
    ]);
    const [first] = await notices();
    expect(first?.payload.timestamp).toBe(new Date(now).toISOString());
    expect(first?.payload.data.key).toMatchObject({
      id,
      status: "active",
      expiresAt: expiresAt.toISOString(),
    });
    expectNoSecrets(first?.payload ?? { type: "", timestamp: "", data: {} }, created.key);

    await sweepBoth(now + 5.5 * DAY);
    await sweepBoth(now + 5.6 * DAY);
    await sweepBoth(expiresAt.getTime() + 1000);
    await sweepBoth(expiresAt.getTime() + 60_000);
    expect((await notices()).map((message) => [message.type, message.payload.data.changes])).toEqual([
      ["key.expiring", { expiresAt: expiresAt.toISOString(), notice: "7d" }],
      ["key.expiring", { expiresAt: expiresAt.toISOString(), notice: "1d" }],
      ["key.expired", { expiresAt: expiresAt.toISOString() }],
    ]);
    const expired = (await notices())[2];
    expect(expired?.payload.data.key).toMatchObject({ id, status: "expired" });
    expect(await deliveriesOf(expired?.id ?? "")).toHaveLength(1);
  });

  it("the sweep gives a key within a day of expiry only the 1 d notice, a new expiry new notices, a revoked key none", async () => {
    const session = await subscribed();
    const now = Date.now();
    const soon = await createKeyOver(server.baseUrl, session.token, {
      name: "expiring",
      expiresAt: new Date(now + 12 * 3_600_000).toISOString(),
    });
    const later = await createKeyOver(server.baseUrl, session.token, {
      name: "expiring",
      expiresAt: new Date(now + 3 * DAY).toISOString(),
    });
    const revoked = await createKeyOver(server.baseUrl, session.token, {
      name: "expiring",
      expiresAt: new Date(now + 3 * DAY).toISOString(),
    });
    await request(server.baseUrl, "DELETE", `/api-keys/${revoked.apiKey.id}`, { token: session.token });
    const sweeper = createExpiryEvents(db());
    await sweeper.sweep(new Date(now));
    await sweeper.sweep(new Date(now + 60_000));
    const noticesOf = async (keyId: string) =>
      (await messagesOf(session.wallet, "key.expiring"))
        .filter((message) => message.keyId === keyId)
        .map((message) => message.payload.data.changes?.notice);
    expect(await noticesOf(soon.apiKey.id)).toEqual(["1d"]);
    expect(await noticesOf(later.apiKey.id)).toEqual(["7d"]);
    expect(await noticesOf(revoked.apiKey.id)).toEqual([]);

    const moved = new Date(now + 5 * DAY).toISOString();
    expect(
      (
        await request(server.baseUrl, "PATCH", `/api-keys/${later.apiKey.id}`, {
          token: session.token,
          body: { expiresAt: moved },
        })
      ).status,
    ).toBe(200);
    await sweeper.sweep(new Date(now + 120_000));
    expect(await noticesOf(later.apiKey.id)).toEqual(["7d", "7d"]);
  });

  it("the sweep writes nothing for a wallet without an endpoint subscribed to expiry notices", async () => {
    const session = await subscribed(["key.created", "key.revoked"]);
    const now = Date.now();
    await createKeyOver(server.baseUrl, session.token, {
      name: "expiring",
      expiresAt: new Date(now + 2 * DAY).toISOString(),
    });
    await createExpiryEvents(db()).sweep(new Date(now + 3 * DAY));
    expect((await messagesOf(session.wallet)).map((message) => message.type)).toEqual(["key.created"]);
  });
});

describeDatabases("webhook events at a real receiver", (target) => {
  it("every key event arrives once, signed so that standardwebhooks verifies it", async () => {
    const secret = newWebhookSecret();
    const receiver = await startWebhookReceiver([secret]);
    const server = await startTestServer(target, { WEBHOOKS_ALLOW_PRIVATE: "true" });
    try {
      const session = await signIn(server.baseUrl);
      await target.database.db.insert(webhooks).values({
        id: `wh_${randomBytes(11).toString("hex")}`,
        wallet: session.wallet,
        url: receiver.url,
        events: [...WEBHOOK_EVENT_TYPES],
        secret: encryptSecret(KEY, secret),
      });
      const now = Date.now();
      const first = await createKeyOver(server.baseUrl, session.token, {
        name: "first",
        expiresAt: new Date(now + 3 * DAY).toISOString(),
      });
      const call = (method: string, path: string, body?: unknown) =>
        request(server.baseUrl, method, path, {
          token: session.token,
          ...(body === undefined ? {} : { body }),
        });
      expect((await call("PATCH", `/api-keys/${first.apiKey.id}`, { name: "renamed" })).status).toBe(200);
      const rolled = await call("POST", `/api-keys/${first.apiKey.id}/roll`, {});
      expect(rolled.status).toBe(201);
      const second = rolled.body as CreatedKey;
      const third = await createKeyOver(server.baseUrl, session.token, { name: "third" });
      expect((await call("DELETE", `/api-keys/${third.apiKey.id}`)).status).toBe(200);
      const leak = await request(server.baseUrl, "POST", "/api-keys/report-leak", {
        body: { key: second.key },
      });
      expect(leak.status).toBe(202);
      const expiring = await createKeyOver(server.baseUrl, session.token, {
        name: "expiring",
        expiresAt: new Date(now + 2 * DAY).toISOString(),
      });
      expect(
        (
          await call("PUT", `/api-keys/${session.wallet}/limits`, {
            rateLimit: { limit: 9, windowSeconds: 9 },
          })
        ).status,
      ).toBe(200);
      const sweeper = createExpiryEvents(target.database.db);
      await sweeper.sweep(new Date(now));
      await sweeper.sweep(new Date(now + 1.5 * DAY));
      await sweeper.sweep(new Date(now + 2 * DAY + 1000));

      const expected = [
        "key.created",
        "key.updated",
        "key.rolled",
        "key.created",
        "key.revoked",
        "key.leaked",
        "key.created",
        "limits.updated",
        "key.expiring",
        "key.expiring",
        "key.expired",
      ];
      await pollFor(() => (receiver.received.length >= expected.length ? true : undefined), 30_000);
      const bodies = receiver.received.map((entry) => JSON.parse(entry.body) as Payload);
      expect(bodies.map((body) => body.type).sort()).toEqual([...expected].sort());
      expect(receiver.received.every((entry) => entry.verifiedBy.includes(secret))).toBe(true);
      const ids = receiver.received.map((entry) => entry.headers["webhook-id"]);
      expect(new Set(ids).size).toBe(expected.length);
      const expired = bodies.find((body) => body.type === "key.expired");
      expect(expired?.data.key?.id).toBe(expiring.apiKey.id);
      for (const entry of receiver.received) {
        expect(entry.body).not.toMatch(/"hash"/);
        for (const key of [first.key, second.key, third.key, expiring.key])
          expect(entry.body).not.toContain(key);
      }
    } finally {
      await server.close();
      await receiver.close();
    }
  });
});
