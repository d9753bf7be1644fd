import { request } from "@keyport/test-support/http";
import { logSink } from "@keyport/test-support/log-sink";
import { type PaymentsChain, startPaymentsChain } from "@keyport/test-support/payments-chain";
import { signIn } from "@keyport/test-support/siwe";
import { signPayment } from "@keyport/test-support/x402-payment";
import { decodePaymentSignatureHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type App, createApp } from "../src/app.js";
import { parseEnv } from "../src/env.js";
import { createLogger } from "../src/logger.js";
import { describeDatabases } from "./support/databases.js";
import { createKeyOver } from "./support/keys.js";
import { type RpcFaultProxy, startRpcFaultProxy } from "./support/rpc-fault-proxy.js";
import { creditsRemaining, requiredOf, topUpOver, usdc } from "./support/top-up.js";
import { TEST_WEBHOOKS_KEY } from "./support/webhooks-key.js";

// Payments settled in this process, through a JSON-RPC proxy that answers 429 or 500 for the methods a
// test names (docs/payments.md#when-the-chain-does-not-answer). A promise the settlement library left
// rejected and unobserved fails the run (vitest reports unhandled rejections).

let chain: PaymentsChain;
let proxy: RpcFaultProxy;

beforeAll(async () => {
  chain = await startPaymentsChain();
  proxy = await startRpcFaultProxy(chain.anvil.url);
});
afterAll(async () => {
  await proxy?.close();
  await chain?.close();
});

describeDatabases("top-ups while the payments node fails", (target) => {
  let app: App;
  let baseUrl: string;
  let owner: { token: string; wallet: string };
  const log: string[] = [];
  beforeAll(async () => {
    const env = parseEnv({
      DATABASE_URL: target.url,
      WEBHOOKS_ENCRYPTION_KEY: TEST_WEBHOOKS_KEY,
      NONCE_RATE_LIMIT: "off",
      ...chain.env,
      PAYMENTS_RPC_URL: proxy.url,
    });
    app = await createApp(env, { database: target.database, logger: createLogger("debug", logSink(log)) });
    baseUrl = `http://127.0.0.1:${await app.listen(0, "127.0.0.1")}`;
    owner = await signIn(baseUrl);
  });
  afterAll(() => app?.close());

  async function meteredKey() {
    const { apiKey } = await createKeyOver(baseUrl, owner.token, { name: "m", credits: { remaining: 10 } });
    return apiKey.id;
  }

  const remainingOf = (id: string) => creditsRemaining(baseUrl, owner, id);

  async function signedFor(id: string) {
    const payer = await chain.newPayer(100);
    const unpaid = await topUpOver(baseUrl, id, "5", { token: owner.token });
    return { payer, payment: await signPayment(payer, requiredOf(unpaid.headers)) };
  }

  it("answers 503 and keeps serving when eth_getCode is rate-limited while a junk payment is checked", async () => {
    const id = await meteredKey();
    const { payment } = await signedFor(id);
    // A bad signature: the library returns before it awaits the asset check it started.
    const payload = decodePaymentSignatureHeader(payment.header);
    const signature = String(payload.payload.signature);
    const flipped = `${signature.slice(0, -4)}${signature.endsWith("00") ? "11" : "00"}${signature.slice(-2)}`;
    const junk = encodePaymentSignatureHeader({
      ...payload,
      payload: { ...payload.payload, signature: flipped },
    });
    proxy.fail("eth_getCode", 429);
    try {
      const answer = await topUpOver(baseUrl, id, "5", { token: owner.token }, junk);
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
      expect((answer.body as { message: string }).message).toMatch(/nothing was charged/);
      expect(proxy.failed("eth_getCode")).toBeGreaterThan(0);
    } finally {
      proxy.fail("eth_getCode", undefined);
    }
    // Give a rejection left behind the time to surface before the run ends.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await request(baseUrl, "GET", "/healthz")).status).toBe(200);
  });

  it("answers 503, not 402, when eth_call fails during the check; the same payment is credited once the node answers", async () => {
    const id = await meteredKey();
    const { payer, payment } = await signedFor(id);
    proxy.fail("eth_call", 500);
    try {
      const answer = await topUpOver(baseUrl, id, "5", { token: owner.token }, payment.header);
      expect(answer.status).toBe(503);
      expect((answer.body as { message: string }).message).toMatch(/nothing was charged/);
    } finally {
      proxy.fail("eth_call", undefined);
    }
    expect(await chain.usdc.balanceOf(payer.address)).toBe(usdc(100));
    expect(await remainingOf(id)).toBe(10);
    const again = await topUpOver(baseUrl, id, "5", { token: owner.token }, payment.header);
    expect(again.status).toBe(200);
    expect(await remainingOf(id)).toBe(5010);
  });

  it("after the transfer is sent, answers 503 'may still be credited'; the same payment again answers its result", async () => {
    const id = await meteredKey();
    const { payer, payment } = await signedFor(id);
    proxy.fail("eth_getTransactionReceipt", 429);
    try {
      const answer = await topUpOver(baseUrl, id, "5", { token: owner.token }, payment.header);
      expect(answer.status).toBe(503);
      expect((answer.body as { message: string }).message).toMatch(
        /may still be credited: send the same payment again to see its result/,
      );
    } finally {
      proxy.fail("eth_getTransactionReceipt", undefined);
    }
    expect(await chain.usdc.balanceOf(payer.address)).toBe(usdc(95));
    const again = await topUpOver(baseUrl, id, "5", { token: owner.token }, payment.header);
    expect(again.status).toBe(200);
    expect(await remainingOf(id)).toBe(5010);
  });

  it("never logs the node's URL or a payment header", () => {
    const text = log.join("\n");
    expect(text).not.toContain(new URL(proxy.url).host);
    expect(text).not.toMatch(/Request body|eyJ4NDAyVmVyc2lvbi/);
  });
});
