import { KeysView } from "../features/keys/KeysView";

/** `/keys`. */
export function KeysRoute({ wallet }: { wallet: string }) {
  return <KeysView wallet={wallet} />;
}
