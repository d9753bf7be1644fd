import { lookup } from "node:dns/promises";
import { hostname } from "node:os";
import { request } from "@keyport/test-support/http";
import { logSink } from "@keyport/test-support/log-sink";
import { signIn } from "@keyport/test-support/siwe";
import { and, eq } from "drizzle-orm";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type App, createApp } from "../src/app.js";
import { keyEvents, webhookDeliveries, webhookMessages, webhooks } from "../src/db/schema/index.js";
import { parseEnv } from "../src/env.js";
import { createLogger } from "../src/logger.js";
import { isPublicAddress } from "../src/webhooks/address-policy.js";
import { decryptSecret } from "../src/webhooks/secret.js";
import { type ResolveHost, systemResolve } from "../src/webhooks/send-address.js";
import { type DatabaseTarget, describeDatabases } from "./support/databases.js";
import { trpcClient } from "./support/keys.js";
import { TEST_WEBHOOKS_KEY } from "./support/webhooks-key.js";

interface WebhookBody {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  createdAt: string;
  disabledReason: string | null;
}

interface DeliveryBody {
  id: string;
  messageId: string;
  type: string;
  status: string;
  attempts: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  statusCode: number | null;
  durationMs: number | null;
  response: string | null;
  createdAt: string;
}

interface ErrorBody {
  code: string;
  message: string;
  issues?: { path: (string | number)[]; message: string }[];
}

type Session = { token: string; wallet: string };

const KEY = Buffer.from(TEST_WEBHOOKS_KEY, "base64");
const HOOK = "https://hooks.example.com/keyport";

/**
 * DNS as the tests need it: the reserved names they use (RFC 2606's example.com, RFC 6761's .invalid)
 * do not resolve, at once, rather than after a round trip to a resolver that a loaded machine may
 * answer only after the check's 2 s timeout; this machine's own name resolves as the system says.
 */
const reservedNamesUnresolved: ResolveHost = (hostname) =>
  /(^|\.)(example\.com|invalid)$/.test(hostname)
    ? Promise.reject(Object.assign(new Error("not found"), { code: "ENOTFOUND" }))
    : systemResolve(hostname);

/** The real app on a loopback port, its log lines captured. */
async function startApp(
  target: Pick<DatabaseTarget, "database" | "url">,
  env: Record<string, string>,
  lines: string[],
): Promise<{ app: App; baseUrl: string }> {
  const settings = {
    DATABASE_URL: target.url,
    WEBHOOKS_ENCRYPTION_KEY: TEST_WEBHOOKS_KEY,
    NONCE_RATE_LIMIT: "off",
    ...env,
  };
  const app = await createApp(parseEnv(settings), {
    database: target.database,
    logger: createLogger("info", logSink(lines)),
    webhookResolve: reservedNamesUnresolved,
  });
  const port = await app.listen(0, "127.0.0.1");
  return { app, baseUrl: `http://127.0.0.1:${port}` };
}

describeDatabases("the webhooks API", (target) => {
  const lines: string[] = [];
  let server: { app: App; baseUrl: string };
  let open: { app: App; baseUrl: string };
  /** Every secret an answer carried: none may appear in a log line, an error or another answer. */
  const secrets: string[] = [];

  beforeAll(async () => {
    server = await startApp(target, {}, lines);
    open = await startApp(target, { WEBHOOKS_ALLOW_PRIVATE: "true" }, lines);
  });
  afterAll(async () => {
    await server.app.close();
    await open.app.close();
  });

  const path = (session: Session, rest = "") => `/api-keys/${session.wallet}/webhooks${rest}`;

  async function create(session: Session, body: Record<string, unknown>, baseUrl = server.baseUrl) {
    const answer = await request(baseUrl, "POST", path(session), { token: session.token, body });
    if (answer.status === 201) secrets.push((answer.body as { secret: string }).secret);
    return answer;
  }

  async function created(session: Session, body: Record<string, unknown> = {}) {
    const answer = await create(session, { url: HOOK, events: ["key.revoked"], ...body });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body as { webhook: WebhookBody; secret: string };
  }

  async function storedRow(id: string) {
    const [row] = await target.database.db.select().from(webhooks).where(eq(webhooks.id, id));
    if (row === undefined) throw new Error(`no webhook ${id}`);
    return row;
  }

  it("creates an endpoint (201) whose whsec_ secret verifies a Standard Webhooks signature, stored only encrypted", async () => {
    const session = await signIn(server.baseUrl);
    const answer = await create(session, {
      url: HOOK,
      events: ["key.created", "key.revoked"],
      description: "  billing backend ",
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const { webhook, secret } = answer.body as { webhook: WebhookBody; secret: string };
    expect(webhook).toEqual({
      id: expect.stringMatching(/^wh_[0-9A-Za-z]{22}$/),
      url: HOOK,
      events: ["key.created", "key.revoked"],
      description: "billing backend",
      enabled: true,
      createdAt: expect.any(String),
      disabledReason: null,
    });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    const signer = new StandardWebhook(secret);
    const body = JSON.stringify({ type: "key.revoked", timestamp: new Date().toISOString(), data: {} });
    const at = new Date();
    const headers = {
      "webhook-id": "msg_01JDZ6TEST",
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": signer.sign("msg_01JDZ6TEST", at, body),
    };
    expect(new StandardWebhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() =>
      new StandardWebhook(`whsec_${Buffer.alloc(32).toString("base64")}`).verify(body, headers),
    ).toThrow();

    const row = await storedRow(webhook.id);
    expect(row.secret).not.toContain(secret.slice(6));
    expect(row.secret).toMatch(/^v1:/);
    expect(decryptSecret(KEY, row.secret)).toBe(secret);
    expect(row.previousSecret).toBeNull();
  });

  it("lists the wallet's endpoints oldest first without any secret, over REST and tRPC", async () => {
    const session = await signIn(server.baseUrl);
    const first = await created(session, { events: ["key.created"] });
    const second = await created(session, { events: ["limits.updated"], description: "second" });
    const listed = await request(server.baseUrl, "GET", path(session), { token: session.token });
    expect(listed.status).toBe(200);
    const { webhooks: list } = listed.body as { webhooks: WebhookBody[] };
    expect(list.map((webhook) => webhook.id)).toEqual([first.webhook.id, second.webhook.id]);
    const text = JSON.stringify(listed.body);
    expect(text).not.toContain("whsec_");
    expect(text).not.toContain("secret");
    const viaTrpc = await trpcClient(server.baseUrl, session.token).webhooks.list.query({
      wallet: session.wallet,
    });
    expect(viaTrpc.webhooks.map((webhook) => [webhook.id, webhook.createdAt instanceof Date])).toEqual([
      [first.webhook.id, true],
      [second.webhook.id, true],
    ]);
  });

  it("changes url, events and description with PATCH, leaving absent fields as they were", async () => {
    const session = await signIn(server.baseUrl);
    const { webhook } = await created(session, { description: "old" });
    const patched = await request(server.baseUrl, "PATCH", path(session, `/${webhook.id}`), {
      token: session.token,
      body: { url: "https://other.example.com/hook", events: ["credits.low", "credits.exhausted"] },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect((patched.body as { webhook: WebhookBody }).webhook).toMatchObject({
      id: webhook.id,
      url: "https://other.example.com/hook",
      events: ["credits.low", "credits.exhausted"],
      description: "old",
      enabled: true,
    });
    const cleared = await request(server.baseUrl, "PATCH", path(session, `/${webhook.id}`), {
      token: session.token,
      body: { description: null },
    });
    expect((cleared.body as { webhook: WebhookBody }).webhook.description).toBeNull();
  });

  it("disables by hand (reason manual) and re-enabling clears any reason, also one the server set", async () => {
    const session = await signIn(server.baseUrl);
    const client = trpcClient(server.baseUrl, session.token);
    const { webhook } = await created(session);
    const disabled = await client.webhooks.update.mutate({
      wallet: session.wallet,
      id: webhook.id,
      enabled: false,
    });
    expect(disabled.webhook).toMatchObject({ enabled: false, disabledReason: "manual" });
    const enabled = await client.webhooks.update.mutate({
      wallet: session.wallet,
      id: webhook.id,
      enabled: true,
    });
    expect(enabled.webhook).toMatchObject({ enabled: true, disabledReason: null });

    // As the delivery engine leaves an endpoint that failed for 3 days.
    await target.database.db
      .update(webhooks)
      .set({ enabled: false, disabledReason: "failing", failingSince: new Date(Date.now() - 4 * 86_400_000) })
      .where(eq(webhooks.id, webhook.id));
    const again = await client.webhooks.update.mutate({
      wallet: session.wallet,
      id: webhook.id,
      enabled: false,
    });
    expect(again.webhook.disabledReason).toBe("failing");
    const back = await client.webhooks.update.mutate({
      wallet: session.wallet,
      id: webhook.id,
      enabled: true,
    });
    expect(back.webhook).toMatchObject({ enabled: true, disabledReason: null });
    // Re-enabled, it starts a new 3-day count: its next failure does not disable it at once.
    expect((await storedRow(webhook.id)).failingSince).toBeNull();
  });

  it("deletes an endpoint with its deliveries; a second delete is 404", async () => {
    const session = await signIn(server.baseUrl);
    const { webhook } = await created(session);
    const client = trpcClient(server.baseUrl, session.token);
    await client.webhooks.test.mutate({ wallet: session.wallet, id: webhook.id });
    const deleted = await request(server.baseUrl, "DELETE", path(session, `/${webhook.id}`), {
      token: session.token,
    });
    expect(deleted).toMatchObject({ status: 200, body: { deleted: true } });
    const rows = await target.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, webhook.id));
    expect(rows).toEqual([]);
    const again = await request(server.baseUrl, "DELETE", path(session, `/${webhook.id}`), {
      token: session.token,
    });
    expect(again.status).toBe(404);
    expect((again.body as ErrorBody).message).toBe("No such webhook");
  });

  it("answers 401 without a session and 403 for another wallet's endpoints, on every route", async () => {
    const owner = await signIn(server.baseUrl);
    const other = await signIn(server.baseUrl);
    const { webhook } = await created(owner);
    const routes: [string, string, unknown][] = [
      ["GET", "", undefined],
      ["POST", "", { url: HOOK, events: ["key.created"] }],
      ["PATCH", `/${webhook.id}`, { enabled: false }],
      ["DELETE", `/${webhook.id}`, undefined],
      ["POST", `/${webhook.id}/rotate-secret`, {}],
      ["POST", `/${webhook.id}/test`, {}],
      ["GET", `/${webhook.id}/deliveries`, undefined],
      ["POST", `/${webhook.id}/deliveries/1/redeliver`, {}],
    ];
    for (const [method, rest, body] of routes) {
      const anonymous = await request(server.baseUrl, method, path(owner, rest), { body });
      expect(anonymous.status, `${method} ${rest}`).toBe(401);
      const foreign = await request(server.baseUrl, method, path(owner, rest), { token: other.token, body });
      expect(foreign.status, `${method} ${rest}`).toBe(403);
    }
    // The other wallet's own path does not reach the owner's endpoint either.
    const unknown = await request(server.baseUrl, "PATCH", path(other, `/${webhook.id}`), {
      token: other.token,
      body: { enabled: false },
    });
    expect(unknown.status).toBe(404);
    expect((await storedRow(webhook.id)).enabled).toBe(true);
  });

  const refusedTargets = [
    "https://127.0.0.1/hook",
    "https://10.1.2.3/hook",
    "https://192.168.0.10/hook",
    "https://169.254.169.254/latest/meta-data",
    "https://[::1]/hook",
    "https://[::ffff:127.0.0.1]/hook",
    // IPv4 inside IPv6, judged by the IPv4 address: IPv4-compatible, SIIT, 6to4, NAT64.
    "https://[::127.0.0.1]/hook",
    "https://[::ffff:0:7f00:1]/hook",
    "https://[2002:7f00:1::]/hook",
    "https://[64:ff9b::a9fe:a9fe]/hook",
    "https://localhost/hook",
    "https://api.localhost/hook",
    "https://0x7f.1/hook",
  ];

  it("refuses loopback, private, link-local and metadata targets with a 400 naming why", async () => {
    const session = await signIn(server.baseUrl);
    for (const url of refusedTargets) {
      const answer = await create(session, { url, events: ["key.created"] });
      expect(answer.status, url).toBe(400);
      expect((answer.body as ErrorBody).message, url).toMatch(
        /^url must not point at a loopback, private, link-local or metadata address/,
      );
    }
    const plain = await create(session, { url: "http://hooks.example.com/keyport", events: ["key.created"] });
    expect(plain.status).toBe(400);
    expect((plain.body as ErrorBody).message).toMatch(/^url must use https/);
    const { webhook } = await created(session);
    const patched = await request(server.baseUrl, "PATCH", path(session, `/${webhook.id}`), {
      token: session.token,
      body: { url: "https://169.254.169.254/" },
    });
    expect(patched.status).toBe(400);
    expect((await storedRow(webhook.id)).url).toBe(HOOK);
  });

  it("refuses a name that resolves to a non-public address, without saying which", async () => {
    // This machine's own name resolves (through /etc/hosts or DNS) to loopback or a private address.
    const name = hostname();
    const addresses = await lookup(name, { all: true });
    expect(addresses.some((answer) => !isPublicAddress(answer.address))).toBe(true);
    const session = await signIn(server.baseUrl);
    const answer = await create(session, { url: `https://${name}/hook`, events: ["key.created"] });
    expect(answer.status).toBe(400);
    const message = (answer.body as ErrorBody).message;
    expect(message).toContain("resolves to a loopback, private, link-local or metadata address");
    for (const { address } of addresses) expect(message).not.toContain(address);
  });

  it("accepts a name that does not resolve yet (the delivery engine checks it at send time)", async () => {
    const session = await signIn(server.baseUrl);
    const answer = await create(session, {
      url: "https://no-such-host.invalid/hook",
      events: ["key.created"],
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  });

  it("allows plain http and the same private targets with WEBHOOKS_ALLOW_PRIVATE=true", async () => {
    const session = await signIn(open.baseUrl);
    for (const url of [...refusedTargets, "http://127.0.0.1:8080/hook", `http://${hostname()}/hook`]) {
      const answer = await create(session, { url, events: ["key.created"] }, open.baseUrl);
      expect(answer.status, `${url}: ${JSON.stringify(answer.body)}`).toBe(201);
      const { webhook } = answer.body as { webhook: WebhookBody };
      await request(open.baseUrl, "DELETE", path(session, `/${webhook.id}`), { token: session.token });
    }
  });

  it("answers 400 for bad input, naming the field", async () => {
    const session = await signIn(server.baseUrl);
    const cases: [Record<string, unknown>, string][] = [
      [{ url: "ftp://example.com/x", events: ["key.created"] }, "url"],
      [{ url: "https://user:pw@example.com/x", events: ["key.created"] }, "url"],
      [{ url: "not a url", events: ["key.created"] }, "url"],
      [{ url: `https://example.com/${"a".repeat(2048)}`, events: ["key.created"] }, "url"],
      [{ url: HOOK, events: ["key.nope"] }, "events"],
      [{ url: HOOK, events: [] }, "events"],
      [{ url: HOOK, events: ["key.created", "key.created"] }, "events"],
      [{ url: HOOK, events: ["webhook.test"] }, "events"],
      [{ url: HOOK, events: ["key.created"], description: "d".repeat(201) }, "description"],
    ];
    for (const [body, field] of cases) {
      const answer = await create(session, body);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      const issues = (answer.body as ErrorBody).issues ?? [];
      expect(
        issues.map((issue) => issue.path[0]),
        JSON.stringify(answer.body),
      ).toContain(field);
    }
    const withPassword = await create(session, {
      url: "https://user:hunter2@example.com/x",
      events: ["key.created"],
    });
    expect(JSON.stringify(withPassword.body)).not.toContain("hunter2");
    const exactly = await create(session, {
      url: HOOK,
      events: ["key.created"],
      description: "d".repeat(200),
    });
    expect(exactly.status).toBe(201);
  });

  it("holds at most 10 endpoints a wallet: the eleventh is 409", async () => {
    const session = await signIn(server.baseUrl);
    for (let i = 0; i < 10; i++) await created(session);
    const eleventh = await create(session, { url: HOOK, events: ["key.created"] });
    expect(eleventh.status).toBe(409);
    expect((eleventh.body as ErrorBody).message).toBe(
      "This wallet already has the maximum of 10 webhook endpoints: delete one first",
    );
    const { webhooks: list } = (await request(server.baseUrl, "GET", path(session), { token: session.token }))
      .body as { webhooks: WebhookBody[] };
    const first = list[0];
    if (first === undefined) throw new Error("no endpoint listed");
    await request(server.baseUrl, "DELETE", path(session, `/${first.id}`), { token: session.token });
    expect((await create(session, { url: HOOK, events: ["key.created"] })).status).toBe(201);
  });

  it("keeps the cap under 20 concurrent creates: exactly 10 succeed", async () => {
    const session = await signIn(server.baseUrl);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => create(session, { url: HOOK, events: ["key.created"] })),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.filter((status) => status === 409)).toHaveLength(10);
    const rows = await target.database.db.select().from(webhooks).where(eq(webhooks.wallet, session.wallet));
    expect(rows).toHaveLength(10);
  });

  it("rotates the secret: a new one answered once, the old kept encrypted for 24 hours", async () => {
    const session = await signIn(server.baseUrl);
    const { webhook, secret: original } = await created(session);
    const before = Date.now();
    const answer = await request(server.baseUrl, "POST", path(session, `/${webhook.id}/rotate-secret`), {
      token: session.token,
    });
    const after = Date.now();
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const { secret, webhook: rotated } = answer.body as { secret: string; webhook: WebhookBody };
    secrets.push(secret);
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(original);
    expect(rotated.id).toBe(webhook.id);
    const row = await storedRow(webhook.id);
    expect(decryptSecret(KEY, row.secret)).toBe(secret);
    expect(decryptSecret(KEY, row.previousSecret ?? "")).toBe(original);
    const expires = row.previousSecretExpiresAt?.getTime() ?? 0;
    expect(expires).toBeGreaterThanOrEqual(before + 86_400_000 - 5);
    expect(expires).toBeLessThanOrEqual(after + 86_400_000 + 5);
    const viaTrpc = await trpcClient(server.baseUrl, session.token).webhooks.rotateSecret.mutate({
      wallet: session.wallet,
      id: webhook.id,
    });
    secrets.push(viaTrpc.secret);
    expect(decryptSecret(KEY, (await storedRow(webhook.id)).previousSecret ?? "")).toBe(secret);
  });

  it("queues a test event to that endpoint alone, and 409 for a disabled one", async () => {
    const session = await signIn(server.baseUrl);
    const { webhook } = await created(session, { events: ["credits.low"] });
    const bystander = await created(session, { events: ["credits.low"] });
    const answer = await request(server.baseUrl, "POST", path(session, `/${webhook.id}/test`), {
      token: session.token,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    const { delivery } = answer.body as { delivery: DeliveryBody };
    expect(delivery).toEqual({
      id: expect.stringMatching(/^[1-9][0-9]*$/),
      messageId: expect.stringMatching(/^msg_[0-9A-HJKMNP-TV-Z]{26}$/),
      type: "webhook.test",
      status: "pending",
      attempts: 0,
      nextAttemptAt: expect.any(String),
      lastAttemptAt: null,
      statusCode: null,
      durationMs: null,
      response: null,
      createdAt: expect.any(String),
    });
    const [message] = await target.database.db
      .select()
      .from(webhookMessages)
      .where(eq(webhookMessages.id, delivery.messageId));
    expect(message).toMatchObject({
      wallet: session.wallet,
      type: "webhook.test",
      keyId: null,
      dedupeKey: null,
    });
    expect(message?.payload).toEqual({
      type: "webhook.test",
      timestamp: delivery.createdAt,
      data: { webhookId: webhook.id, message: "This is a test event from Keyport" },
    });
    const rows = await target.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.messageId, delivery.messageId));
    expect(rows.map((row) => row.webhookId)).toEqual([webhook.id]);
    expect(rows.map((row) => row.webhookId)).not.toContain(bystander.webhook.id);

    const client = trpcClient(server.baseUrl, session.token);
    await client.webhooks.update.mutate({ wallet: session.wallet, id: webhook.id, enabled: false });
    const refused = await request(server.baseUrl, "POST", path(session, `/${webhook.id}/test`), {
      token: session.token,
    });
    expect(refused.status).toBe(409);
    expect((refused.body as ErrorBody).message).toMatch(/disabled: enable it/);
  });

  it("lists deliveries newest first, at most 100, in the WebhookDelivery shape", async () => {
    const session = await signIn(server.baseUrl);
    const { webhook } = await created(session);
    const client = trpcClient(server.baseUrl, session.token);
    const tested: string[] = [];
    for (let i = 0; i < 3; i++) {
      tested.push(
        (await client.webhooks.test.mutate({ wallet: session.wallet, id: webhook.id })).delivery.id,
      );
    }
    const answer = await request(server.baseUrl, "GET", path(session, `/${webhook.id}/deliveries`), {
      token: session.token,
    });
    expect(answer.status).toBe(200);
    const { deliveries } = answer.body as { deliveries: DeliveryBody[] };
    expect(deliveries.map((delivery) => delivery.id)).toEqual([...tested].reverse());
    expect(deliveries.every((delivery) => delivery.type === "webhook.test")).toBe(true);

    // 101 more, written as the outbox would: the log shows the newest 100.
    const messageIds = deliveries.map((delivery) => delivery.messageId);
    for (let i = 0; i < 101; i++) {
      await target.database.db
        .insert(webhookDeliveries)
        .values({ messageId: messageIds[i % messageIds.length] ?? "", webhookId: webhook.id });
    }
    const full = await client.webhooks.deliveries.query({ wallet: session.wallet, id: webhook.id });
    expect(full.deliveries).toHaveLength(100);
    const ids = full.deliveries.map((delivery) => BigInt(delivery.id));
    expect([...ids].sort((a, b) => (a > b ? -1 : 1))).toEqual(ids);
    expect(full.deliveries.some((delivery) => tested.includes(delivery.id))).toBe(false);
    const unknown = await request(
      server.baseUrl,
      "GET",
      path(session, "/wh_0000000000000000000000/deliveries"),
      {
        token: session.token,
      },
    );
    expect(unknown.status).toBe(404);
  });

  it("redelivers a settled delivery: pending again, due now, same message, attempts kept; 409 while pending", async () => {
    const session = await signIn(server.baseUrl);
    const { webhook } = await created(session);
    const client = trpcClient(server.baseUrl, session.token);
    const { delivery } = await client.webhooks.test.mutate({ wallet: session.wallet, id: webhook.id });
    const redeliverPath = path(session, `/${webhook.id}/deliveries/${delivery.id}/redeliver`);

    const pending = await request(server.baseUrl, "POST", redeliverPath, { token: session.token });
    expect(pending.status).toBe(409);
    expect((pending.body as ErrorBody).message).toMatch(/still pending/);

    // As the delivery engine leaves a delivery whose retries ran out.
    const lastAttemptAt = new Date(Date.now() - 60_000);
    await target.database.db
      .update(webhookDeliveries)
      .set({ status: "failed", attempts: 8, nextAttemptAt: null, lastAttemptAt, lastStatusCode: 500 })
      .where(eq(webhookDeliveries.id, Number(delivery.id)));
    const before = Date.now();
    const answer = await request(server.baseUrl, "POST", redeliverPath, { token: session.token });
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    const redelivered = (answer.body as { delivery: DeliveryBody }).delivery;
    expect(redelivered).toMatchObject({
      id: delivery.id,
      messageId: delivery.messageId,
      type: "webhook.test",
      status: "pending",
      attempts: 8,
      statusCode: 500,
    });
    expect(Date.parse(redelivered.nextAttemptAt ?? "")).toBeGreaterThanOrEqual(before - 5);
    expect(Date.parse(redelivered.nextAttemptAt ?? "")).toBeLessThanOrEqual(Date.now() + 5);

    const messages = await target.database.db
      .select()
      .from(webhookMessages)
      .where(and(eq(webhookMessages.wallet, session.wallet), eq(webhookMessages.type, "webhook.test")));
    expect(messages).toHaveLength(1);

    const wrong = await request(
      server.baseUrl,
      "POST",
      path(session, `/${webhook.id}/deliveries/999999999/redeliver`),
      {
        token: session.token,
      },
    );
    expect(wrong.status).toBe(404);
    const malformed = await request(
      server.baseUrl,
      "POST",
      path(session, `/${webhook.id}/deliveries/abc/redeliver`),
      {
        token: session.token,
      },
    );
    expect(malformed.status).toBe(400);
  });

  it("records webhook.created, updated and deleted in the audit trail, never a secret", async () => {
    const session = await signIn(server.baseUrl);
    const client = trpcClient(server.baseUrl, session.token);
    const { webhook } = await created(session, { events: ["key.created"] });
    await client.webhooks.update.mutate({
      wallet: session.wallet,
      id: webhook.id,
      enabled: false,
      events: ["key.leaked"],
    });
    const rotated = await client.webhooks.rotateSecret.mutate({ wallet: session.wallet, id: webhook.id });
    secrets.push(rotated.secret);
    await client.webhooks.delete.mutate({ wallet: session.wallet, id: webhook.id });
    const { events } = await client.events.list.query({ wallet: session.wallet });
    expect(events.map((event) => [event.action, event.keyId, event.changes]).reverse()).toEqual([
      ["session.created", null, expect.any(Object)],
      [
        "webhook.created",
        null,
        { webhookId: webhook.id, url: HOOK, events: ["key.created"], description: null },
      ],
      ["webhook.updated", null, { webhookId: webhook.id, events: ["key.leaked"], enabled: false }],
      [
        "webhook.updated",
        null,
        { webhookId: webhook.id, secretRotated: true, previousSecretExpiresAt: expect.any(String) },
      ],
      ["webhook.deleted", null, { webhookId: webhook.id, url: HOOK }],
    ]);
    const rows = await target.database.db
      .select()
      .from(keyEvents)
      .where(eq(keyEvents.wallet, session.wallet));
    const trail = JSON.stringify(rows);
    for (const secret of secrets) expect(trail).not.toContain(secret.slice(6));
    expect(trail).not.toContain("whsec_");
  });

  it("writes no secret to any log line", () => {
    expect(secrets.length).toBeGreaterThan(10);
    const log = lines.join("\n");
    expect(log.length).toBeGreaterThan(0);
    expect(log).not.toContain("whsec_");
    for (const secret of secrets) expect(log).not.toContain(secret.slice(6));
  });
});
