import { createConfig, injected, unstable_connector } from "wagmi";
import { mainnet } from "wagmi/chains";

/**
 * Injected wallets only, found through EIP-6963 (wagmi's `multiInjectedProviderDiscovery`) with
 * `window.ethereum` as the fallback connector. The transport goes through the wallet itself: no public
 * RPC, no WalletConnect relay, so nothing leaves the page's origin. Signing a message is all we need.
 */
export const wagmiConfig = createConfig({
  chains: [mainnet],
  connectors: [injected()],
  multiInjectedProviderDiscovery: true,
  transports: { [mainnet.id]: unstable_connector(injected) },
});

declare module "wagmi" {
  interface Register {
    config: typeof wagmiConfig;
  }
}
