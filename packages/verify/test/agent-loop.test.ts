import { request } from "@keyport/test-support/http";
import { type PaymentsChain, startPaymentsChain } from "@keyport/test-support/payments-chain";
import { TEST_USDC_UNIT } from "@keyport/test-support/test-usdc";
import { payingClient, signPayment } from "@keyport/test-support/x402-payment";
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import { wrapFetchWithPayment } from "@x402/fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backend, FRAMEWORKS, type MiddlewareOptions, startBackend } from "./support/apps.js";
import { type Keyport, startKeyport } from "./support/keyport.js";

// An agent holding a key out of credits, calling a backend protected with `topUp`: its one fetch through
// @x402/fetch pays Keyport over x402 (settled in Keyport's process on a local anvil chain), refills the key
// and gets the backend's answer (docs/payments.md, The agent loop).

const AMOUNT = "2";
const CREDITS_PER_TOKEN = 1000;
const tokens = (whole: number) => BigInt(whole) * TEST_USDC_UNIT;

let chain: PaymentsChain;
let keyport: Keyport;

beforeAll(async () => {
  chain = await startPaymentsChain();
  keyport = await startKeyport(chain.env);
});
afterAll(async () => {
  await keyport?.close();
  await chain?.close();
});

/** What introspection says of a key's credits (it spends nothing). */
async function creditsOf(key: string): Promise<unknown> {
  const { status, body } = await request(keyport.baseUrl, "POST", "/api-keys/introspect", { body: { key } });
  expect(status).toBe(200);
  return Reflect.get(Object(body), "credits");
}

/** A key whose only credit is spent already (its first call through `backend` takes it). */
async function exhaustedKey(backend: Backend): Promise<string> {
  const { key } = await keyport.createKey({ name: "agent", credits: { remaining: 1 } });
  expect((await fetch(backend.url, { headers: { "x-api-key": key } })).status).toBe(200);
  expect((await fetch(backend.url, { headers: { "x-api-key": key } })).status).not.toBe(200);
  return key;
}

describe.each(FRAMEWORKS)("the agent loop through keyport() for %s", (framework) => {
  const backends: Backend[] = [];
  const logLines: string[] = [];
  const logger = { warn: (line: string) => logLines.push(line) };
  const start = async (options: Partial<MiddlewareOptions> = {}) => {
    const backend = await startBackend(framework, { baseUrl: keyport.baseUrl, logger, ...options });
    backends.push(backend);
    return backend;
  };
  let backend: Backend;
  beforeAll(async () => {
    backend = await start({ topUp: { amount: AMOUNT } });
  });
  afterAll(() => Promise.all(backends.map((started) => started.close())));

  it("lets an agent out of credits pay once, refill its key and get its answer; the next call pays nothing", async () => {
    const key = await exhaustedKey(backend);
    const payer = await chain.newPayer(10);
    const payToBefore = await chain.usdc.balanceOf(chain.payTo);
    const paidFetch = wrapFetchWithPayment(fetch, payingClient(payer));

    const answer = await paidFetch(backend.url, { headers: { "x-api-key": key } });
    expect(answer.status).toBe(200);
    const bought = Number(AMOUNT) * CREDITS_PER_TOKEN;
    // The request's own credit comes out of the bought ones (the allowance is spent).
    expect(await answer.json()).toMatchObject({
      keyport: { valid: true, code: "VALID", credits: { remaining: bought - 1, purchased: bought - 1 } },
    });
    const settled = decodePaymentResponseHeader(answer.headers.get("payment-response") ?? "");
    expect(settled).toMatchObject({ success: true, network: chain.usdc.network });
    expect(settled.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await chain.usdc.balanceOf(payer.address)).toBe(tokens(10) - tokens(Number(AMOUNT)));
    expect(await chain.usdc.balanceOf(chain.payTo)).toBe(payToBefore + tokens(Number(AMOUNT)));
    expect(await creditsOf(key)).toMatchObject({ remaining: bought - 1, purchased: bought - 1 });

    const second = await paidFetch(backend.url, { headers: { "x-api-key": key } });
    expect(second.status).toBe(200);
    expect(second.headers.get("payment-response")).toBeNull();
    expect(await second.json()).toMatchObject({ keyport: { credits: { remaining: bought - 2 } } });
    expect(await chain.usdc.balanceOf(payer.address)).toBe(tokens(10) - tokens(Number(AMOUNT)));
  });

  it("answers an unpaid request of a key out of credits with 402 and Keyport's requirement for this URL", async () => {
    const key = await exhaustedKey(backend);
    const answer = await fetch(backend.url, { headers: { authorization: `Bearer ${key}` } });
    expect(answer.status).toBe(402);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(await answer.json()).toEqual({
      code: "PAYMENT_REQUIRED",
      message: "PAYMENT-SIGNATURE is required: pay the amount in PAYMENT-REQUIRED",
    });
    const required = decodePaymentRequiredHeader(answer.headers.get("payment-required") ?? "");
    expect(required.x402Version).toBe(2);
    expect(required.resource.url).toBe(backend.url);
    expect(required.accepts).toEqual([
      {
        scheme: "exact",
        network: chain.usdc.network,
        amount: tokens(Number(AMOUNT)).toString(),
        asset: chain.usdc.address,
        payTo: chain.payTo,
        maxTimeoutSeconds: 60,
        extra: { name: "USD Coin", version: "2" },
      },
    ]);
  });

  it("answers a payment for another amount with 402 and Keyport's reason, and it costs nothing", async () => {
    const key = await exhaustedKey(backend);
    const payer = await chain.newPayer(10);
    const unpaid = await fetch(backend.url, { headers: { "x-api-key": key } });
    const required = decodePaymentRequiredHeader(unpaid.headers.get("payment-required") ?? "");
    const [first] = required.accepts;
    if (first === undefined) throw new Error("no requirement");
    const cheaper = { ...required, accepts: [{ ...first, amount: tokens(1).toString() }] };
    const payment = await signPayment(payer, cheaper);

    const answer = await fetch(backend.url, {
      headers: { "x-api-key": key, "payment-signature": payment.header },
    });
    expect(answer.status).toBe(402);
    const body = await answer.json();
    expect(body.code).toBe("PAYMENT_REQUIRED");
    expect(body.message).toMatch(/amount/);
    expect(JSON.stringify(body)).not.toContain(payment.header);
    const again = decodePaymentRequiredHeader(answer.headers.get("payment-required") ?? "");
    expect(again.resource.url).toBe(backend.url);
    expect(again.accepts[0]?.amount).toBe(tokens(Number(AMOUNT)).toString());
    expect(answer.headers.get("payment-response")).toBeNull();
    expect(await chain.usdc.balanceOf(payer.address)).toBe(tokens(10));
    expect(await creditsOf(key)).toMatchObject({ remaining: 0, purchased: 0 });
  });

  it("offers no payment for other refusals: a revoked key stays 401", async () => {
    const { key, id } = await keyport.createKey({ name: "revoked", credits: { remaining: 0 } });
    await keyport.revokeKey(id);
    const answer = await fetch(backend.url, { headers: { "x-api-key": key } });
    expect(answer.status).toBe(401);
    expect(answer.headers.get("payment-required")).toBeNull();
  });

  it("keeps 429 for a key out of credits when the middleware has no topUp", async () => {
    const plain = await start();
    const key = await exhaustedKey(plain);
    const answer = await fetch(plain.url, { headers: { "x-api-key": key } });
    expect(answer.status).toBe(429);
    expect(await answer.json()).toEqual({
      code: "TOO_MANY_REQUESTS",
      message: "The API key has no credits left",
    });
    expect(answer.headers.get("payment-required")).toBeNull();
  });
});
