import type { Connector } from "wagmi";

// Names of the chains people sign in from most; any other reads as "chain <id>".
const CHAIN_NAMES: Record<number, string> = {
  1: "Ethereum",
  10: "OP Mainnet",
  56: "BNB Smart Chain",
  137: "Polygon",
  8453: "Base",
  84532: "Base Sepolia",
  42161: "Arbitrum One",
  11155111: "Sepolia",
};

/** A chain's name for a sentence or a button: "Ethereum", "Base", else "chain 31337". */
export function chainName(chainId: number): string {
  return CHAIN_NAMES[chainId] ?? `chain ${chainId}`;
}

/** A list of chains in words: "Ethereum", "Ethereum or Base", "Ethereum, Base or Polygon". */
export function chainList(chainIds: readonly number[]): string {
  const names = chainIds.map(chainName);
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;
}

/** The wallet is on a chain the server's sign-in refuses; nothing was signed. */
export class WrongChainError extends Error {
  override name = "WrongChainError";
  constructor(
    readonly chainId: number,
    readonly allowed: readonly number[],
  ) {
    super(`The wallet is on ${chainName(chainId)}; Keyport signs in on ${chainList(allowed)}.`);
  }
}

interface Eip1193 {
  request(args: { method: string; params?: readonly unknown[] }): Promise<unknown>;
}

function isEip1193(value: unknown): value is Eip1193 {
  return (
    typeof value === "object" && value !== null && "request" in value && typeof value.request === "function"
  );
}

/**
 * Asks the wallet to switch to `chainId` (`wallet_switchEthereumChain`, EIP-3326). Through the
 * connector's own provider rather than wagmi's `switchChain`, which knows only the chains of the
 * page's config, while the chains that sign in are the server's setting.
 */
export async function switchWalletChain(connector: Connector, chainId: number): Promise<void> {
  const provider = await connector.getProvider();
  if (!isEip1193(provider)) throw new Error("The wallet cannot switch chains.");
  await provider.request({
    method: "wallet_switchEthereumChain",
    params: [{ chainId: `0x${chainId.toString(16)}` }],
  });
}
