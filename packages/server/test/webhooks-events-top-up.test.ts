import { randomBytes } from "node:crypto";
import { type Anvil, startAnvil } from "@keyport/test-support/anvil";
import { request } from "@keyport/test-support/http";
import { newAccount, signIn } from "@keyport/test-support/siwe";
import { deployTestUsdc, type TestUsdc } from "@keyport/test-support/test-usdc";
import { signPayment } from "@keyport/test-support/x402-payment";
import { eq } from "drizzle-orm";
import type { Address, Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, expect, it } from "vitest";
import { webhookMessages, webhooks } from "../src/db/schema/index.js";
import { describeDatabases } from "./support/databases.js";
import { createKeyOver } from "./support/keys.js";
import { startTestServer, type TestServer } from "./support/server.js";
import { paymentsEnv, requiredOf, usdc as tokens, topUpOver } from "./support/top-up.js";
import { pollFor, startWebhookReceiver } from "./support/webhook-receiver.js";

let anvil: Anvil;
let token: TestUsdc;
const payTo: Address = privateKeyToAccount(generatePrivateKey()).address;
const settlerKey: Hex = generatePrivateKey();

beforeAll(async () => {
  anvil = await startAnvil();
  token = await deployTestUsdc(anvil.url);
  await token.fundEther(privateKeyToAccount(settlerKey).address);
});
afterAll(() => anvil?.close());

describeDatabases("the credits.topped_up webhook", (target) => {
  const operator = newAccount();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(target, {
      ...paymentsEnv(token, anvil.url, payTo, settlerKey),
      OPERATOR_WALLETS: operator.address,
      WEBHOOKS_ALLOW_PRIVATE: "true",
    });
  });
  afterAll(() => server?.close());

  it("a paid top-up writes one credits.topped_up with the key, its balance after and the payment; a replay none", async () => {
    const owner = await signIn(server.baseUrl);
    await target.database.db.insert(webhooks).values({
      id: `wh_${randomBytes(11).toString("hex")}`,
      wallet: owner.wallet,
      url: "https://example.com/hook",
      events: ["credits.topped_up"],
      secret: "v1:x",
    });
    const created = await createKeyOver(server.baseUrl, owner.token, {
      name: "metered",
      credits: { remaining: 10 },
    });
    const payer = privateKeyToAccount(generatePrivateKey());
    await token.mint(payer.address, tokens(100));
    const unpaid = await topUpOver(server.baseUrl, created.apiKey.id, "5", { token: owner.token });
    expect(unpaid.status).toBe(402);
    const payment = await signPayment(payer, requiredOf(unpaid.headers));
    const paid = () =>
      topUpOver(server.baseUrl, created.apiKey.id, "5", { token: owner.token }, payment.header);
    const answer = await paid();
    expect(answer.status).toBe(200);
    expect((await paid()).status).toBe(200);

    const messages = await target.database.db
      .select()
      .from(webhookMessages)
      .where(eq(webhookMessages.wallet, owner.wallet));
    expect(messages.map((message) => message.type)).toEqual(["credits.topped_up"]);
    const topUp = (answer.body as { topUp: { transaction: string; payer: string } }).topUp;
    const { body } = await request(server.baseUrl, "GET", `/api-keys/${owner.wallet}`, {
      token: owner.token,
    });
    const listed = (body as { keys: { id: string }[] }).keys.find((key) => key.id === created.apiKey.id);
    const { body: trail } = await request(
      server.baseUrl,
      "GET",
      `/api-keys/${owner.wallet}/events?action=key.topped_up`,
      {
        token: owner.token,
      },
    );
    expect(messages[0]?.payload).toEqual({
      type: "credits.topped_up",
      timestamp: (trail as { events: { at: string }[] }).events[0]?.at,
      data: {
        key: listed,
        credits: { remaining: 5010, purchased: 5000 },
        amount: "5",
        credited: 5000,
        payer: topUp.payer,
        transaction: topUp.transaction,
      },
    });
    expect(JSON.stringify(messages[0]?.payload)).not.toContain(created.key);
    expect(JSON.stringify(messages[0]?.payload)).not.toContain(payment.header);
  });

  it("a paid top-up of any wallet reaches the operator's endpoint as payment.settled, signed, once", async () => {
    const receiver = await startWebhookReceiver([]);
    try {
      const session = (await signIn(server.baseUrl, operator)).token;
      const hook = await request(server.baseUrl, "POST", "/operator/webhooks", {
        token: session,
        body: { url: receiver.url, events: ["payment.settled"] },
      });
      expect(hook.status, JSON.stringify(hook.body)).toBe(201);
      const secret = (hook.body as { secret: string }).secret;
      receiver.setSecrets([secret]);
      const owner = await signIn(server.baseUrl);
      const created = await createKeyOver(server.baseUrl, owner.token, {
        name: "paid",
        credits: { remaining: 1 },
      });
      const payer = privateKeyToAccount(generatePrivateKey());
      await token.mint(payer.address, tokens(100));
      const unpaid = await topUpOver(server.baseUrl, created.apiKey.id, "3", { token: owner.token });
      const payment = await signPayment(payer, requiredOf(unpaid.headers));
      const paid = () =>
        topUpOver(server.baseUrl, created.apiKey.id, "3", { token: owner.token }, payment.header);
      const answer = await paid();
      expect(answer.status).toBe(200);
      expect((await paid()).status).toBe(200);
      const got = await pollFor(() => receiver.received[0]);
      expect(got.verifiedBy).toEqual([secret]);
      const topUp = (answer.body as { topUp: { transaction: string } }).topUp;
      expect(JSON.parse(got.body)).toMatchObject({
        type: "payment.settled",
        data: {
          payment: {
            status: "credited",
            kind: "top_up",
            wallet: owner.wallet,
            keyId: created.apiKey.id,
            payer: payer.address.toLowerCase(),
            amount: "3",
            credits: 3000,
            transaction: topUp.transaction,
          },
        },
      });
      // The replay credited nothing more, so nothing more is sent.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });
});
