import { request } from "@keyport/test-support/http";
import { newAccount, signIn } from "@keyport/test-support/siwe";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDatabases } from "./support/databases.js";
import { startTestServer, type TestServer } from "./support/server.js";
import { pollFor, startWebhookReceiver, type WebhookReceiver } from "./support/webhook-receiver.js";

// A wallet's plan change is sent as `wallet.plan_changed` to the wallet's own endpoints and to the
// operator's endpoints subscribed to it (docs/plans.md#the-api, docs/operator.md#webhooks).

describeDatabases("wallet.plan_changed webhooks", (target) => {
  const operator = newAccount();
  let server: TestServer;
  let operatorReceiver: WebhookReceiver;
  let walletReceiver: WebhookReceiver;
  let session: string;

  beforeAll(async () => {
    server = await startTestServer(target, {
      OPERATOR_WALLETS: operator.address,
      WEBHOOKS_ALLOW_PRIVATE: "true",
    });
    operatorReceiver = await startWebhookReceiver([]);
    walletReceiver = await startWebhookReceiver([]);
    session = (await signIn(server.baseUrl, operator)).token;
  });
  afterAll(async () => {
    await server.close();
    await operatorReceiver.close();
    await walletReceiver.close();
  });

  it("reaches the wallet's endpoint and the operator's, naming the plans and the reason, never the operator", async () => {
    const hook = await request(server.baseUrl, "POST", "/operator/webhooks", {
      token: session,
      body: { url: operatorReceiver.url, events: ["wallet.plan_changed"] },
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    operatorReceiver.setSecrets([(hook.body as { secret: string }).secret]);
    const owner = await signIn(server.baseUrl);
    const own = await request(server.baseUrl, "POST", `/api-keys/${owner.wallet}/webhooks`, {
      token: owner.token,
      body: { url: walletReceiver.url, events: ["wallet.plan_changed"] },
    });
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    walletReceiver.setSecrets([(own.body as { secret: string }).secret]);

    expect(
      (
        await request(server.baseUrl, "POST", "/operator/plans", {
          token: session,
          body: { id: "gold", name: "Gold" },
        })
      ).status,
    ).toBe(201);
    const set = await request(server.baseUrl, "POST", `/operator/wallets/${owner.wallet}/plan`, {
      token: session,
      body: { planId: "gold", reason: "pilot" },
    });
    expect(set.status).toBe(200);
    for (const receiver of [walletReceiver, operatorReceiver]) {
      const got = await pollFor(() =>
        receiver.received.find((r) => r.body.includes('"wallet.plan_changed"')),
      );
      const body = JSON.parse(got.body) as { type: string; data: unknown };
      expect(body.data).toMatchObject({
        wallet: owner.wallet,
        changes: { actor: "operator", planId: "gold", previousPlanId: "free", reason: "pilot" },
      });
      expect(got.body.toLowerCase()).not.toContain(operator.address.toLowerCase());
    }
  });
});
