import { type Anvil, startAnvil } from "@keyport/test-support/anvil";
import { deployTestUsdc, TEST_USDC_UNIT, type TestUsdc } from "@keyport/test-support/test-usdc";
import { signPayment, testPaymentRequired } from "@keyport/test-support/x402-payment";
import { ExactEvmScheme } from "@x402/evm/exact/facilitator";
import { type Address, type Hex, isHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSettlerSigner } from "./evm-signer.js";

// One node for the file; each test has a settler and payers of its own.
let anvil: Anvil;
let usdc: TestUsdc;

beforeAll(async () => {
  anvil = await startAnvil();
  usdc = await deployTestUsdc(anvil.url);
});
afterAll(() => anvil?.close());

const paymentRequired = (payTo: Address, amount: bigint) => testPaymentRequired(usdc, payTo, amount);

/** x402's exact facilitator settling with a new funded settler account through createSettlerSigner. */
async function facilitator() {
  const privateKey = generatePrivateKey();
  await usdc.fundEther(privateKeyToAccount(privateKey).address);
  const signer = createSettlerSigner({
    privateKey,
    rpcUrl: anvil.url,
    chainId: anvil.chainId,
    pollingIntervalMs: 20,
  });
  return { signer, scheme: new ExactEvmScheme(signer) };
}

function hashOf(transaction: string): Hex {
  if (!isHex(transaction)) throw new Error(`not a transaction hash: ${transaction}`);
  return transaction;
}

/** A payer holding `whole` tokens that signs a payment of `amount` base units to `payTo`. */
async function payment(payTo: Address, amount: bigint, whole = 10n) {
  const payer = privateKeyToAccount(generatePrivateKey());
  await usdc.mint(payer.address, whole * TEST_USDC_UNIT);
  const required = paymentRequired(payTo, amount);
  const { payload } = await signPayment(payer, required);
  const [requirements] = required.accepts;
  if (!requirements) throw new Error("no requirements");
  return { payer: payer.address, payload, requirements };
}

describe("createSettlerSigner with x402's exact facilitator", () => {
  it("verifies and settles 5 distinct payments in parallel from one settler, moving exactly their amounts", async () => {
    const { signer, scheme } = await facilitator();
    const payTo = privateKeyToAccount(generatePrivateKey()).address;
    const amounts = [1n, 2n, 3n, 4n, 5n].map((whole) => whole * TEST_USDC_UNIT);
    const payments = await Promise.all(amounts.map((amount) => payment(payTo, amount)));

    const verified = await Promise.all(payments.map((p) => scheme.verify(p.payload, p.requirements)));
    expect(verified.map((v) => [v.isValid, v.payer])).toEqual(payments.map((p) => [true, p.payer]));

    const settled = await Promise.all(payments.map((p) => scheme.settle(p.payload, p.requirements)));
    for (const [index, result] of settled.entries()) {
      expect(result).toMatchObject({ success: true, payer: payments[index]?.payer, network: usdc.network });
      const receipt = await usdc.publicClient.getTransactionReceipt({ hash: hashOf(result.transaction) });
      expect(receipt.status).toBe("success");
    }
    expect(new Set(settled.map((s) => s.transaction)).size).toBe(5);
    expect(signer.getAddresses()).toHaveLength(1);
    expect(await usdc.balanceOf(payTo)).toBe(15n * TEST_USDC_UNIT);
    for (const [index, p] of payments.entries()) {
      expect(await usdc.balanceOf(p.payer)).toBe(10n * TEST_USDC_UNIT - (amounts[index] ?? 0n));
    }
  });

  it("fails a replayed payment and a blocked payer's reverted settlement, moving nothing, and settles the next", async () => {
    const { scheme } = await facilitator();
    const payTo = privateKeyToAccount(generatePrivateKey()).address;
    const first = await payment(payTo, TEST_USDC_UNIT);
    expect(await scheme.settle(first.payload, first.requirements)).toMatchObject({ success: true });
    const replay = await scheme.settle(first.payload, first.requirements);
    // Refused by the gas estimate: nothing sent, no nonce spent.
    expect(replay).toMatchObject({
      success: false,
      transaction: "",
      errorReason: "invalid_exact_evm_nonce_already_used",
    });

    const blocked = await payment(payTo, TEST_USDC_UNIT);
    await usdc.setBlocked(blocked.payer, true);
    expect(await scheme.verify(blocked.payload, blocked.requirements)).toMatchObject({ isValid: true });
    // The estimate passes too (no gas price), so the transfer is mined and reverts.
    const reverted = await scheme.settle(blocked.payload, blocked.requirements);
    expect(reverted).toMatchObject({
      success: false,
      errorReason: "invalid_exact_evm_transaction_failed",
      payer: blocked.payer,
    });
    const receipt = await usdc.publicClient.getTransactionReceipt({ hash: hashOf(reverted.transaction) });
    expect(receipt.status).toBe("reverted");
    expect(await usdc.balanceOf(blocked.payer)).toBe(10n * TEST_USDC_UNIT);

    const next = await payment(payTo, 2n * TEST_USDC_UNIT);
    expect(await scheme.settle(next.payload, next.requirements)).toMatchObject({ success: true });
    expect(await usdc.balanceOf(payTo)).toBe(3n * TEST_USDC_UNIT);
  });

  it("settles the good payments of a parallel batch that holds a refused one and a reverting one", async () => {
    const { scheme } = await facilitator();
    const payTo = privateKeyToAccount(generatePrivateKey()).address;
    const used = await payment(payTo, TEST_USDC_UNIT);
    expect(await scheme.settle(used.payload, used.requirements)).toMatchObject({ success: true });
    const blocked = await payment(payTo, TEST_USDC_UNIT);
    await usdc.setBlocked(blocked.payer, true);
    const good = await Promise.all([1n, 2n, 3n].map((whole) => payment(payTo, whole * TEST_USDC_UNIT)));

    const [replayed, reverted, ...settled] = await Promise.all(
      [used, blocked, ...good].map((p) => scheme.settle(p.payload, p.requirements)),
    );
    expect(replayed).toMatchObject({ success: false, transaction: "" });
    expect(reverted).toMatchObject({ success: false, errorReason: "invalid_exact_evm_transaction_failed" });
    expect(settled.map((s) => s.success)).toEqual([true, true, true]);
    expect(await usdc.balanceOf(payTo)).toBe(7n * TEST_USDC_UNIT);
    expect(await usdc.balanceOf(blocked.payer)).toBe(10n * TEST_USDC_UNIT);
  });

  it("tells why a payment does not verify: too little balance, or a used authorization", async () => {
    const { scheme } = await facilitator();
    const payTo = privateKeyToAccount(generatePrivateKey()).address;
    const poor = await payment(payTo, 5n * TEST_USDC_UNIT, 1n);
    expect(await scheme.verify(poor.payload, poor.requirements)).toMatchObject({
      isValid: false,
      invalidReason: "invalid_exact_evm_insufficient_balance",
    });
    const used = await payment(payTo, TEST_USDC_UNIT);
    await scheme.settle(used.payload, used.requirements);
    expect(await scheme.verify(used.payload, used.requirements)).toMatchObject({ isValid: false });
  });
});
