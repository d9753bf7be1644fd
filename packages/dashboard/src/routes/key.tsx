import { KeyPage } from "../features/keys/KeyPage";

/** `/keys/:id`: one key's page. */
export function KeyRoute({ wallet, id }: { wallet: string; id: string }) {
  return <KeyPage wallet={wallet} id={id} />;
}
