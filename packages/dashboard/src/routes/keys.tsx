import { KeysView } from "../features/keys/KeysView";
import { WalletLimitPanel } from "../features/limits/WalletLimitPanel";

/** `/keys`: the wallet's keys, then its wallet-wide limit. */
export function KeysRoute({ wallet }: { wallet: string }) {
  return (
    <>
      <KeysView wallet={wallet} />
      <WalletLimitPanel wallet={wallet} />
    </>
  );
}
