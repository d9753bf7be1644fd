import { MarketsView } from "../features/markets/MarketsView";

/** `/markets` (lazy-loaded). */
export function MarketsRoute() {
  return <MarketsView />;
}
