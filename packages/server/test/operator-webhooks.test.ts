import { randomBytes } from "node:crypto";
import { request } from "@keyport/test-support/http";
import { newAccount, signIn } from "@keyport/test-support/siwe";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { apiKeys, operatorEvents, payments, webhooks } from "../src/db/schema/index.js";
import { creditPayment } from "../src/payments/credit-payment.js";
import { describeDatabases } from "./support/databases.js";
import { createKeyOver } from "./support/keys.js";
import { startTestServer, type TestServer } from "./support/server.js";
import { pollFor, startWebhookReceiver, type WebhookReceiver } from "./support/webhook-receiver.js";

// The operator's own endpoints (docs/operator.md#webhooks): managed by an operator session only,
// receiving deployment-wide events of every wallet through the same outbox, signed with their secret.

interface Hook {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
}

describeDatabases("operator webhooks", (target) => {
  const operator = newAccount();
  let server: TestServer;
  let receiver: WebhookReceiver;
  let walletReceiver: WebhookReceiver;
  let session: string;

  beforeAll(async () => {
    server = await startTestServer(target, {
      OPERATOR_WALLETS: operator.address,
      WEBHOOKS_ALLOW_PRIVATE: "true",
    });
    receiver = await startWebhookReceiver([]);
    walletReceiver = await startWebhookReceiver([]);
    session = (await signIn(server.baseUrl, operator)).token;
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
    await walletReceiver.close();
  });

  const call = (method: string, path: string, body?: unknown, token: string = session) =>
    request(server.baseUrl, method, path, { token, ...(body === undefined ? {} : { body }) });

  /** An operator endpoint on `url` for `events`, and its secret. */
  const createHook = async (url: string, events: string[]) => {
    const created = await call("POST", "/operator/webhooks", { url, events });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body as { webhook: Hook; secret: string };
  };

  it("an operator session creates, reads, changes, rotates and deletes endpoints, each in the operator trail", async () => {
    const { webhook, secret } = await createHook("https://example.com/ops", [
      "payment.settled",
      "key.leaked",
    ]);
    expect(secret).toMatch(/^whsec_/);
    expect(webhook).toMatchObject({ url: "https://example.com/ops", enabled: true, disabledReason: null });
    expect((await call("GET", "/operator/webhooks")).body).toMatchObject({ webhooks: [{ id: webhook.id }] });
    expect((await call("GET", `/operator/webhooks/${webhook.id}`)).body).toEqual({ webhook });
    const patched = await call("PATCH", `/operator/webhooks/${webhook.id}`, {
      events: ["wallet.suspended", "wallet.unsuspended"],
      enabled: false,
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      webhook: {
        events: ["wallet.suspended", "wallet.unsuspended"],
        enabled: false,
        disabledReason: "manual",
      },
    });
    const rotated = await call("POST", `/operator/webhooks/${webhook.id}/rotate-secret`);
    expect((rotated.body as { secret: string }).secret).not.toBe(secret);
    expect((await call("POST", `/operator/webhooks/${webhook.id}/test`)).status).toBe(409);
    expect((await call("DELETE", `/operator/webhooks/${webhook.id}`)).status).toBe(200);
    expect((await call("GET", `/operator/webhooks/${webhook.id}`)).status).toBe(404);
    expect((await call("DELETE", `/operator/webhooks/${webhook.id}`)).status).toBe(404);

    const trail = await target.database.db
      .select()
      .from(operatorEvents)
      .where(eq(operatorEvents.action, "webhook.created"));
    expect(trail.some((event) => JSON.stringify(event.changes).includes(webhook.id))).toBe(true);
    const audit = await call("GET", "/operator/events?limit=10");
    const actions = (audit.body as { events: { action: string; actor: unknown; changes: object }[] }).events
      .filter((event) => JSON.stringify(event.changes).includes(webhook.id))
      .map((event) => event.action);
    expect(actions).toEqual(["webhook.deleted", "webhook.updated", "webhook.updated", "webhook.created"]);
    expect(JSON.stringify(audit.body)).not.toContain("whsec_");
    // The wallets' trail and lists never see them.
    const wallet = await signIn(server.baseUrl, operator);
    const own = await call("GET", `/api-keys/${wallet.wallet}/webhooks`, undefined, wallet.token);
    expect(own.body).toEqual({ webhooks: [] });
  });

  it("refuses tokens (even with every scope), wallet sessions, anonymous callers and wallet-only events", async () => {
    const minted = await call("POST", "/operator/tokens", {
      name: "all",
      scopes: ["wallets:read", "wallets:write", "keys:write", "keys:issue", "payments:read", "usage:read"],
    });
    const token = (minted.body as { secret: string }).secret;
    const wallet = (await signIn(server.baseUrl)).token;
    const id = `wh_${"a".repeat(22)}`;
    const routes: [string, string, unknown?][] = [
      ["GET", "/operator/webhooks"],
      ["POST", "/operator/webhooks", { url: "https://example.com/x", events: ["key.leaked"] }],
      ["GET", `/operator/webhooks/${id}`],
      ["PATCH", `/operator/webhooks/${id}`, { enabled: false }],
      ["DELETE", `/operator/webhooks/${id}`],
      ["POST", `/operator/webhooks/${id}/rotate-secret`],
      ["POST", `/operator/webhooks/${id}/test`],
      ["GET", `/operator/webhooks/${id}/deliveries`],
    ];
    for (const [method, path, body] of routes) {
      expect((await call(method, path, body, token)).status, `${method} ${path} by a token`).toBe(403);
      expect((await call(method, path, body, wallet)).status, `${method} ${path} by a wallet`).toBe(403);
      expect((await request(server.baseUrl, method, path, body === undefined ? {} : { body })).status).toBe(
        401,
      );
    }
    expect((await call("GET", `/operator/webhooks/${id}`)).status).toBe(404);
    // A wallet's own event type is not the operator's, and the URL policy is the wallets'.
    const refused = await call("POST", "/operator/webhooks", {
      url: "https://example.com/x",
      events: ["key.created"],
    });
    expect(refused.status).toBe(400);
    const strict = await startTestServer(target, { OPERATOR_WALLETS: operator.address });
    try {
      const strictSession = (await signIn(strict.baseUrl, operator)).token;
      const local = await request(strict.baseUrl, "POST", "/operator/webhooks", {
        token: strictSession,
        body: { url: "https://127.0.0.1/hook", events: ["key.leaked"] },
      });
      expect(local.status).toBe(400);
      expect(local.body).toMatchObject({ code: "BAD_REQUEST" });
    } finally {
      await strict.close();
    }
  });

  it("delivers a leaked key and a credited payment of any wallet to the operator's endpoint, signed; a wallet's endpoint gets only its own", async () => {
    const { webhook, secret } = await createHook(receiver.url, ["key.leaked", "payment.settled"]);
    receiver.setSecrets([secret]);
    const tested = await call("POST", `/operator/webhooks/${webhook.id}/test`);
    expect(tested.status).toBe(202);
    await pollFor(() => receiver.received.find((got) => got.body.includes("webhook.test")));

    // Two wallets; the second watches its own key.leaked.
    const a = await signIn(server.baseUrl);
    const b = await signIn(server.baseUrl);
    const own = await request(server.baseUrl, "POST", `/api-keys/${b.wallet}/webhooks`, {
      token: b.token,
      body: { url: walletReceiver.url, events: ["key.leaked"] },
    });
    walletReceiver.setSecrets([(own.body as { secret: string }).secret]);
    const leaked = await createKeyOver(server.baseUrl, a.token, { name: "leaky" });
    const bKey = await createKeyOver(server.baseUrl, b.token, { name: "b's", credits: { remaining: 10 } });
    const [credits] = await target.database.db
      .select({ id: apiKeys.creditsId })
      .from(apiKeys)
      .where(eq(apiKeys.id, bKey.apiKey.id));
    expect(
      (await request(server.baseUrl, "POST", "/api-keys/report-leak", { body: { key: leaked.key } })).status,
    ).toBe(202);
    const leak = await pollFor(() => receiver.received.find((got) => got.body.includes('"key.leaked"')));
    expect(leak.verifiedBy).toEqual([secret]);
    expect(JSON.parse(leak.body)).toMatchObject({
      type: "key.leaked",
      data: { key: { id: leaked.apiKey.id, wallet: a.wallet } },
    });

    // A top-up credited for b's key: the payment row as the top-up records it, then credited.
    const [row] = await target.database.db
      .insert(payments)
      .values({
        network: "eip155:8453",
        asset: "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913",
        payer: newAccount().address.toLowerCase(),
        nonce: `0x${randomBytes(32).toString("hex")}`,
        signatureHash: randomBytes(32).toString("hex"),
        keyId: bKey.apiKey.id,
        creditsId: credits?.id ?? "",
        wallet: b.wallet,
        amount: "2",
        baseUnits: "2000000",
        credits: 2000,
        validBefore: new Date(Date.now() + 3_600_000),
        status: "settled",
        lockedUntil: new Date(),
      })
      .returning();
    if (row === undefined) throw new Error("no payment row");
    const transaction = `0x${randomBytes(32).toString("hex")}`;
    await creditPayment(
      target.database.db,
      server.app.services.verification.balances,
      row,
      transaction,
      new Date(),
    );
    const paid = await pollFor(() => receiver.received.find((got) => got.body.includes('"payment.settled"')));
    expect(paid.verifiedBy).toEqual([secret]);
    expect(JSON.parse(paid.body)).toMatchObject({
      type: "payment.settled",
      data: {
        payment: {
          id: String(row.id),
          status: "credited",
          kind: "top_up",
          wallet: b.wallet,
          keyId: bKey.apiKey.id,
          amount: "2",
          credits: 2000,
          planId: null,
          days: null,
          transaction,
        },
      },
    });

    // b's own endpoint: its own key's leak reaches it, a's never does; b's payment is not its type.
    expect(
      (await request(server.baseUrl, "POST", "/api-keys/report-leak", { body: { key: bKey.key } })).status,
    ).toBe(202);
    await pollFor(() => walletReceiver.received.find((got) => got.body.includes(bKey.apiKey.id)));
    await pollFor(() =>
      receiver.received.find((got) => got.body.includes(`"key.leaked"`) && got.body.includes(bKey.apiKey.id)),
    );
    expect(walletReceiver.received.map((got) => JSON.parse(got.body).type)).toEqual(["key.leaked"]);
    expect(walletReceiver.received.some((got) => got.body.includes(leaked.apiKey.id))).toBe(false);

    const log = await call("GET", `/operator/webhooks/${webhook.id}/deliveries`);
    const types = (log.body as { deliveries: { type: string; status: string }[] }).deliveries.map(
      (d) => d.type,
    );
    expect(types.sort()).toEqual(["key.leaked", "key.leaked", "payment.settled", "webhook.test"]);
    const stored = await target.database.db.select().from(webhooks).where(eq(webhooks.id, webhook.id));
    expect(stored[0]?.wallet).toBe("operator");
  });
});
