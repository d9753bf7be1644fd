import { CoinView } from "../features/markets/CoinView";

/** `/markets/:id`: one coin's price chart (lazy-loaded). */
export function CoinRoute({ id }: { id: string }) {
  return <CoinView id={id} />;
}
