import { WebhookPage } from "../features/webhooks/WebhookPage";

/** `/webhooks/:id`: one endpoint's page (lazy-loaded). */
export function WebhookRoute({ wallet, id }: { wallet: string; id: string }) {
  return <WebhookPage wallet={wallet} id={id} />;
}
