import {
  type Address,
  type Chain,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  getAddress,
  type Hash,
  http,
  type PublicClient,
} from "viem";
import { generatePrivateKey, nonceManager, privateKeyToAccount } from "viem/accounts";
import { ANVIL_CHAIN_ID } from "./anvil.js";
import { testUsdcArtifact } from "./test-usdc-artifact.js";

/** The token's ABI (contracts/TestUsdc.sol), for reads and writes beyond the helpers below. */
export const testUsdcAbi = testUsdcArtifact.abi;

/** The CAIP-2 id of the local chain (`eip155:31337`), what x402 requirements name as `network`. */
export const ANVIL_NETWORK = `eip155:${ANVIL_CHAIN_ID}` as const;

/** The EIP-712 domain the token signs under (USDC's), as x402 requirements carry it in `extra`. */
export const TEST_USDC_DOMAIN = { name: "USD Coin", version: "2" } as const;

/** Base units in one whole token (6 decimals, like USDC). */
export const TEST_USDC_UNIT = 1_000_000n;

/** Where x402's facilitator looks for Multicall3 (to explain a failed simulation). */
const MULTICALL3_ADDRESS = "0xcA11bde05977b3631167028862bE2a173976CA11";

/** A deployed test USDC and the helpers tests need around it. */
export interface TestUsdc {
  address: Address;
  /** `eip155:31337` */
  network: typeof ANVIL_NETWORK;
  /** The deployer: the only account that may block payers. */
  owner: Address;
  /** The local chain as viem describes it, for clients of the tests' own accounts. */
  chain: Chain;
  /** A viem client on the node (20 ms polling), for reads and receipts. */
  publicClient: PublicClient;
  /** Mints `amount` base units to `to` (anyone may mint: it is a test token); resolves once mined. */
  mint(to: Address, amount: bigint): Promise<void>;
  balanceOf(account: Address): Promise<bigint>;
  /** Whether the EIP-3009 authorization `nonce` of `authorizer` is used or cancelled. */
  authorizationUsed(authorizer: Address, nonce: Hash): Promise<boolean>;
  /**
   * Blocks (or unblocks) a payer: its transfers revert inside transactions, while simulations (calls at gas
   * price 0, which a facilitator's verification makes) still pass. So a payment verifies, then its
   * settlement fails and moves nothing.
   */
  setBlocked(payer: Address, blocked: boolean): Promise<void>;
  /** Gives `account` ether for gas (1,000 ether unless told), e.g. a settler account. */
  fundEther(account: Address, wei?: bigint): Promise<void>;
}

/**
 * Deploys contracts/TestUsdc.sol (from its committed artifact, no solc) on an anvil node started with
 * `startAnvil`, from a new funded account, and places the Multicall3 stand-in at Multicall3's address so x402's
 * facilitator can tell why a simulation failed (too little balance, a used nonce).
 * @example const usdc = await deployTestUsdc(anvil.url); await usdc.mint(payer.address, 5n * TEST_USDC_UNIT);
 */
export async function deployTestUsdc(rpcUrl: string): Promise<TestUsdc> {
  const chain = defineChain({
    id: ANVIL_CHAIN_ID,
    name: "anvil",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const transport = http(rpcUrl, { retryCount: 0 });
  const testClient = createTestClient({ mode: "anvil", chain, transport });
  const publicClient: PublicClient = createPublicClient({ chain, transport, pollingInterval: 20 });
  // A nonce manager: tests mint and block in parallel from this one account.
  const owner = privateKeyToAccount(generatePrivateKey(), { nonceManager });
  const walletClient = createWalletClient({ account: owner, chain, transport });
  const fundEther = (account: Address, wei = 10n ** 21n) =>
    testClient.setBalance({ address: account, value: wei });

  await fundEther(owner.address);
  if ((await publicClient.getCode({ address: MULTICALL3_ADDRESS })) === undefined) {
    await testClient.setCode({
      address: MULTICALL3_ADDRESS,
      bytecode: testUsdcArtifact.multicall3RuntimeBytecode,
    });
  }
  const deployment = await walletClient.deployContract({
    abi: testUsdcAbi,
    bytecode: testUsdcArtifact.bytecode,
  });
  const deployed = await publicClient.waitForTransactionReceipt({ hash: deployment });
  if (deployed.status !== "success" || !deployed.contractAddress)
    throw new Error("TestUsdc deployment reverted");
  const address = getAddress(deployed.contractAddress);

  async function mined(hash: Hash, what: string): Promise<void> {
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`${what} reverted`);
  }

  return {
    address,
    network: ANVIL_NETWORK,
    owner: owner.address,
    chain,
    publicClient,
    async mint(to, amount) {
      const hash = await walletClient.writeContract({
        address,
        abi: testUsdcAbi,
        functionName: "mint",
        args: [to, amount],
      });
      await mined(hash, "mint");
    },
    balanceOf: (account) =>
      publicClient.readContract({ address, abi: testUsdcAbi, functionName: "balanceOf", args: [account] }),
    authorizationUsed: (authorizer, nonce) =>
      publicClient.readContract({
        address,
        abi: testUsdcAbi,
        functionName: "authorizationState",
        args: [authorizer, nonce],
      }),
    async setBlocked(payer, blocked) {
      const hash = await walletClient.writeContract({
        address,
        abi: testUsdcAbi,
        functionName: "setBlocked",
        args: [payer, blocked],
      });
      await mined(hash, "setBlocked");
    },
    fundEther,
  };
}
