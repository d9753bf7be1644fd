import type { QueryClient } from "@tanstack/react-query";
import type { Address } from "viem";
import type { Connector } from "wagmi";
import { connect, disconnect, getConnection, signMessage } from "wagmi/actions";
import { clearEndedSession, endedSession } from "../../lib/ended-session";
import { createSession, deleteSession, SESSION_QUERY_KEY, type Session } from "../../lib/session-api";
import { forgetTabMemory } from "../../lib/tab-memory";
import { trpcClient } from "../../lib/trpc";
import { wagmiConfig } from "../../lib/wagmi";
import { WrongChainError } from "./chains";
import { buildSignInMessage } from "./siwe-message";

// Queries that belong to no wallet survive a change of session; everything else is another wallet's.
const WALLET_FREE_QUERIES = new Set(["session", "meta", "markets", "coin-chart"]);

function dropWalletData(queryClient: QueryClient): void {
  queryClient.removeQueries({
    predicate: (query) => !WALLET_FREE_QUERIES.has(String(query.queryKey[0])),
  });
}

/**
 * Signs in with `connector`: connects it (or uses its current account), checks that the wallet is on a
 * chain the server accepts (`allowedChainIds`, else `WrongChainError` before anything is signed), asks
 * the server for a nonce, has the wallet `personal_sign` the EIP-4361 message, and trades it for the
 * session cookie.
 */
export async function signIn(
  connector: Connector,
  queryClient: QueryClient,
  allowedChainIds: readonly number[],
): Promise<Session> {
  const current = getConnection(wagmiConfig);
  let address: Address | undefined;
  let chainId: number | undefined;
  if (current.status === "connected" && current.connector.uid === connector.uid) {
    address = current.address;
    chainId = current.chainId;
  } else {
    const connected = await connect(wagmiConfig, { connector });
    address = connected.accounts[0];
    chainId = connected.chainId;
  }
  if (address === undefined) throw new Error("The wallet shared no account.");
  // Asked of the wallet itself: the connection's chain lags a switch made a moment ago.
  chainId = await connector.getChainId().catch(() => chainId);
  if (chainId !== undefined && !allowedChainIds.includes(chainId)) {
    throw new WrongChainError(chainId, allowedChainIds);
  }

  const { nonce } = await trpcClient.auth.nonce.mutate();
  const message = buildSignInMessage({
    address,
    chainId,
    nonce,
    host: window.location.host,
    origin: window.location.origin,
    now: new Date(),
  });
  const signature = await signMessage(wagmiConfig, { account: address, message, connector });
  const session = await createSession(message, signature);
  const ended = endedSession();
  if (ended !== null && ended.wallet.toLowerCase() === session.wallet.toLowerCase()) {
    // The same wallet back after its session ended: its page stayed on screen; refresh what it shows.
    queryClient.setQueryData(SESSION_QUERY_KEY, session);
    clearEndedSession();
    void queryClient.invalidateQueries({
      predicate: (query) => !WALLET_FREE_QUERIES.has(String(query.queryKey[0])),
    });
    return session;
  }
  dropWalletData(queryClient);
  queryClient.setQueryData(SESSION_QUERY_KEY, session);
  clearEndedSession();
  return session;
}

/** Ends the session on the server, forgets the wallet's data and disconnects the wallet. */
export async function signOut(queryClient: QueryClient): Promise<void> {
  await deleteSession();
  clearEndedSession();
  forgetTabMemory();
  dropWalletData(queryClient);
  queryClient.setQueryData(SESSION_QUERY_KEY, null);
  await disconnect(wagmiConfig).catch(() => {});
}
