// The local chain of `pnpm start:payments` (docs/payments.md, "Try it locally"), loaded by start.mjs
// through tsx: anvil from the project's own @foundry-rs/anvil, the test USDC of packages/test-support
// deployed on it, a settler account funded with ether, and test USDC minted to the wallets to fund.
import { type Address, getAddress, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { ANVIL_CHAIN_ID, startAnvil } from "../packages/test-support/src/anvil.js";
import { paymentsEnv } from "../packages/test-support/src/payments-chain.js";
import { deployTestUsdc, TEST_USDC_UNIT } from "../packages/test-support/src/test-usdc.js";

/** Whole test USDC minted to each funded address. */
export const FUNDED_TOKENS = 1_000;

/**
 * Anvil's first default account, from the test mnemonic every Foundry and Hardhat install shares: its
 * key is public knowledge, so it holds nothing anywhere but a local chain.
 */
export const ANVIL_FIRST_ACCOUNT = {
  address: getAddress("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"),
  privateKey: "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
} as const satisfies { address: Address; privateKey: Hex };

/** A running local chain with the test USDC and the settings that point a Keyport server at it. */
export interface LocalChain {
  /** JSON-RPC URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  chainId: number;
  /** The test USDC's address. */
  token: Address;
  /** The operator's address that payments go to (a fresh one each start). */
  payTo: Address;
  /** The addresses that hold {@link FUNDED_TOKENS} test USDC each. */
  funded: Address[];
  /** The server's PAYMENTS_* settings: this chain, this token, settled in its process by a funded settler. */
  env: Record<string, string>;
  /** anvil's process id (start.mjs stops it last, and on its way out whatever happens). */
  pid: number;
  /** Stops anvil and waits for it. */
  close(): Promise<void>;
}

/**
 * Starts anvil on a free loopback port in a process group of its own (a terminal's Ctrl-C reaches the
 * services first; the caller closes the chain after them), deploys the test USDC, funds a new settler
 * with ether, and mints {@link FUNDED_TOKENS} test USDC to each of `fund` (validated addresses).
 * @example const chain = await startLocalChain([ANVIL_FIRST_ACCOUNT.address]);
 */
export async function startLocalChain(fund: readonly Address[]): Promise<LocalChain> {
  const anvil = await startAnvil({ detached: true });
  try {
    const usdc = await deployTestUsdc(anvil.url);
    const settlerKey = generatePrivateKey();
    const payTo = privateKeyToAccount(generatePrivateKey()).address;
    const funded = [...new Set(fund.map((address) => getAddress(address)))];
    await Promise.all([
      usdc.fundEther(privateKeyToAccount(settlerKey).address),
      ...funded.map((address) => usdc.mint(address, BigInt(FUNDED_TOKENS) * TEST_USDC_UNIT)),
    ]);
    return {
      url: anvil.url,
      chainId: ANVIL_CHAIN_ID,
      token: usdc.address,
      payTo,
      funded,
      env: paymentsEnv(usdc, anvil.url, payTo, settlerKey),
      pid: anvil.pid,
      close: () => anvil.close(),
    };
  } catch (error) {
    await anvil.close();
    throw error;
  }
}
