import {
  type Address,
  createPublicClient,
  getAddress,
  type Hex,
  http,
  isHex,
  parseAbi,
  parseEventLogs,
} from "viem";
import type { PaymentSettings } from "./settings.js";

const EIP3009_ABI = parseAbi([
  "function authorizationState(address authorizer, bytes32 nonce) view returns (bool)",
  "event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)",
]);

/** What the chain says about one EIP-3009 authorization. */
export type AuthorizationOnChain =
  | { used: false }
  /** Spent; `transaction` is the one that spent it when its log was found. */
  | { used: true; transaction: Hex | null };

/** A settlement transaction, after the wait for its confirmations. */
export type ConfirmedTransaction =
  | { ok: true }
  | { ok: false; reason: "transaction_reverted" | "authorization_not_in_transaction" };

/** The token's chain as the top-up needs it: receipts, confirmations, authorization state. Throws when the node cannot answer. */
export interface PaymentChain {
  /** Waits until `transaction` has `confirmations` blocks (1 = mined), up to `timeoutMs`. */
  confirm(transaction: Hex, payer: Address, nonce: Hex, timeoutMs: number): Promise<ConfirmedTransaction>;
  /** Whether the authorization was spent, and by which transaction. */
  authorization(payer: Address, nonce: Hex): Promise<AuthorizationOnChain>;
  /** True when the node answers at all. */
  reachable(): Promise<boolean>;
}

/** A JSON-RPC client of PAYMENTS_RPC_URL for the token at PAYMENTS_ASSET. */
export function createPaymentChain(settings: PaymentSettings): PaymentChain {
  const client = createPublicClient({
    transport: http(settings.rpcUrl, { retryCount: 1, timeout: 10_000 }),
    pollingInterval: 250,
  });
  const asset = settings.asset;
  const usedIn = (logs: Parameters<typeof parseEventLogs>[0]["logs"], payer: Address, nonce: Hex) =>
    parseEventLogs({ abi: EIP3009_ABI, eventName: "AuthorizationUsed", logs }).some(
      (log) =>
        getAddress(log.address) === asset &&
        getAddress(log.args.authorizer) === getAddress(payer) &&
        log.args.nonce.toLowerCase() === nonce.toLowerCase(),
    );
  return {
    async confirm(transaction, payer, nonce, timeoutMs) {
      const receipt = await client.waitForTransactionReceipt({
        hash: transaction,
        confirmations: settings.confirmations,
        timeout: timeoutMs,
      });
      if (receipt.status !== "success") return { ok: false, reason: "transaction_reverted" };
      if (!usedIn(receipt.logs, payer, nonce))
        return { ok: false, reason: "authorization_not_in_transaction" };
      return { ok: true };
    },
    reachable: () =>
      client.getBlockNumber({ cacheTime: 0 }).then(
        () => true,
        () => false,
      ),
    async authorization(payer, nonce) {
      const used = await client.readContract({
        address: asset,
        abi: EIP3009_ABI,
        functionName: "authorizationState",
        args: [payer, nonce],
      });
      if (!used) return { used: false };
      const logs = await client.getLogs({
        address: asset,
        event: EIP3009_ABI[1],
        args: { authorizer: payer, nonce },
        fromBlock: "earliest",
      });
      const hash = logs.at(-1)?.transactionHash;
      return { used: true, transaction: hash !== undefined && isHex(hash) ? hash : null };
    },
  };
}
