/**
 * The wallets to offer: those announced through EIP-6963, or the generic `window.ethereum` connector
 * (wagmi's id "injected") when none announced itself (older wallets). The generic one is dropped when
 * real ones exist, since it would be a second button for one of them.
 */
export function walletChoices<T extends { id: string }>(
  connectors: readonly T[],
  hasWindowEthereum: boolean,
): T[] {
  const announced = connectors.filter((connector) => connector.id !== "injected");
  if (announced.length > 0) return announced;
  return hasWindowEthereum ? connectors.filter((connector) => connector.id === "injected") : [];
}
