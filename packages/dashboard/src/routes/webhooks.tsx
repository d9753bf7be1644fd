import { WebhooksView } from "../features/webhooks/WebhooksView";

/** `/webhooks` (lazy-loaded: most visits never open it). */
export function WebhooksRoute({ wallet }: { wallet: string }) {
  return <WebhooksView wallet={wallet} />;
}
