import { type Anvil, startAnvil } from "@keyport/test-support/anvil";
import { deployTestUsdc, TEST_USDC_UNIT, type TestUsdc } from "@keyport/test-support/test-usdc";
import { signPayment, testPaymentRequired } from "@keyport/test-support/x402-payment";
import { FacilitatorTimeoutError, HTTPFacilitatorClient } from "@x402/core/http";
import { type Address, isHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type FacilitatorStandIn,
  REFUSED_REASON,
  startFacilitatorStandIn,
} from "./support/facilitator-stand-in.js";

// One node and one stand-in for the file (tests that change its mode put it back); the down one is its own.
let anvil: Anvil;
let usdc: TestUsdc;
let standIn: FacilitatorStandIn;
let client: HTTPFacilitatorClient;

beforeAll(async () => {
  anvil = await startAnvil();
  usdc = await deployTestUsdc(anvil.url);
  standIn = await startFacilitatorStandIn({ rpcUrl: anvil.url, chainId: anvil.chainId });
  client = new HTTPFacilitatorClient({ url: standIn.url, timeoutMs: 10_000 });
});
afterAll(async () => {
  await standIn?.close();
  await anvil?.close();
});

const paymentRequired = (payTo: Address, amount: bigint) => testPaymentRequired(usdc, payTo, amount);

/** A payer holding 10 tokens, its signed payment of `whole` tokens to a new payee, and the requirement. */
async function payment(whole: bigint) {
  const payer = privateKeyToAccount(generatePrivateKey());
  const payTo = privateKeyToAccount(generatePrivateKey()).address;
  await usdc.mint(payer.address, 10n * TEST_USDC_UNIT);
  const required = paymentRequired(payTo, whole * TEST_USDC_UNIT);
  const { payload } = await signPayment(payer, required);
  const [requirements] = required.accepts;
  if (!requirements) throw new Error("no requirements");
  return { payer: payer.address, payTo, payload, requirements };
}

describe("the stand-in facilitator, through @x402/core's HTTPFacilitatorClient", () => {
  it("lists the exact scheme on the local chain with its settler, then verifies and settles a real payment", async () => {
    expect(await client.getSupported()).toMatchObject({
      kinds: [{ x402Version: 2, scheme: "exact", network: usdc.network }],
      signers: { "eip155:*": [standIn.settler] },
    });
    const { payer, payTo, payload, requirements } = await payment(3n);
    expect(await client.verify(payload, requirements)).toMatchObject({ isValid: true, payer });
    const settled = await client.settle(payload, requirements);
    expect(settled).toMatchObject({ success: true, payer, network: usdc.network });
    if (!isHex(settled.transaction)) throw new Error("no transaction hash");
    const receipt = await usdc.publicClient.getTransactionReceipt({ hash: settled.transaction });
    expect(receipt.status).toBe("success");
    expect(await usdc.balanceOf(payTo)).toBe(3n * TEST_USDC_UNIT);
    expect(await usdc.balanceOf(payer)).toBe(7n * TEST_USDC_UNIT);
  });

  it("answers an invalid payment with 200 isValid false and its reason, and a malformed body with 400", async () => {
    const { payload, requirements } = await payment(1n);
    expect(
      await client.verify(payload, { ...requirements, amount: String(2n * TEST_USDC_UNIT) }),
    ).toMatchObject({
      isValid: false,
      invalidReason: "invalid_exact_evm_payload_authorization_value_mismatch",
    });
    const response = await fetch(`${standIn.url}/verify`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ x402Version: 2, paymentPayload: { x402Version: 2 } }),
    });
    expect(response.status).toBe(400);
  });

  it("when refusing, verifies but settles nothing and says why", async () => {
    const { payer, payload, requirements } = await payment(2n);
    standIn.setMode("refusing");
    try {
      expect(await client.verify(payload, requirements)).toMatchObject({ isValid: true });
      expect(await client.settle(payload, requirements)).toMatchObject({
        success: false,
        errorReason: REFUSED_REASON,
        transaction: "",
      });
    } finally {
      standIn.setMode("working");
    }
    expect(await usdc.balanceOf(payer)).toBe(10n * TEST_USDC_UNIT);
    expect(await usdc.authorizationUsed(payer, payloadNonce(payload.payload))).toBe(false);
  });

  it("when failing, answers 500 and the client throws; when hanging, the client's timeout fires", async () => {
    const { payer, payload, requirements } = await payment(1n);
    standIn.setMode("failing");
    try {
      await expect(client.verify(payload, requirements)).rejects.toThrow(/Facilitator verify failed \(500\)/);
      await expect(client.settle(payload, requirements)).rejects.toThrow(/Facilitator settle failed \(500\)/);
      standIn.setMode("hanging");
      const impatient = new HTTPFacilitatorClient({ url: standIn.url, timeoutMs: 300 });
      await expect(impatient.settle(payload, requirements)).rejects.toBeInstanceOf(FacilitatorTimeoutError);
    } finally {
      standIn.setMode("working");
    }
    expect(await usdc.balanceOf(payer)).toBe(10n * TEST_USDC_UNIT);
  });

  it("once closed, is down: connections are refused", async () => {
    const down = await startFacilitatorStandIn({ rpcUrl: anvil.url, chainId: anvil.chainId });
    await down.close();
    const { payload, requirements } = await payment(1n);
    await expect(new HTTPFacilitatorClient({ url: down.url }).verify(payload, requirements)).rejects.toThrow(
      /fetch failed/,
    );
  });
});

function payloadNonce(payload: Record<string, unknown>) {
  const { authorization } = payload;
  const nonce =
    typeof authorization === "object" && authorization !== null && "nonce" in authorization
      ? authorization.nonce
      : undefined;
  if (!isHex(nonce)) throw new Error("no nonce");
  return nonce;
}
