import type { IncomingMessage } from "node:http";
import { sql } from "drizzle-orm";
import { Registry } from "prom-client";
import { afterEach, expect, it } from "vitest";
import { createRawQuery } from "../src/db/raw.js";
import { webhookDeliveries, webhookMessages, webhooks } from "../src/db/schema/index.js";
import { createWebhookMetrics } from "../src/metrics/webhooks.js";
import { createDeliveryLog } from "../src/webhooks/delivery-log.js";
import { startWebhookDispatcher, type WebhookDispatcherOptions } from "../src/webhooks/dispatcher.js";
import { enqueueWebhookSql } from "../src/webhooks/enqueue.js";
import { OPERATOR_OWNER } from "../src/webhooks/owner.js";
import { encryptSecret, newWebhookSecret } from "../src/webhooks/secret.js";
import { dropOverflow, droppedReason } from "../src/webhooks/trim.js";
import { describeDatabases } from "./support/databases.js";
import { pollFor, startWebhookReceiver, type WebhookReceiver } from "./support/webhook-receiver.js";
import { TEST_WEBHOOKS_KEY } from "./support/webhooks-key.js";

const KEY = Buffer.from(TEST_WEBHOOKS_KEY, "base64");
const FLOODER = "0x00000000000000000000000000000000000000f1";
const HEALTHY = "0x00000000000000000000000000000000000000b2";
const logged = {
  warn: (fields: object, message: string) => console.warn(message, fields),
  error: (fields: object, message: string) => console.error(message, fields),
};

/** A receiver that never answers, counting the requests it holds open by path and query. */
async function hangingReceiver() {
  const open = new Map<string, number>();
  let most = 0;
  const track = (req: IncomingMessage) => {
    const path = req.url ?? "";
    open.set(path, (open.get(path) ?? 0) + 1);
    most = Math.max(most, open.get(path) ?? 0);
    req.socket.once("close", () => open.set(path, (open.get(path) ?? 1) - 1));
  };
  const receiver = await startWebhookReceiver([], (req) => track(req));
  const total = () => [...open.values()].reduce((sum, n) => sum + n, 0);
  return {
    receiver,
    open,
    total,
    mostAtOnce: () => most,
    resetMost: () => {
      most = Math.max(0, ...open.values());
    },
  };
}

describeDatabases("webhook fairness", (target) => {
  const cleanups: (() => Promise<void> | void)[] = [];
  let endpoints = 0;

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await target.database.db.delete(webhookMessages);
    await target.database.db.delete(webhooks);
  });

  async function receiverOf(started: Promise<WebhookReceiver>): Promise<WebhookReceiver> {
    const receiver = await started;
    cleanups.push(() => receiver.close());
    return receiver;
  }

  async function addEndpoint(wallet: string, url: string): Promise<{ id: string; secret: string }> {
    const secret = newWebhookSecret();
    const id = `wh_${String(endpoints++).padStart(22, "0")}`;
    await target.database.db.insert(webhooks).values({
      id,
      wallet,
      url,
      events: ["key.revoked"],
      secret: encryptSecret(KEY, secret),
    });
    return { id, secret };
  }

  /** `count` messages for `wallet`, each delivered to every endpoint it has, in two statements. */
  async function flood(wallet: string, count: number): Promise<void> {
    await target.database.db.execute(sql`insert into ${webhookMessages} (id, wallet, type, payload)
      select 'msg_flood_' || g, ${wallet}::text, 'key.revoked', '{}'::jsonb from generate_series(1, ${count}::int) g`);
    await target.database.db.execute(sql`insert into ${webhookDeliveries} (message_id, webhook_id)
      select m.id, w.id from ${webhookMessages} m join ${webhooks} w on w.wallet = m.wallet
      where m.wallet = ${wallet}::text order by m.id`);
  }

  function dispatch(options: Partial<WebhookDispatcherOptions> = {}) {
    const dispatcher = startWebhookDispatcher({
      db: target.database.db,
      query: createRawQuery(target.database.driver),
      key: KEY,
      allowPrivate: true,
      logger: logged,
      ...options,
    });
    cleanups.push(() => dispatcher.stop());
    return dispatcher;
  }

  it("delivers a healthy wallet's event within 2 s while another wallet's ten endpoints hang on a flood", async () => {
    const dead = await hangingReceiver();
    // Closed before the dispatcher stops (cleanups run in reverse): the hanging sends end at once.
    const healthy = await receiverOf(startWebhookReceiver([]));
    for (let n = 0; n < 10; n++) await addEndpoint(FLOODER, `${dead.receiver.url}?n=${n}`);
    await flood(FLOODER, 200);
    // The production settings: 32 sends, 4 an endpoint, 16 a wallet, 10 s deadline.
    const dispatcher = dispatch();
    cleanups.push(() => dead.receiver.close());
    await pollFor(() => (dead.total() >= 16 ? true : undefined));
    const { secret } = await addEndpoint(HEALTHY, healthy.url);
    healthy.setSecrets([secret]);
    await target.database.db.execute(
      enqueueWebhookSql({ wallet: HEALTHY, type: "key.revoked", keyId: "key_h", at: new Date(), data: {} }),
    );
    const committed = performance.now();
    // What the app does after committing a change that enqueued an event.
    dispatcher.wake();
    const arrived = await pollFor(() => healthy.received[0]);
    expect(performance.now() - committed).toBeLessThan(2_000);
    expect(arrived.verifiedBy).toEqual([secret]);
    // Nothing of the flood timed out yet (10 s): what it holds is what the caps allow it.
    expect(dead.total()).toBe(16);
    expect(dead.mostAtOnce()).toBeLessThanOrEqual(4);
  });

  it("counts the operator's endpoints as one owner: hanging on every wallet's events, they hold 16 sends and a wallet's event still arrives", async () => {
    const dead = await hangingReceiver();
    const healthy = await receiverOf(startWebhookReceiver([]));
    for (let n = 0; n < 10; n++) await addEndpoint(OPERATOR_OWNER, `${dead.receiver.url}?n=${n}`);
    // Deployment events of 200 wallets, each to every operator endpoint.
    await target.database.db.execute(sql`insert into ${webhookMessages} (id, wallet, type, payload)
      select 'msg_ops_' || g, '0x' || lpad(to_hex(g), 40, '0'), 'key.leaked', '{}'::jsonb from generate_series(1, 200) g`);
    await target.database.db.execute(sql`insert into ${webhookDeliveries} (message_id, webhook_id)
      select m.id, w.id from ${webhookMessages} m cross join ${webhooks} w where w.wallet = ${OPERATOR_OWNER} order by m.id`);
    const dispatcher = dispatch();
    cleanups.push(() => dead.receiver.close());
    await pollFor(() => (dead.total() >= 16 ? true : undefined));
    const { secret } = await addEndpoint(HEALTHY, healthy.url);
    healthy.setSecrets([secret]);
    await target.database.db.execute(
      enqueueWebhookSql({ wallet: HEALTHY, type: "key.revoked", keyId: "key_h", at: new Date(), data: {} }),
    );
    const committed = performance.now();
    dispatcher.wake();
    await pollFor(() => healthy.received[0]);
    expect(performance.now() - committed).toBeLessThan(2_000);
    expect(dead.total()).toBe(16);
    expect(dead.mostAtOnce()).toBeLessThanOrEqual(4);
  });

  it("holds at most 4 sends to one endpoint, and 1 once it is failing", async () => {
    const dead = await hangingReceiver();
    await addEndpoint(FLOODER, dead.receiver.url);
    await flood(FLOODER, 20);
    const dispatcher = dispatch({ timeoutMs: 400, pollIntervalMs: 50 });
    cleanups.push(() => dead.receiver.close());
    await pollFor(() => (dead.total() >= 4 ? true : undefined));
    // The 400 ms deadline ends the first four; the endpoint is failing from then on.
    await pollFor(async () => {
      const [row] = await target.database.db.select().from(webhooks);
      return row?.failingSince !== null ? true : undefined;
    });
    expect(dead.mostAtOnce()).toBe(4);
    await pollFor(() => (dead.total() === 0 ? true : undefined));
    dead.resetMost();
    const seen = dead.receiver.received.length;
    dispatcher.wake();
    await pollFor(() => (dead.receiver.received.length >= seen + 3 ? true : undefined));
    expect(dead.mostAtOnce()).toBe(1);
  });

  it("drops an endpoint's oldest undelivered messages beyond the bound, saying why, and redelivers one on request", async () => {
    const { id } = await addEndpoint(FLOODER, "http://127.0.0.1:9/hooks");
    await flood(FLOODER, 8);
    const query = createRawQuery(target.database.driver);
    expect(await dropOverflow(query, 5)).toBe(3);
    expect(await dropOverflow(query, 5)).toBe(0);
    const log = createDeliveryLog(target.database.db);
    const listed = (await log.deliveries({ wallet: FLOODER, id })) ?? [];
    const oldestFirst = [...listed].sort((a, b) => Number(a.id) - Number(b.id));
    expect(oldestFirst.map((delivery) => delivery.status)).toEqual([
      ...Array(3).fill("dropped"),
      ...Array(5).fill("pending"),
    ]);
    expect(oldestFirst[0]).toMatchObject({
      response: droppedReason(5),
      nextAttemptAt: null,
      attempts: 0,
    });
    expect(droppedReason(10_000)).toBe("dropped: the endpoint held more than 10,000 undelivered messages");
    const first = oldestFirst[0];
    if (first === undefined) throw new Error("no delivery");
    const redelivered = await log.redeliver({ wallet: FLOODER, id }, first.id, new Date());
    expect(redelivered).toMatchObject({ ok: true });
  });

  it("the dispatcher drops the overflow before it claims", async () => {
    await addEndpoint(FLOODER, "http://127.0.0.1:9/hooks");
    await flood(FLOODER, 12);
    const registry = new Registry();
    dispatch({
      maxUndelivered: 10,
      pollIntervalMs: 50,
      metrics: createWebhookMetrics(registry, target.database),
    });
    const dropped = await pollFor(async () => {
      const rows = await target.database.db.select().from(webhookDeliveries).orderBy(webhookDeliveries.id);
      return rows.some((row) => row.status === "dropped") ? rows : undefined;
    });
    expect(dropped.slice(0, 2).map((row) => row.status)).toEqual(["dropped", "dropped"]);
    expect(dropped.slice(2).every((row) => row.status !== "dropped")).toBe(true);
    expect(await registry.metrics()).toContain('keyport_webhook_deliveries_total{outcome="dropped"} 2');
  });
});
