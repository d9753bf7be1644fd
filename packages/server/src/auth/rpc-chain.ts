import type { Logger } from "pino";
import type { SiweSettings } from "./siwe.js";

/** Thrown at start when RPC_URL serves a chain SIWE_CHAIN_IDS does not name. */
export class RpcChainError extends Error {
  override name = "RpcChainError";
}

/**
 * Asks the node behind RPC_URL which chain it serves, once at start: a node on a chain
 * SIWE_CHAIN_IDS does not name could never check a contract wallet, so the server refuses to start
 * (one line naming both chains, never the URL, which may hold the node's API key). A node that does
 * not answer is a warning: contract-wallet sign-ins are 503 until it does, EOAs are unaffected.
 * @throws RpcChainError when the node's chain is not one of SIWE_CHAIN_IDS.
 */
export async function checkRpcChain(settings: SiweSettings, logger: Pick<Logger, "warn">): Promise<void> {
  const client = settings.publicClient;
  if (client === null) return;
  let chainId: number;
  try {
    chainId = await client.getChainId();
  } catch {
    logger.warn("RPC_URL did not answer at start: contract-wallet sign-ins are 503 until it does");
    return;
  }
  if (settings.chainIds.includes(chainId)) return;
  throw new RpcChainError(
    `RPC_URL serves chain ${chainId}, which SIWE_CHAIN_IDS (${settings.chainIds.join(",")}) does not name: add it, or point RPC_URL at a node of one of those chains`,
  );
}
