import { type FacilitatorEvmSigner, toFacilitatorEvmSigner } from "@x402/evm";
import {
  createWalletClient,
  defineChain,
  type Hex,
  http,
  isAddress,
  isHex,
  publicActions,
  type TypedData,
  type TypedDataDomain,
} from "viem";
import { nonceManager, privateKeyToAccount } from "viem/accounts";

/** What the in-process settler (`PAYMENTS_SETTLER_PRIVATE_KEY`) needs. */
export interface SettlerSignerOptions {
  /** The settler account's key: it submits the EIP-3009 transfers and pays their gas. */
  privateKey: Hex;
  /** JSON-RPC URL of the payments chain. */
  rpcUrl: string;
  /** The chain's id (the number in the CAIP-2 network, e.g. 8453 for `eip155:8453`). */
  chainId: number;
  /** How often a receipt is polled for; default 1,000 ms (a local chain wants less). */
  pollingIntervalMs?: number;
  /** Bound on waiting for a settlement's receipt; default 60,000 ms (x402's default requirement timeout). */
  confirmationTimeoutMs?: number;
  /** Bound on one JSON-RPC request; default 10,000 ms. */
  requestTimeoutMs?: number;
}

/**
 * The signer @x402/evm's exact facilitator verifies and settles with, from the settler's key and an RPC URL.
 *
 * Its account has viem's nonce manager, so settlements running in parallel from this one account take
 * consecutive nonces instead of colliding. A transfer is estimated before it is sent: one that would revert
 * (a used authorization, too little balance) is refused without consuming a nonce or spending gas, so the
 * settlements queued behind it keep their nonces.
 * @example const signer = createSettlerSigner({ privateKey, rpcUrl, chainId: 8453 });
 *   const facilitator = new ExactEvmScheme(signer);
 */
export function createSettlerSigner(options: SettlerSignerOptions): FacilitatorEvmSigner {
  const account = privateKeyToAccount(options.privateKey, { nonceManager });
  const chain = defineChain({
    id: options.chainId,
    name: `eip155:${options.chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [options.rpcUrl] } },
  });
  const client = createWalletClient({
    account,
    chain,
    transport: http(options.rpcUrl, { timeout: options.requestTimeoutMs ?? 10_000 }),
    pollingInterval: options.pollingIntervalMs ?? 1_000,
  }).extend(publicActions);

  return toFacilitatorEvmSigner(
    {
      address: account.address,
      readContract: (args) => client.readContract(args),
      verifyTypedData({ types, domain, ...rest }) {
        if (!isTypedData(types) || !isTypedDataDomain(domain)) return Promise.resolve(false);
        return client.verifyTypedData({ ...rest, types, domain });
      },
      async writeContract(args) {
        const gas = args.gas ?? (await client.estimateContractGas({ ...args, account }));
        return client.writeContract({ ...args, gas });
      },
      sendTransaction: (args) => client.sendTransaction(args),
      waitForTransactionReceipt: (args) => client.waitForTransactionReceipt(args),
      getCode: (args) => client.getCode(args),
    },
    { confirmationTimeoutMs: options.confirmationTimeoutMs ?? 60_000 },
  );
}

/** Whether x402's typed-data `types` have EIP-712's shape: each type a list of `{ name, type }`. */
function isTypedData(types: Record<string, unknown>): types is TypedData {
  return Object.values(types).every(
    (fields) =>
      Array.isArray(fields) &&
      fields.every(
        (field: unknown) =>
          typeof field === "object" &&
          field !== null &&
          "name" in field &&
          typeof field.name === "string" &&
          "type" in field &&
          typeof field.type === "string",
      ),
  );
}

/** Whether x402's `domain` is an EIP-712 domain (every field optional, each of its type). */
function isTypedDataDomain(domain: Record<string, unknown>): domain is TypedDataDomain {
  const { name, version, chainId, verifyingContract, salt } = domain;
  return (
    (name === undefined || typeof name === "string") &&
    (version === undefined || typeof version === "string") &&
    (chainId === undefined || typeof chainId === "number" || typeof chainId === "bigint") &&
    (verifyingContract === undefined ||
      (typeof verifyingContract === "string" && isAddress(verifyingContract))) &&
    (salt === undefined || isHex(salt))
  );
}
