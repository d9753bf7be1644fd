import { type Address, createWalletClient, getAddress, http, isHex, parseSignature } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Anvil, startAnvil } from "./anvil.js";
import { deployTestUsdc, TEST_USDC_UNIT, type TestUsdc, testUsdcAbi } from "./test-usdc.js";
import { signPayment, testPaymentRequired } from "./x402-payment.js";

// One node for the file: each test uses accounts of its own.
let anvil: Anvil;
let usdc: TestUsdc;
let deployMs: number;

beforeAll(async () => {
  anvil = await startAnvil();
  const started = performance.now();
  usdc = await deployTestUsdc(anvil.url);
  deployMs = Math.round(performance.now() - started);
});
afterAll(() => anvil?.close());

const paymentRequired = (payTo: Address, amount: bigint) => testPaymentRequired(usdc, payTo, amount);

/** The EIP-3009 fields of an x402 exact payload, checked rather than cast. */
function authorizationOf(payload: Record<string, unknown>) {
  const { authorization, signature } = payload;
  if (!isHex(signature)) throw new Error("no signature");
  if (typeof authorization !== "object" || authorization === null) throw new Error("no authorization");
  const field = (name: string): string => {
    const value = new Map(Object.entries(authorization)).get(name);
    if (typeof value !== "string") throw new Error(`no ${name}`);
    return value;
  };
  const nonce = field("nonce");
  if (!isHex(nonce)) throw new Error("no nonce");
  return {
    from: getAddress(field("from")),
    to: getAddress(field("to")),
    value: BigInt(field("value")),
    validAfter: BigInt(field("validAfter")),
    validBefore: BigInt(field("validBefore")),
    nonce,
    signature,
  };
}

/** A third account (neither payer nor payee) that submits authorizations and pays the gas. */
async function relayer() {
  const account = privateKeyToAccount(generatePrivateKey());
  await usdc.fundEther(account.address);
  return createWalletClient({ account, chain: usdc.chain, transport: http(anvil.url) });
}

describe("the test USDC on anvil", () => {
  it("deploys with USDC's name, version, decimals and EIP-712 domain, and mints to anyone", async () => {
    const read = <F extends "name" | "version" | "decimals">(functionName: F) =>
      usdc.publicClient.readContract({ address: usdc.address, abi: testUsdcAbi, functionName });
    expect([await read("name"), await read("version"), await read("decimals")]).toEqual(["USD Coin", "2", 6]);
    const holder = privateKeyToAccount(generatePrivateKey()).address;
    await usdc.mint(holder, 7n * TEST_USDC_UNIT);
    expect(await usdc.balanceOf(holder)).toBe(7_000_000n);
    console.log(`startAnvil ${anvil.startedInMs} ms, deployTestUsdc ${deployMs} ms`);
  });

  it("moves a signed x402 payment once when a third account submits it, and refuses the replay", async () => {
    const payer = privateKeyToAccount(generatePrivateKey());
    const payee = privateKeyToAccount(generatePrivateKey()).address;
    await usdc.mint(payer.address, 10n * TEST_USDC_UNIT);
    const { payload, header } = await signPayment(payer, paymentRequired(payee, 3n * TEST_USDC_UNIT));
    expect(JSON.parse(Buffer.from(header, "base64").toString("utf8"))).toEqual(payload);
    expect(payload.x402Version).toBe(2);
    const auth = authorizationOf(payload.payload);
    expect(auth).toMatchObject({ from: payer.address, to: payee, value: 3_000_000n });
    const { v, r, s } = parseSignature(auth.signature);
    if (v === undefined) throw new Error("no v");
    const args = [
      auth.from,
      auth.to,
      auth.value,
      auth.validAfter,
      auth.validBefore,
      auth.nonce,
      Number(v),
      r,
      s,
    ] as const;

    const submitter = await relayer();
    const hash = await submitter.writeContract({
      address: usdc.address,
      abi: testUsdcAbi,
      functionName: "transferWithAuthorization",
      args,
    });
    const receipt = await usdc.publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe("success");
    expect(await usdc.balanceOf(payer.address)).toBe(7_000_000n);
    expect(await usdc.balanceOf(payee)).toBe(3_000_000n);
    expect(await usdc.authorizationUsed(payer.address, auth.nonce)).toBe(true);

    // The same authorization again, in both signature forms: refused, nothing moves.
    await expect(
      submitter.writeContract({
        address: usdc.address,
        abi: testUsdcAbi,
        functionName: "transferWithAuthorization",
        args,
      }),
    ).rejects.toThrow(/authorization is used or canceled/);
    await expect(
      submitter.writeContract({
        address: usdc.address,
        abi: testUsdcAbi,
        functionName: "transferWithAuthorization",
        args: [auth.from, auth.to, auth.value, auth.validAfter, auth.validBefore, auth.nonce, auth.signature],
      }),
    ).rejects.toThrow(/authorization is used or canceled/);
    expect(await usdc.balanceOf(payer.address)).toBe(7_000_000n);
  });

  it("signs an authorization that is already expired when asked, and the token refuses it", async () => {
    const payer = privateKeyToAccount(generatePrivateKey());
    const payee = privateKeyToAccount(generatePrivateKey()).address;
    await usdc.mint(payer.address, TEST_USDC_UNIT);
    const required = paymentRequired(payee, TEST_USDC_UNIT);
    const { payload } = await signPayment(payer, required, { expiresInSeconds: -60 });
    expect(payload.accepted).toEqual(required.accepts[0]);
    const auth = authorizationOf(payload.payload);
    expect(Number(auth.validBefore)).toBeLessThan(Date.now() / 1000);
    const submitter = await relayer();
    await expect(
      submitter.writeContract({
        address: usdc.address,
        abi: testUsdcAbi,
        functionName: "transferWithAuthorization",
        args: [auth.from, auth.to, auth.value, auth.validAfter, auth.validBefore, auth.nonce, auth.signature],
      }),
    ).rejects.toThrow(/authorization is expired/);
  });

  it("accepts the bytes-signature form and refuses a signature for other terms", async () => {
    const payer = privateKeyToAccount(generatePrivateKey());
    const payee = privateKeyToAccount(generatePrivateKey()).address;
    await usdc.mint(payer.address, 2n * TEST_USDC_UNIT);
    const auth = authorizationOf(
      (await signPayment(payer, paymentRequired(payee, TEST_USDC_UNIT))).payload.payload,
    );
    const submitter = await relayer();
    const submit = (value: bigint) =>
      submitter.writeContract({
        address: usdc.address,
        abi: testUsdcAbi,
        functionName: "transferWithAuthorization",
        args: [auth.from, auth.to, value, auth.validAfter, auth.validBefore, auth.nonce, auth.signature],
      });
    await expect(submit(2n * TEST_USDC_UNIT)).rejects.toThrow(/invalid signature/);
    await usdc.publicClient.waitForTransactionReceipt({ hash: await submit(TEST_USDC_UNIT) });
    expect(await usdc.balanceOf(payee)).toBe(TEST_USDC_UNIT);
  });

  it("lets a blocked payer's transfer pass a simulation but revert in a transaction, and only the owner blocks", async () => {
    const payer = privateKeyToAccount(generatePrivateKey());
    const payee = privateKeyToAccount(generatePrivateKey()).address;
    await usdc.mint(payer.address, 5n * TEST_USDC_UNIT);
    const auth = authorizationOf(
      (await signPayment(payer, paymentRequired(payee, TEST_USDC_UNIT))).payload.payload,
    );
    const args = [
      auth.from,
      auth.to,
      auth.value,
      auth.validAfter,
      auth.validBefore,
      auth.nonce,
      auth.signature,
    ] as const;
    const submitter = await relayer();
    await expect(
      submitter.writeContract({
        address: usdc.address,
        abi: testUsdcAbi,
        functionName: "setBlocked",
        args: [payer.address, true],
      }),
    ).rejects.toThrow(/caller is not the owner/);

    await usdc.setBlocked(payer.address, true);
    // What a facilitator's verification does: a call, no gas price.
    await usdc.publicClient.simulateContract({
      address: usdc.address,
      abi: testUsdcAbi,
      functionName: "transferWithAuthorization",
      args,
      account: submitter.account.address,
    });
    // A transaction with its gas given (no estimate to refuse it first) is mined and reverts.
    const hash = await submitter.writeContract({
      address: usdc.address,
      abi: testUsdcAbi,
      functionName: "transferWithAuthorization",
      args,
      gas: 200_000n,
    });
    expect((await usdc.publicClient.waitForTransactionReceipt({ hash })).status).toBe("reverted");
    expect(await usdc.balanceOf(payer.address)).toBe(5n * TEST_USDC_UNIT);
    expect(await usdc.authorizationUsed(payer.address, auth.nonce)).toBe(false);

    await usdc.setBlocked(payer.address, false);
    const retried = await submitter.writeContract({
      address: usdc.address,
      abi: testUsdcAbi,
      functionName: "transferWithAuthorization",
      args,
    });
    expect((await usdc.publicClient.waitForTransactionReceipt({ hash: retried })).status).toBe("success");
    expect(await usdc.balanceOf(payee)).toBe(TEST_USDC_UNIT);
  });
});
