import { type Address, createPublicClient, custom, erc20Abi, formatUnits } from "viem";

/** What viem's `custom` transport takes: anything with an EIP-1193 `request`. */
type WalletProvider = Parameters<typeof custom>[0];

/**
 * The payer's balance of `token`, in whole tokens as a decimal string ("15", "0.5"), read through the
 * wallet's own node (`eth_call`): the page talks to no RPC of its own. Null when the wallet cannot
 * answer chain reads; the server's answer then says whether the funds sufficed.
 */
export async function readTokenBalance(
  provider: WalletProvider,
  token: Address,
  owner: Address,
): Promise<{ balance: bigint; decimals: number; text: string } | null> {
  const client = createPublicClient({ transport: custom(provider, { retryCount: 0 }) });
  try {
    const [balance, decimals] = await Promise.all([
      client.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [owner] }),
      client.readContract({ address: token, abi: erc20Abi, functionName: "decimals" }),
    ]);
    return { balance, decimals, text: formatUnits(balance, decimals) };
  } catch {
    return null;
  }
}
