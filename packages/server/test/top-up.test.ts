import { createServer } from "node:net";
import { type Anvil, startAnvil } from "@keyport/test-support/anvil";
import { request } from "@keyport/test-support/http";
import { parsePrometheus, sampleValue } from "@keyport/test-support/prometheus";
import { signIn } from "@keyport/test-support/siwe";
import { deployTestUsdc, type TestUsdc } from "@keyport/test-support/test-usdc";
import { signPayment } from "@keyport/test-support/x402-payment";
import { decodePaymentResponseHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import { type Address, getAddress, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeDatabases } from "./support/databases.js";
import {
  type FacilitatorStandIn,
  REFUSED_REASON,
  startFacilitatorStandIn,
} from "./support/facilitator-stand-in.js";
import { createKeyOver, trpcClient } from "./support/keys.js";
import { removeRedisKeys, sharedRedisEnv, startTestServer, type TestServer } from "./support/server.js";
import { alteredRequirement, paymentsEnv, requiredOf, usdc as tokens, topUpOver } from "./support/top-up.js";

const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;

/** A loopback port nothing listens on (taken, then freed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

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

/** A payer holding `whole` test USDC. */
async function fundedPayer(whole = 100) {
  const payer = privateKeyToAccount(generatePrivateKey());
  await token.mint(payer.address, tokens(whole));
  return payer;
}

interface KeyBody {
  key: string;
  apiKey: { id: string; credits: { remaining: number } | null };
}

function topUpSuite(name: string, extraEnv: () => Record<string, string>) {
  describeDatabases(name, (target) => {
    let server: TestServer;
    let owner: { token: string; wallet: string };
    beforeAll(async () => {
      server = await startTestServer(target, {
        ...paymentsEnv(token, anvil.url, payTo, settlerKey),
        ...extraEnv(),
      });
      owner = await signIn(server.baseUrl);
    });
    afterAll(async () => {
      await server?.close();
      await removeRedisKeys(extraEnv());
    });

    const meteredKey = async (remaining = 10) =>
      (await createKeyOver(server.baseUrl, owner.token, {
        name: "metered",
        credits: { remaining },
      })) as unknown as KeyBody;

    async function remainingOf(id: string): Promise<number | undefined> {
      const { body } = await request(server.baseUrl, "GET", `/api-keys/${owner.wallet}`, {
        token: owner.token,
      });
      const keys = (body as { keys: KeyBody["apiKey"][] }).keys;
      return keys.find((key) => key.id === id)?.credits?.remaining;
    }

    async function required(id: string, amount = "5"): Promise<PaymentRequired> {
      const answer = await topUpOver(server.baseUrl, id, amount, { token: owner.token });
      expect(answer.status).toBe(402);
      return requiredOf(answer.headers);
    }

    it("answers a request without payment with 402, the envelope and an x402 v2 PAYMENT-REQUIRED", async () => {
      const { apiKey } = await meteredKey();
      const answer = await topUpOver(server.baseUrl, apiKey.id, "5", { token: owner.token });
      expect(answer.status).toBe(402);
      expect(answer.body).toEqual({
        code: "PAYMENT_REQUIRED",
        message: "PAYMENT-SIGNATURE is required: pay the amount in PAYMENT-REQUIRED",
      });
      const paymentRequired = requiredOf(answer.headers);
      expect(paymentRequired.x402Version).toBe(2);
      expect(paymentRequired.resource.url).toMatch(new RegExp(`/api-keys/${apiKey.id}/top-up$`));
      expect(paymentRequired.accepts).toEqual([
        {
          scheme: "exact",
          network: token.network,
          amount: "5000000",
          asset: token.address,
          payTo: getAddress(payTo),
          maxTimeoutSeconds: 60,
          extra: { name: "USD Coin", version: "2" },
        },
      ]);
    });

    it("lets the owner top up over REST: the payer pays exactly the amount, the key gains its credits", async () => {
      const { apiKey } = await meteredKey(10);
      const payer = await fundedPayer();
      const payToBefore = await token.balanceOf(payTo);
      const payment = await signPayment(payer, await required(apiKey.id));
      const answer = await topUpOver(server.baseUrl, apiKey.id, "5", { token: owner.token }, payment.header);
      expect(answer.status).toBe(200);
      const body = answer.body as { apiKey: KeyBody["apiKey"]; topUp: Record<string, unknown> };
      expect(body.topUp).toMatchObject({
        amount: "5",
        credits: 5000,
        payer: payer.address.toLowerCase(),
        network: token.network,
      });
      expect(body.apiKey.credits?.remaining).toBe(5010);
      const settled = decodePaymentResponseHeader(answer.headers.get("payment-response") ?? "");
      expect(settled).toMatchObject({
        success: true,
        transaction: body.topUp.transaction,
        network: token.network,
      });
      expect(await token.balanceOf(payer.address)).toBe(tokens(95));
      expect((await token.balanceOf(payTo)) - payToBefore).toBe(tokens(5));
      expect(await remainingOf(apiKey.id)).toBe(5010);

      const events = await request(
        server.baseUrl,
        "GET",
        `/api-keys/${owner.wallet}/events?keyId=${apiKey.id}`,
        {
          token: owner.token,
        },
      );
      const [event] = (events.body as { events: { action: string; changes: Record<string, unknown> }[] })
        .events;
      expect(event).toMatchObject({
        action: "key.topped_up",
        changes: {
          amount: "5",
          credits: 5000,
          payer: payer.address.toLowerCase(),
          transaction: body.topUp.transaction,
        },
      });
      expect(JSON.stringify(events.body)).not.toContain(payment.header);
    });

    async function topUpMetrics() {
      const response = await fetch(`${server.baseUrl}/metrics`);
      const samples = parsePrometheus(await response.text());
      const of = (outcome: string) => ({
        count: sampleValue(samples, "keyport_top_ups_total", { outcome }),
        baseUnits: sampleValue(samples, "keyport_top_up_base_units_total", { outcome }),
      });
      return { credited: of("credited"), replayed: of("replayed") };
    }

    it("answers the same payment again with the first answer and adds nothing", async () => {
      const before = await topUpMetrics();
      const { apiKey } = await meteredKey(10);
      const payer = await fundedPayer();
      const payment = await signPayment(payer, await required(apiKey.id));
      const first = await topUpOver(server.baseUrl, apiKey.id, "5", { token: owner.token }, payment.header);
      const again = await topUpOver(server.baseUrl, apiKey.id, "5", { token: owner.token }, payment.header);
      expect(first.status).toBe(200);
      expect(again.status).toBe(200);
      expect((again.body as { topUp: unknown }).topUp).toEqual((first.body as { topUp: unknown }).topUp);
      expect(await remainingOf(apiKey.id)).toBe(5010);
      expect(await token.balanceOf(payer.address)).toBe(tokens(95));
      const after = await topUpMetrics();
      expect(after.credited.count - before.credited.count).toBe(1);
      expect(after.credited.baseUnits - before.credited.baseUnits).toBe(5_000_000);
      expect(after.replayed.count - before.replayed.count).toBe(1);
    });

    it("lets the key's holder top up with X-API-Key and no session", async () => {
      const { key, apiKey } = await meteredKey(0);
      const payer = await fundedPayer();
      const unpaid = await topUpOver(server.baseUrl, apiKey.id, "2", { apiKey: key });
      expect(unpaid.status).toBe(402);
      const payment = await signPayment(payer, requiredOf(unpaid.headers));
      const answer = await topUpOver(server.baseUrl, apiKey.id, "2", { apiKey: key }, payment.header);
      expect(answer.status).toBe(200);
      expect(await remainingOf(apiKey.id)).toBe(2000);
      const other = await meteredKey();
      expect((await topUpOver(server.baseUrl, other.apiKey.id, "2", { apiKey: key })).status).toBe(404);
    });

    it("tops up over tRPC: the quote is the requirement, the payment travels in the input", async () => {
      const { apiKey } = await meteredKey(1);
      const payer = await fundedPayer();
      const client = trpcClient(server.baseUrl, owner.token, false);
      const quote = await client.keys.topUpQuote.query({ id: apiKey.id, amount: "1.5" });
      expect(quote).toMatchObject({
        amount: "1.5",
        credits: 1500,
        requirement: { amount: "1500000", network: token.network },
      });
      const payment = await signPayment(payer, {
        x402Version: 2,
        resource: { url: "https://api.example/anything" },
        accepts: [{ ...quote.requirement, network: token.network }],
      });
      const answer = await client.keys.topUp.mutate({
        id: apiKey.id,
        amount: "1.5",
        payment: payment.header,
      });
      expect(answer.topUp).toMatchObject({ amount: "1.5", credits: 1500 });
      expect(answer.apiKey.credits?.remaining).toBe(1501);
      await expect(client.keys.topUp.mutate({ id: apiKey.id, amount: "1.5" })).rejects.toMatchObject({
        data: { code: "PAYMENT_REQUIRED", httpStatus: 402 },
      });
    });

    it("checks the caller, the key, its state and the amount, in that order", async () => {
      const { apiKey } = await meteredKey();
      const stranger = await signIn(server.baseUrl);
      const unmetered = await createKeyOver(server.baseUrl, owner.token, { name: "free" });
      const revoked = await meteredKey();
      await request(server.baseUrl, "DELETE", `/api-keys/${revoked.apiKey.id}`, { token: owner.token });
      const status = async (id: string, amount: string, caller: Parameters<typeof topUpOver>[3]) =>
        (await topUpOver(server.baseUrl, id, amount, caller)).status;
      expect(await status("key_doesnotexist000000", "x", {})).toBe(401);
      expect(await status(apiKey.id, "x", { apiKey: "kp_notakey" })).toBe(401);
      expect(await status(apiKey.id, "x", { token: stranger.token })).toBe(404);
      expect(await status(unmetered.apiKey.id, "x", { token: owner.token })).toBe(409);
      expect(await status(revoked.apiKey.id, "x", { token: owner.token })).toBe(409);
      for (const amount of ["x", "0.5", "1001", "1.0000001", "-2", "1e3"]) {
        const answer = await topUpOver(server.baseUrl, apiKey.id, amount, { token: owner.token });
        expect(answer.status).toBe(400);
        expect(answer.body).toMatchObject({ code: "BAD_REQUEST" });
      }
      expect(await status(apiKey.id, "1000", { token: owner.token })).toBe(402);
    });

    it("refuses a payment for another amount, asset, network or payTo, or an expired one: 402, nothing paid", async () => {
      const { apiKey } = await meteredKey(10);
      const payer = await fundedPayer();
      const wanted = await required(apiKey.id);
      const other = privateKeyToAccount(generatePrivateKey()).address;
      const cases: [PaymentRequired, string][] = [
        [alteredRequirement(wanted, { amount: "4000000" }), "The payment is for another amount"],
        [alteredRequirement(wanted, { asset: other }), "The payment is in another asset"],
        [alteredRequirement(wanted, { network: "eip155:8453" }), "The payment is for another network"],
        [alteredRequirement(wanted, { payTo: other }), "The payment is to another address"],
      ];
      for (const [requirement, message] of cases) {
        const payment = await signPayment(payer, requirement);
        const answer = await topUpOver(
          server.baseUrl,
          apiKey.id,
          "5",
          { token: owner.token },
          payment.header,
        );
        expect(answer.status).toBe(402);
        expect(answer.body).toEqual({ code: "PAYMENT_REQUIRED", message });
        expect(requiredOf(answer.headers).accepts[0]?.amount).toBe("5000000");
      }
      const expired = await signPayment(payer, wanted, { expiresInSeconds: 1 });
      const answer = await topUpOver(server.baseUrl, apiKey.id, "5", { token: owner.token }, expired.header);
      expect(answer.status).toBe(402);
      expect(answer.body).toEqual({
        code: "PAYMENT_REQUIRED",
        message: "The payment authorization has expired",
      });
      const garbage = await topUpOver(
        server.baseUrl,
        apiKey.id,
        "5",
        { token: owner.token },
        "bm90IGEgcGF5bWVudA==",
      );
      expect(garbage.status).toBe(402);
      expect(await token.balanceOf(payer.address)).toBe(tokens(100));
      expect(await remainingOf(apiKey.id)).toBe(10);
    });

    it("credits a settlement that reverts (a blocked payer) with nothing: 402 with the reason", async () => {
      const { apiKey } = await meteredKey(10);
      const payer = await fundedPayer();
      const payment = await signPayment(payer, await required(apiKey.id));
      await token.setBlocked(payer.address, true);
      const answer = await topUpOver(server.baseUrl, apiKey.id, "5", { token: owner.token }, payment.header);
      expect(answer.status).toBe(402);
      expect((answer.body as { message: string }).message).toMatch(
        /^The (payment was refused|settlement failed): /,
      );
      expect(await token.balanceOf(payer.address)).toBe(tokens(100));
      expect(await remainingOf(apiKey.id)).toBe(10);
      const again = await topUpOver(server.baseUrl, apiKey.id, "5", { token: owner.token }, payment.header);
      expect(again.body).toEqual(answer.body);
    });

    it("credits 20 concurrent distinct payments, each once", async () => {
      const { apiKey } = await meteredKey(0);
      const payers = await Promise.all(Array.from({ length: 20 }, () => fundedPayer(10)));
      const wanted = await required(apiKey.id, "1");
      const payments = await Promise.all(payers.map((payer) => signPayment(payer, wanted)));
      const answers = await Promise.all(
        payments.map((payment) =>
          topUpOver(server.baseUrl, apiKey.id, "1", { token: owner.token }, payment.header),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
      expect(await remainingOf(apiKey.id)).toBe(20_000);
      for (const payer of payers) expect(await token.balanceOf(payer.address)).toBe(tokens(9));
    });

    it("credits 20 concurrent identical payments once, and answers them all alike", async () => {
      const { apiKey } = await meteredKey(0);
      const payer = await fundedPayer();
      const payment = await signPayment(payer, await required(apiKey.id, "3"));
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          topUpOver(server.baseUrl, apiKey.id, "3", { token: owner.token }, payment.header),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
      const topUps = new Set(
        answers.map((answer) => JSON.stringify((answer.body as { topUp: unknown }).topUp)),
      );
      expect(topUps.size).toBe(1);
      expect(await remainingOf(apiKey.id)).toBe(3000);
      expect(await token.balanceOf(payer.address)).toBe(tokens(97));
    });
  });
}

describe("top-ups", () => {
  topUpSuite("top-ups settled in-process", () => ({}));
  describe.runIf(TEST_REDIS_URL)("with credits in Redis", () => {
    const env = sharedRedisEnv(TEST_REDIS_URL ?? "");
    topUpSuite("top-ups with REDIS_URL", () => env);
  });
});

describeDatabases("top-ups that cannot be settled", (target) => {
  let off: TestServer;
  let down: TestServer;
  let owner: { token: string; wallet: string };
  beforeAll(async () => {
    off = await startTestServer(target);
    down = await startTestServer(target, {
      ...paymentsEnv(token, `http://127.0.0.1:${await closedPort()}`, payTo, settlerKey),
    });
    owner = await signIn(down.baseUrl);
  });
  afterAll(async () => {
    await Promise.all([off?.close(), down?.close()]);
  });

  it("answers 501 while payments are off, after the key's own checks", async () => {
    const { apiKey } = await createKeyOver(off.baseUrl, owner.token, {
      name: "m",
      credits: { remaining: 1 },
    });
    expect((await topUpOver(off.baseUrl, "key_doesnotexist000000", "5", { token: owner.token })).status).toBe(
      404,
    );
    const answer = await topUpOver(off.baseUrl, apiKey.id, "5", { token: owner.token });
    expect(answer.status).toBe(501);
    expect(answer.body).toMatchObject({ code: "NOT_IMPLEMENTED" });
  });

  it("answers 503 when the chain does not answer, and credits nothing", async () => {
    const { apiKey } = await createKeyOver(down.baseUrl, owner.token, {
      name: "m",
      credits: { remaining: 7 },
    });
    const payer = await fundedPayer();
    const unpaid = await topUpOver(down.baseUrl, apiKey.id, "5", { token: owner.token });
    const payment = await signPayment(payer, requiredOf(unpaid.headers));
    const answer = await topUpOver(down.baseUrl, apiKey.id, "5", { token: owner.token }, payment.header);
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
    expect(JSON.stringify(answer.body)).not.toContain("127.0.0.1");
    expect(await token.balanceOf(payer.address)).toBe(tokens(100));
    const list = await request(down.baseUrl, "GET", `/api-keys/${owner.wallet}`, { token: owner.token });
    const keys = (list.body as { keys: KeyBody["apiKey"][] }).keys;
    expect(keys.find((key) => key.id === apiKey.id)?.credits?.remaining).toBe(7);
  });
});

describeDatabases("top-ups settled by an x402 facilitator over HTTP", (target) => {
  let facilitator: FacilitatorStandIn;
  let server: TestServer;
  let down: TestServer;
  let owner: { token: string; wallet: string };
  beforeAll(async () => {
    facilitator = await startFacilitatorStandIn({ rpcUrl: anvil.url, chainId: anvil.chainId });
    const { PAYMENTS_SETTLER_PRIVATE_KEY: _, ...onChain } = paymentsEnv(token, anvil.url, payTo, settlerKey);
    server = await startTestServer(target, { ...onChain, PAYMENTS_FACILITATOR_URL: facilitator.url });
    down = await startTestServer(target, {
      ...onChain,
      PAYMENTS_FACILITATOR_URL: `http://127.0.0.1:${await closedPort()}`,
    });
    owner = await signIn(server.baseUrl);
  });
  afterAll(async () => {
    await Promise.all([server?.close(), down?.close(), facilitator?.close()]);
  });

  async function pay(baseUrl: string, remaining: number) {
    const { apiKey } = await createKeyOver(baseUrl, owner.token, { name: "m", credits: { remaining } });
    const payer = await fundedPayer();
    const unpaid = await topUpOver(baseUrl, apiKey.id, "4", { token: owner.token });
    const payment = await signPayment(payer, requiredOf(unpaid.headers));
    const answer = await topUpOver(baseUrl, apiKey.id, "4", { token: owner.token }, payment.header);
    const list = await request(baseUrl, "GET", `/api-keys/${owner.wallet}`, { token: owner.token });
    const keys = (list.body as { keys: KeyBody["apiKey"][] }).keys;
    return {
      answer,
      payer,
      payment,
      apiKey,
      remaining: keys.find((key) => key.id === apiKey.id)?.credits?.remaining,
    };
  }

  it("tops up through the facilitator, and a replay adds nothing", async () => {
    facilitator.setMode("working");
    const first = await pay(server.baseUrl, 1);
    expect(first.answer.status).toBe(200);
    expect(first.remaining).toBe(4001);
    expect(await token.balanceOf(first.payer.address)).toBe(tokens(96));
    const settles = facilitator.calls.settle;
    const again = await topUpOver(
      server.baseUrl,
      first.apiKey.id,
      "4",
      { token: owner.token },
      first.payment.header,
    );
    expect(again.status).toBe(200);
    expect(facilitator.calls.settle).toBe(settles);
  });

  it("answers 402 with the facilitator's reason when it refuses to settle, and credits nothing", async () => {
    facilitator.setMode("refusing");
    const { answer, payer, remaining } = await pay(server.baseUrl, 1);
    expect(answer.status).toBe(402);
    expect(answer.body).toEqual({
      code: "PAYMENT_REQUIRED",
      message: `The payment was refused: ${REFUSED_REASON}`,
    });
    expect(remaining).toBe(1);
    expect(await token.balanceOf(payer.address)).toBe(tokens(100));
  });

  it("answers 503 when the facilitator fails or is down, and credits nothing", async () => {
    facilitator.setMode("failing");
    for (const baseUrl of [server.baseUrl, down.baseUrl]) {
      const { answer, payer, remaining } = await pay(baseUrl, 1);
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
      expect(remaining).toBe(1);
      expect(await token.balanceOf(payer.address)).toBe(tokens(100));
    }
  });
});
