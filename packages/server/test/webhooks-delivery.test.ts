import { useMovableDate } from "@keyport/test-support/clock";
import { eq } from "drizzle-orm";
import { Registry } from "prom-client";
import { afterEach, beforeAll, expect, it } from "vitest";
import { createRawQuery } from "../src/db/raw.js";
import { keyEvents, webhookDeliveries, webhookMessages, webhooks } from "../src/db/schema/index.js";
import { createWebhookMetrics, type WebhookMetrics } from "../src/metrics/webhooks.js";
import type { WebhookEventType } from "../src/schemas/webhook.js";
import { CLAIM_LEASE_MS, claimDueDeliveries, idleSlots } from "../src/webhooks/claim.js";
import { startWebhookDispatcher, type WebhookDispatcherOptions } from "../src/webhooks/dispatcher.js";
import { enqueueWebhookSql } from "../src/webhooks/enqueue.js";
import { deleteOldWebhookMessages } from "../src/webhooks/retention.js";
import { encryptSecret, newWebhookSecret } from "../src/webhooks/secret.js";
import { type ResolveHost, resolveSendTarget } from "../src/webhooks/send-address.js";
import { createSuccessRecorder } from "../src/webhooks/settle-batch.js";
import { type DatabaseTarget, describeDatabases } from "./support/databases.js";
import {
  answerStatus,
  pollFor,
  type ReceiverAnswer,
  startWebhookReceiver,
  type WebhookReceiver,
} from "./support/webhook-receiver.js";
import { TEST_WEBHOOKS_KEY } from "./support/webhooks-key.js";

const KEY = Buffer.from(TEST_WEBHOOKS_KEY, "base64");
const WALLET = "0x00000000000000000000000000000000000000aa";
// What the dispatcher logs shows in the test output: none is expected.
const logged = {
  warn: (fields: object, message: string) => console.warn(message, fields),
  error: (fields: object, message: string) => console.error(message, fields),
};

describeDatabases("webhook delivery", (target) => {
  const clock = useMovableDate();
  const cleanups: (() => Promise<void> | void)[] = [];
  let endpointCount = 0;

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await target.database.db.delete(webhookMessages);
    await target.database.db.delete(webhooks);
    await target.database.db.delete(keyEvents);
  });

  async function receiver(secrets: string[], fallback?: ReceiverAnswer): Promise<WebhookReceiver> {
    const started = await startWebhookReceiver(secrets, fallback);
    cleanups.push(() => started.close());
    return started;
  }

  async function addEndpoint(
    url: string,
    options: { previousSecret?: string; enabled?: boolean; events?: WebhookEventType[] } = {},
  ) {
    const secret = newWebhookSecret();
    const id = `wh_${String(endpointCount++).padStart(22, "0")}`;
    await target.database.db.insert(webhooks).values({
      id,
      wallet: WALLET,
      url,
      events: options.events ?? ["key.revoked"],
      enabled: options.enabled ?? true,
      secret: encryptSecret(KEY, secret),
      ...(options.previousSecret === undefined
        ? {}
        : {
            previousSecret: encryptSecret(KEY, options.previousSecret),
            previousSecretExpiresAt: new Date(Date.now() + 86_400_000),
          }),
    });
    return { id, secret };
  }

  /** Enqueues one key.revoked event in a transaction of its own, as a change would. */
  async function enqueue(keyId = "key_1") {
    const at = new Date();
    await target.database.db.transaction(async (tx) => {
      await tx.execute(
        enqueueWebhookSql({ wallet: WALLET, type: "key.revoked", keyId, at, data: { keyId } }),
      );
    });
  }

  function dispatch(options: Partial<WebhookDispatcherOptions> = {}) {
    const dispatcher = startWebhookDispatcher({
      db: target.database.db,
      query: createRawQuery(target.database.driver),
      key: KEY,
      allowPrivate: true,
      logger: logged,
      random: () => 0.5,
      // A look every 50 ms rather than every second: the tests wait on deliveries, not on the poll
      // (the first test keeps production's 1 s, whose promise it checks).
      pollIntervalMs: 50,
      ...options,
    });
    cleanups.push(() => dispatcher.stop());
    return dispatcher;
  }

  const deliveries = () => target.database.db.select().from(webhookDeliveries).orderBy(webhookDeliveries.id);
  async function onlyDelivery() {
    const rows = await deliveries();
    expect(rows).toHaveLength(1);
    const [row] = rows;
    if (row === undefined) throw new Error("no delivery");
    return row;
  }
  const deliveryWhen = (ok: (row: Awaited<ReturnType<typeof onlyDelivery>>) => boolean) =>
    pollFor(async () => {
      const row = await onlyDelivery();
      return ok(row) ? row : undefined;
    });

  it("sends a committed event once, signed so standardwebhooks verifies it, within about a second", async () => {
    const hook = await receiver([]);
    const { secret } = await addEndpoint(hook.url);
    hook.setSecrets([secret]);
    dispatch({ pollIntervalMs: 1_000 });
    await enqueue();
    const committed = performance.now();
    await pollFor(() => hook.received[0]);
    // One poll (1 s) at most, plus the send; a busy machine gets slack.
    expect(performance.now() - committed).toBeLessThan(3_000);
    const row = await deliveryWhen((r) => r.status === "succeeded");
    expect(row).toMatchObject({ attempts: 1, lastStatusCode: 204, nextAttemptAt: null });
    expect(hook.received).toHaveLength(1);
    const [request] = hook.received;
    expect(request?.verifiedBy).toEqual([secret]);
    const [message] = await target.database.db.select().from(webhookMessages);
    expect(request?.headers["webhook-id"]).toBe(message?.id);
    expect(JSON.parse(request?.body ?? "")).toEqual(message?.payload);
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.headers["user-agent"]).toBe("Keyport-Webhooks/1");
  });

  it("sends nothing for a change that rolled back", async () => {
    const hook = await receiver([]);
    await addEndpoint(hook.url);
    dispatch();
    await target.database.db
      .transaction(async (tx) => {
        await tx.execute(
          enqueueWebhookSql({
            wallet: WALLET,
            type: "key.revoked",
            keyId: "rolled",
            at: new Date(),
            data: {},
          }),
        );
        tx.rollback();
      })
      .catch(() => undefined);
    await enqueue("committed");
    await deliveryWhen((r) => r.status === "succeeded");
    expect(hook.received.map((r) => JSON.parse(r.body).data.keyId)).toEqual(["committed"]);
  });

  it("retries a 500 on the schedule (5 s, then 5 min), counting attempts, until a 2xx", async () => {
    const hook = await receiver([], answerStatus(200, "ok"));
    hook.answerNext(answerStatus(500, "down"), answerStatus(503, "still down"));
    await addEndpoint(hook.url);
    const dispatcher = dispatch();
    await enqueue();
    const first = await deliveryWhen((r) => r.lastStatusCode === 500);
    expect(first.status).toBe("pending");
    expect(first.attempts).toBe(1);
    expect(first.lastResponse).toBe("down");
    const [failing] = await target.database.db.select().from(webhooks);
    expect(failing?.failingSince?.getTime()).toBe(first.lastAttemptAt?.getTime());
    const firstDelay = (first.nextAttemptAt?.getTime() ?? 0) - (first.lastAttemptAt?.getTime() ?? 0);
    expect(firstDelay).toBeGreaterThanOrEqual(5_000);
    expect(firstDelay).toBeLessThan(5_000 + 1_000);
    clock.advance(5_000);
    dispatcher.wake();
    const second = await deliveryWhen((r) => r.attempts === 2 && r.lastStatusCode === 503);
    const secondDelay = (second.nextAttemptAt?.getTime() ?? 0) - (second.lastAttemptAt?.getTime() ?? 0);
    expect(secondDelay).toBeGreaterThanOrEqual(300_000);
    expect(secondDelay).toBeLessThan(301_000);
    expect(hook.received).toHaveLength(2);
    clock.advance(300_000);
    dispatcher.wake();
    const third = await deliveryWhen((r) => r.status === "succeeded");
    expect(third).toMatchObject({ attempts: 3, lastStatusCode: 200, lastResponse: "ok" });
    // A 2xx ends the failing streak.
    const [healthy] = await target.database.db.select().from(webhooks);
    expect(healthy?.failingSince).toBeNull();
    expect(new Set(hook.received.map((r) => r.headers["webhook-id"])).size).toBe(1);
    expect(new Set(hook.received.map((r) => r.body)).size).toBe(1);
  });

  it("disables the endpoint at once on 410 Gone, and never sends its other deliveries", async () => {
    const hook = await receiver([], answerStatus(410));
    const { id } = await addEndpoint(hook.url);
    await enqueue("first");
    await enqueue("second");
    const metrics = newMetrics();
    dispatch({ concurrency: 1, metrics: metrics.webhooks });
    await pollFor(async () => ((await deliveries()).every((r) => r.status === "failed") ? true : undefined));
    expect(hook.received).toHaveLength(1);
    const [endpoint] = await target.database.db.select().from(webhooks).where(eq(webhooks.id, id));
    expect(endpoint).toMatchObject({ enabled: false, disabledReason: "gone" });
    const [gone, skipped] = await deliveries();
    expect(gone).toMatchObject({ attempts: 1, lastStatusCode: 410, nextAttemptAt: null });
    expect(skipped).toMatchObject({ attempts: 0, lastResponse: "endpoint disabled" });
    const text = await metrics.registry.metrics();
    expect(text).toContain('keyport_webhook_deliveries_total{outcome="failed"} 1');
    expect(text).toContain('keyport_webhook_deliveries_total{outcome="skipped"} 1');
    expect(text).toContain("keyport_webhook_outbox_depth 0");
  });

  it("after the last scheduled retry fails, fails the delivery; after 3 days of failures disables the endpoint and tells its owner", async () => {
    // Each answer takes 100 ms: the wait below must tell a delivery being sent from one recorded.
    const slow500: ReceiverAnswer = (req, res, received) =>
      setTimeout(() => answerStatus(500)(req, res, received), 100);
    const hook = await receiver([], slow500);
    const { id } = await addEndpoint(hook.url);
    const watcher = await receiver([]);
    const { secret: watcherSecret } = await addEndpoint(watcher.url, { events: ["webhook.disabled"] });
    watcher.setSecrets([watcherSecret]);
    const dispatcher = dispatch();
    await enqueue();
    const delays = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
    let previousAttemptAt: number | undefined;
    for (const [index, delay] of delays.entries()) {
      // Recorded, not merely claimed: a claim counts the attempt before the send, and a row still
      // being sent must not be taken for one that is due again.
      const row = await deliveryWhen(
        (r) =>
          r.attempts === index + 1 &&
          r.lastAttemptAt !== null &&
          r.lastAttemptAt.getTime() !== previousAttemptAt &&
          r.lastStatusCode === 500,
      );
      previousAttemptAt = row.lastAttemptAt?.getTime();
      clock.advance(delay);
      dispatcher.wake();
    }
    const row = await deliveryWhen((r) => r.status === "failed");
    expect(row).toMatchObject({ attempts: 8, lastStatusCode: 500, nextAttemptAt: null });
    expect(hook.received).toHaveLength(8);
    // About 27 hours of failures: the endpoint keeps receiving (docs/webhooks.md, "Delivery").
    const endpoint = async () =>
      (await target.database.db.select().from(webhooks).where(eq(webhooks.id, id)))[0];
    const failing = await endpoint();
    expect(failing).toMatchObject({ enabled: true, disabledReason: null });
    expect(failing?.failingSince).not.toBeNull();
    // A new event's first attempt 3 days after the streak began disables the endpoint.
    clock.advance(3 * 86_400_000 - 27 * 3_600_000);
    await enqueue("key_2");
    dispatcher.wake();
    await pollFor(async () => ((await endpoint())?.enabled === false ? true : undefined));
    expect(await endpoint()).toMatchObject({ enabled: false, disabledReason: "failing" });
    const events = await target.database.db
      .select()
      .from(keyEvents)
      .where(eq(keyEvents.action, "webhook.disabled"));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      wallet: WALLET,
      keyId: null,
      changes: { webhookId: id, reason: "failing", url: hook.url },
    });
    // The wallet's other endpoint subscribed to webhook.disabled hears of it.
    const notice = await pollFor(() => watcher.received[0]);
    expect(JSON.parse(notice.body)).toMatchObject({
      type: "webhook.disabled",
      data: { webhookId: id, reason: "failing", url: hook.url },
    });
    expect(notice.verifiedBy).toEqual([watcherSecret]);
  });

  it("signs with both secrets during a rotation's overlap, and with the new one alone after it", async () => {
    const hook = await receiver([]);
    const previous = newWebhookSecret();
    const { secret } = await addEndpoint(hook.url, { previousSecret: previous });
    hook.setSecrets([previous, secret]);
    const dispatcher = dispatch();
    await enqueue("during");
    await pollFor(() => hook.received[0]);
    expect(hook.received[0]?.verifiedBy.sort()).toEqual([previous, secret].sort());
    expect(hook.received[0]?.headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    clock.advance(86_400_000 + 1_000);
    await enqueue("after");
    dispatcher.wake();
    await pollFor(() => hook.received[1]);
    expect(hook.received[1]?.verifiedBy).toEqual([secret]);
  });

  it("does not follow a redirect: a 3xx is a failed attempt", async () => {
    const hook = await receiver([]);
    hook.answerNext((_req, res) => res.writeHead(302, { location: "/elsewhere" }).end());
    await addEndpoint(hook.url);
    dispatch();
    await enqueue();
    const row = await deliveryWhen((r) => r.attempts === 1 && r.lastStatusCode !== null);
    expect(row).toMatchObject({ status: "pending", lastStatusCode: 302 });
    expect(hook.received).toHaveLength(1);
  });

  it("gives up on a receiver that does not answer within the deadline", async () => {
    const hook = await receiver([], () => undefined);
    await addEndpoint(hook.url);
    dispatch({ timeoutMs: 300 });
    await enqueue();
    const row = await deliveryWhen((r) => r.attempts === 1 && r.lastResponse !== null);
    expect(row).toMatchObject({ status: "pending", lastStatusCode: null, lastResponse: "timeout" });
    expect(row.lastDurationMs).toBeGreaterThanOrEqual(290);
    expect(row.lastDurationMs).toBeLessThan(2_000);
  });

  it("reads at most 64 KiB of an endless answer and keeps 1 KiB of it", async () => {
    let closedEarly = false;
    const hook = await receiver([], (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      const chunk = Buffer.alloc(16 * 1024, "a");
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) {}
      };
      res.on("drain", pump);
      res.on("close", () => {
        closedEarly = !res.writableFinished;
      });
      pump();
    });
    await addEndpoint(hook.url);
    dispatch({ timeoutMs: 5_000 });
    await enqueue();
    const row = await deliveryWhen((r) => r.status !== "pending");
    expect(row).toMatchObject({ status: "succeeded", lastStatusCode: 200 });
    expect(row.lastResponse).toBe("a".repeat(1024));
    expect(row.lastDurationMs).toBeLessThan(5_000);
    await pollFor(() => closedEarly || undefined);
  });

  it("records 40 concurrent successes each with its own answer, however the answers are quoted", async () => {
    // Successes are recorded many to a statement (settle-batch.ts): each row must still get its own
    // status, answer and attempt, whatever characters the answer holds.
    const tricky = (path: string) => `ok, "quoted" {braces} \\ back\\slash 'single' ünï ${path}`;
    const hook = await receiver([], (req, res) => {
      const status = 200 + Number(new URL(req.url ?? "/", "http://x").searchParams.get("n"));
      res.writeHead(status, { "content-type": "text/plain" }).end(tricky(String(status)));
    });
    // Five 2xx statuses that carry a body (204 and 205 carry none).
    for (const n of [0, 1, 2, 3, 6]) await addEndpoint(`${hook.url}?n=${n}`);
    dispatch({ concurrency: 8 });
    for (let i = 0; i < 8; i++) await enqueue(`key_${i}`);
    const rows = await pollFor(async () => {
      const all = await deliveries();
      return all.length === 40 && all.every((r) => r.status === "succeeded") ? all : undefined;
    });
    const endpoints = await target.database.db.select().from(webhooks);
    const statusOf = new Map(
      endpoints.map((e) => [e.id, 200 + Number(new URL(e.url).searchParams.get("n"))]),
    );
    for (const row of rows) {
      const status = statusOf.get(row.webhookId);
      expect(row).toMatchObject({ attempts: 1, lastStatusCode: status, nextAttemptAt: null });
      expect(row.lastResponse).toBe(tricky(String(status)));
    }
    expect(hook.received).toHaveLength(40);
  });

  it("drops a success answered after its claim's lease lapsed and the delivery was claimed again", async () => {
    await addEndpoint("http://127.0.0.1:9/hooks");
    await enqueue();
    const query = createRawQuery(target.database.driver);
    const [first] = await claimDueDeliveries(query, new Date(), idleSlots(10));
    // The lease lapses (its process looked dead) and another claim takes the delivery.
    const [second] = await claimDueDeliveries(
      query,
      new Date(Date.now() + CLAIM_LEASE_MS + 1_000),
      idleSlots(10),
    );
    if (first === undefined || second === undefined) throw new Error("not claimed twice");
    const recorder = createSuccessRecorder(query);
    await recorder.record(first, { statusCode: 200, durationMs: 5, response: "late" }, new Date());
    expect(await onlyDelivery()).toMatchObject({ status: "pending", attempts: 2, lastResponse: null });
    await recorder.record(second, { statusCode: 200, durationMs: 5, response: "ours" }, new Date());
    expect(await onlyDelivery()).toMatchObject({ status: "succeeded", attempts: 2, lastResponse: "ours" });
  });

  it("refuses at send time a name that resolves to loopback on the second lookup", async () => {
    const hook = await receiver([]);
    const answers = [[{ address: "93.184.216.34", family: 4 }], [{ address: "127.0.0.1", family: 4 }]];
    const resolve: ResolveHost = async () => answers.shift() ?? [];
    const url = `https://rebind.example.test:${hook.port}/hooks`;
    // The first lookup: the check when the endpoint was created, which passed.
    expect((await resolveSendTarget(new URL(url), false, resolve)).ok).toBe(true);
    await addEndpoint(url);
    dispatch({ allowPrivate: false, resolve });
    await enqueue();
    const row = await deliveryWhen((r) => r.attempts === 1 && r.lastResponse !== null);
    expect(row).toMatchObject({
      status: "pending",
      lastStatusCode: null,
      lastResponse: "address not allowed",
    });
    expect(hook.received).toHaveLength(0);
  });

  it("refuses a name when any of its addresses is private, and connects only to the address it checked", async () => {
    const mixed: ResolveHost = async () => [
      { address: "93.184.216.34", family: 4 },
      { address: "10.0.0.1", family: 4 },
    ];
    expect(await resolveSendTarget(new URL("https://mixed.example.test/"), false, mixed)).toEqual({
      ok: false,
      reason: "address not allowed",
    });
    expect(await resolveSendTarget(new URL("https://169.254.169.254/"), false, mixed)).toEqual({
      ok: false,
      reason: "address not allowed",
    });
    // IPv4 inside IPv6 is judged by the IPv4 address, at connect time too: 6to4 and SIIT of loopback.
    for (const address of ["2002:7f00:1::", "::ffff:0:7f00:1"]) {
      const embedded: ResolveHost = async () => [{ address, family: 6 }];
      expect(await resolveSendTarget(new URL("https://embedded.example.test/"), false, embedded)).toEqual({
        ok: false,
        reason: "address not allowed",
      });
    }
    expect(await resolveSendTarget(new URL("http://93.184.216.34/"), false, mixed)).toEqual({
      ok: false,
      reason: "https required",
    });
    // A name no real DNS knows reaches the receiver only through the address the check resolved.
    const hook = await receiver([]);
    let lookups = 0;
    const pinned: ResolveHost = async () => {
      lookups++;
      return [{ address: "127.0.0.1", family: 4 }];
    };
    await addEndpoint(`http://pinned.invalid:${hook.port}/hooks`);
    dispatch({ resolve: pinned });
    await enqueue();
    await deliveryWhen((r) => r.status === "succeeded");
    expect(hook.received).toHaveLength(1);
    expect(lookups).toBe(1);
  });

  it("reports the outbox depth and the age of its oldest pending delivery", async () => {
    await addEndpoint("http://127.0.0.1:9/hooks");
    await enqueue();
    const metrics = newMetrics();
    const [row] = await deliveries();
    await target.database.db
      .update(webhookDeliveries)
      .set({ createdAt: new Date(Date.now() - 120_000) })
      .where(eq(webhookDeliveries.id, row?.id ?? 0));
    const text = await metrics.registry.metrics();
    expect(text).toContain("keyport_webhook_outbox_depth 1");
    const age = Number(/^keyport_webhook_outbox_oldest_seconds (\S+)$/m.exec(text)?.[1]);
    expect(age).toBeGreaterThanOrEqual(120);
    expect(age).toBeLessThan(180);
  });

  it("retention deletes old messages and their deliveries, never one still pending", async () => {
    await addEndpoint("http://127.0.0.1:9/hooks");
    await enqueue("old-settled");
    await enqueue("old-pending");
    await enqueue("recent");
    const rows = await deliveries();
    const [oldSettled, oldPending] = rows;
    await target.database.db
      .update(webhookDeliveries)
      .set({ status: "succeeded", nextAttemptAt: null })
      .where(eq(webhookDeliveries.id, oldSettled?.id ?? 0));
    const old = new Date(Date.now() - 40 * 86_400_000);
    for (const row of [oldSettled, oldPending]) {
      await target.database.db
        .update(webhookMessages)
        .set({ createdAt: old })
        .where(eq(webhookMessages.id, row?.messageId ?? ""));
    }
    expect(
      await deleteOldWebhookMessages(target.database.db, new Date(Date.now() - 30 * 86_400_000), new Date()),
    ).toBe(1);
    const left = await deliveries();
    expect(left.map((r) => r.id)).toEqual([oldPending?.id, rows[2]?.id]);
  });

  it("retention keeps a notice with a dedupe key 8 days whatever EVENTS_RETENTION_DAYS, so it is never sent twice", async () => {
    const now = new Date();
    const notice = async (dedupeKey: string, daysOld: number) => {
      const at = new Date(now.getTime() - daysOld * 86_400_000);
      await target.database.db.execute(
        enqueueWebhookSql({ wallet: WALLET, type: "key.expiring", keyId: "key_n", at, data: {}, dedupeKey }),
      );
      await target.database.db
        .update(webhookDeliveries)
        .set({ status: "succeeded", nextAttemptAt: null })
        .where(eq(webhookDeliveries.status, "pending"));
    };
    await addEndpoint("http://127.0.0.1:9/hooks");
    await target.database.db.update(webhooks).set({ events: ["key.expiring"] });
    await notice("key.expiring:7d:key_n:1", 3);
    await notice("key.expiring:7d:key_n:2", 9);
    // EVENTS_RETENTION_DAYS=1: only the 9-day-old notice may go.
    await deleteOldWebhookMessages(target.database.db, new Date(now.getTime() - 86_400_000), now);
    const left = await target.database.db.select().from(webhookMessages);
    expect(left.map((row) => row.dedupeKey)).toContain("key.expiring:7d:key_n:1");
    expect(left.map((row) => row.dedupeKey)).not.toContain("key.expiring:7d:key_n:2");
  });

  function newMetrics(): { registry: Registry; webhooks: WebhookMetrics } {
    const registry = new Registry();
    return { registry, webhooks: createWebhookMetrics(registry, target.database) };
  }
});

describeDatabases("webhook delivery in the app", (target: DatabaseTarget) => {
  let hook: WebhookReceiver;
  beforeAll(async () => {
    hook = await startWebhookReceiver([]);
    return () => hook.close();
  });

  it("every app delivers the outbox from its start, and stops with it", async () => {
    const { startTestServer } = await import("./support/server.js");
    const server = await startTestServer(target, { WEBHOOKS_ALLOW_PRIVATE: "true" });
    try {
      const secret = newWebhookSecret();
      hook.setSecrets([secret]);
      await target.database.db.insert(webhooks).values({
        id: "wh_app0000000000000000000",
        wallet: WALLET,
        url: hook.url,
        events: ["key.revoked"],
        secret: encryptSecret(KEY, secret),
      });
      await target.database.db.execute(
        enqueueWebhookSql({ wallet: WALLET, type: "key.revoked", keyId: "k", at: new Date(), data: {} }),
      );
      await pollFor(() => hook.received[0]);
      expect(hook.received[0]?.verifiedBy).toEqual([secret]);
    } finally {
      await server.close();
    }
  });
});
