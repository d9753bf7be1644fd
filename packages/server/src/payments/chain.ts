import {
  type Address,
  createPublicClient,
  encodeEventTopics,
  formatLog,
  getAddress,
  type Hex,
  http,
  isHex,
  numberToHex,
  pad,
  parseAbi,
  parseEventLogs,
} from "viem";
import type { PaymentSettings } from "./settings.js";

const EIP3009_ABI = parseAbi([
  "function authorizationState(address authorizer, bytes32 nonce) view returns (bool)",
  "event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)",
  "event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce)",
]);

/** The widest `eth_getLogs` range asked for: hosted providers refuse wider ones (docs/payments.md#recovery). */
export const LOG_RANGE_BLOCKS = 1_000n;

/**
 * Blocks before the height read when a payment is recorded where the search for its transaction
 * starts: a node behind a load balancer may answer a few blocks behind the one that settles.
 */
export const FROM_BLOCK_MARGIN = 20n;

/** `eth_getLogs` calls one search makes at most; the next search goes on from where it stopped. */
export const LOG_CHUNKS_PER_SEARCH = 10;

/** What the chain says about one EIP-3009 authorization. */
export type AuthorizationOnChain =
  | { state: "unused" }
  /** Spent by `transaction`. */
  | { state: "used"; transaction: Hex }
  /**
   * Cancelled by its signer (`AuthorizationCanceled`), or spent with no transfer in the blocks before
   * its `validBefore` (after which the token refuses one): never paid.
   */
  | { state: "cancelled" }
  /** Spent or cancelled, its log not found up to block `searchedTo`: search on from the block after. */
  | { state: "searching"; searchedTo: bigint };

/** Where the search for an authorization's log runs: from `fromBlock`, through the blocks before `validBefore`. */
export interface LogSearch {
  fromBlock: bigint;
  validBefore: Date;
}

/** A settlement transaction, after the wait for its confirmations. */
export type ConfirmedTransaction =
  | { ok: true }
  | { ok: false; reason: "transaction_reverted" | "authorization_not_in_transaction" };

/** The token's chain as the top-up needs it: receipts, confirmations, authorization state. Throws when the node cannot answer. */
export interface PaymentChain {
  /** Waits until `transaction` has `confirmations` blocks (1 = mined), up to `timeoutMs`. */
  confirm(transaction: Hex, payer: Address, nonce: Hex, timeoutMs: number): Promise<ConfirmedTransaction>;
  /**
   * Whether the authorization was spent, by which transaction, or cancelled: its logs are searched
   * forward from `search.fromBlock` in ranges of at most LOG_RANGE_BLOCKS, LOG_CHUNKS_PER_SEARCH of them.
   */
  authorization(payer: Address, nonce: Hex, search: LogSearch): Promise<AuthorizationOnChain>;
  /** The chain's height now. */
  blockNumber(): Promise<bigint>;
  /** The first block mined at or after `time` (the head when none is yet): a binary search over block times. */
  blockAt(time: Date): Promise<bigint>;
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
  const topics = {
    used: encodeEventTopics({ abi: EIP3009_ABI, eventName: "AuthorizationUsed" })[0],
    cancelled: encodeEventTopics({ abi: EIP3009_ABI, eventName: "AuthorizationCanceled" })[0],
  };
  const timeOf = async (blockNumber: bigint) => (await client.getBlock({ blockNumber })).timestamp;

  /** Both events of one authorization in blocks `from`..`to`, in one call. */
  async function logsOf(payer: Address, nonce: Hex, from: bigint, to: bigint) {
    const logs = await client.request({
      method: "eth_getLogs",
      params: [
        {
          address: asset,
          fromBlock: numberToHex(from),
          toBlock: numberToHex(to),
          topics: [[topics.used, topics.cancelled], pad(payer), nonce],
        },
      ],
    });
    return parseEventLogs({ abi: EIP3009_ABI, logs: logs.map((log) => formatLog(log)) }).filter(
      (log) =>
        getAddress(log.address) === asset &&
        getAddress(log.args.authorizer) === getAddress(payer) &&
        log.args.nonce.toLowerCase() === nonce.toLowerCase(),
    );
  }

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
    blockNumber: () => client.getBlockNumber({ cacheTime: 0 }),
    async blockAt(time) {
      const target = BigInt(Math.floor(time.getTime() / 1000));
      let low = 0n;
      let high = await client.getBlockNumber({ cacheTime: 0 });
      while (low < high) {
        const middle = (low + high) / 2n;
        if ((await timeOf(middle)) < target) low = middle + 1n;
        else high = middle;
      }
      return low;
    },
    async authorization(payer, nonce, search) {
      const spent = await client.readContract({
        address: asset,
        abi: EIP3009_ABI,
        functionName: "authorizationState",
        args: [payer, nonce],
      });
      if (!spent) return { state: "unused" };
      const head = await client.getBlockNumber({ cacheTime: 0 });
      let from = search.fromBlock;
      for (let chunk = 0; chunk < LOG_CHUNKS_PER_SEARCH && from <= head; chunk++) {
        const to = from + LOG_RANGE_BLOCKS - 1n < head ? from + LOG_RANGE_BLOCKS - 1n : head;
        for (const log of await logsOf(payer, nonce, from, to)) {
          if (log.eventName === "AuthorizationCanceled") return { state: "cancelled" };
          if (isHex(log.transactionHash)) return { state: "used", transaction: log.transactionHash };
        }
        from = to + 1n;
      }
      const searchedTo = from - 1n;
      // The token refuses a transfer at or after validBefore: once a searched block is that late, no
      // transfer of this authorization can come, and what spent it was a cancellation.
      const validBefore = BigInt(Math.floor(search.validBefore.getTime() / 1000));
      if (searchedTo >= 0n && (await timeOf(searchedTo)) >= validBefore) return { state: "cancelled" };
      return { state: "searching", searchedTo };
    },
  };
}
