import type { Address, Hex, LocalAccount } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { type Anvil, startAnvil } from "./anvil.js";
import { deployTestUsdc, TEST_USDC_UNIT, type TestUsdc } from "./test-usdc.js";

/** Settings that turn a Keyport server's payments on against `usdc`, settling in-process from `settlerKey`. */
export function paymentsEnv(
  usdc: TestUsdc,
  rpcUrl: string,
  payTo: Address,
  settlerKey: Hex,
): Record<string, string> {
  return {
    PAYMENTS_NETWORK: usdc.network,
    PAYMENTS_RPC_URL: rpcUrl,
    PAYMENTS_ASSET: usdc.address,
    PAYMENTS_PAY_TO: payTo,
    PAYMENTS_SETTLER_PRIVATE_KEY: settlerKey,
  };
}

/** A local chain ready for a Keyport server with payments on, and payers to pay it. */
export interface PaymentsChain {
  anvil: Anvil;
  usdc: TestUsdc;
  /** The operator's address payments go to. */
  payTo: Address;
  /** `paymentsEnv` for this chain: in-process settlement from a settler funded with ether. */
  env: Record<string, string>;
  /** A fresh local account holding `whole` test USDC. */
  newPayer(whole: number): Promise<LocalAccount>;
  close(): Promise<void>;
}

/**
 * Starts anvil, deploys the test USDC and funds a settler account: what a Keyport server needs to take
 * top-ups settled in its own process.
 * @example const chain = await startPaymentsChain(); const server = await start({ ...chain.env });
 */
export async function startPaymentsChain(): Promise<PaymentsChain> {
  const anvil = await startAnvil();
  try {
    const usdc = await deployTestUsdc(anvil.url);
    const settlerKey = generatePrivateKey();
    await usdc.fundEther(privateKeyToAccount(settlerKey).address);
    const payTo = privateKeyToAccount(generatePrivateKey()).address;
    return {
      anvil,
      usdc,
      payTo,
      env: paymentsEnv(usdc, anvil.url, payTo, settlerKey),
      async newPayer(whole) {
        const payer = privateKeyToAccount(generatePrivateKey());
        await usdc.mint(payer.address, BigInt(whole) * TEST_USDC_UNIT);
        return payer;
      },
      close: () => anvil.close(),
    };
  } catch (error) {
    await anvil.close();
    throw error;
  }
}
