import { UsageView } from "../features/usage/UsageView";

/** `/usage` (lazy-loaded: it carries the chart). */
export function UsageRoute({ wallet }: { wallet: string }) {
  return <UsageView wallet={wallet} />;
}
