import { useId } from "react";
import { Link } from "../../lib/router";
import { RelativeTime } from "../../ui/RelativeTime";
import { Empty, ErrorMessage, Loading } from "../../ui/Status";
import { TableScroll } from "../../ui/TableScroll";
import { UrlText } from "../../ui/UrlText";
import { useNow } from "../../ui/use-now";
import { AddWebhookDialog } from "./AddWebhookDialog";
import { useWebhooks } from "./use-webhooks";
import { WebhookCapNotice } from "./WebhookCapNotice";
import { WebhookStateBadge } from "./WebhookStateBadge";
import { describeEvents, MAX_WEBHOOKS, webhookCapNotice } from "./webhook-words";

/**
 * `/webhooks`: the wallet's endpoints (URL, events, whether each receives them and if not why), with
 * "Add endpoint", the cap said before it is reached, and what webhooks are for when there are none.
 */
export function WebhooksView({ wallet }: { wallet: string }) {
  const webhooks = useWebhooks(wallet);
  const now = useNow();
  const capNoticeId = useId();
  const list = webhooks.data?.webhooks ?? [];
  const full = webhookCapNotice(list.length, MAX_WEBHOOKS) === "full";

  return (
    <section aria-labelledby="webhooks-title">
      <div className="view-header">
        <h1 id="webhooks-title">Webhooks</h1>
        <AddWebhookDialog wallet={wallet} disabledBy={full ? capNoticeId : undefined} />
      </div>
      <WebhookCapNotice id={capNoticeId} count={list.length} cap={MAX_WEBHOOKS} />
      {webhooks.isPending ? <Loading label="Loading endpoints…" /> : null}
      {webhooks.isError ? <ErrorMessage error={webhooks.error} onRetry={() => webhooks.refetch()} /> : null}
      {webhooks.isSuccess && list.length === 0 ? (
        <Empty>
          <p>
            <strong>No endpoints yet.</strong> Webhooks tell your backend the moment something changes: a key
            created, rolled, revoked or expiring, credits running low or topped up, the wallet-wide limit
            changed. Add an endpoint and Keyport POSTs each event to it, signed.
          </p>
        </Empty>
      ) : null}
      {list.length > 0 ? (
        <TableScroll label="Webhook endpoints">
          {/* On a phone each row is a card (styles.css: .card-table), so nothing scrolls sideways. */}
          <table className="table card-table webhooks-table" aria-labelledby="webhooks-title">
            <thead>
              <tr>
                <th scope="col">Endpoint</th>
                <th scope="col">Events</th>
                <th scope="col">Status</th>
                <th scope="col">Added</th>
              </tr>
            </thead>
            <tbody>
              {list.map((webhook) => (
                <tr key={webhook.id}>
                  <th scope="row">
                    <Link to={`/webhooks/${webhook.id}`} className="webhook-url">
                      <UrlText url={webhook.url} />
                    </Link>
                    {webhook.description !== null && webhook.description !== "" ? (
                      <span className="cell-note">{webhook.description}</span>
                    ) : null}
                  </th>
                  <td data-label="Events" className="wrap">
                    {describeEvents(webhook.events)}
                  </td>
                  <td data-label="Status">
                    <WebhookStateBadge webhook={webhook} />
                  </td>
                  <td data-label="Added">
                    <RelativeTime value={webhook.createdAt} now={now} empty="unknown" />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
    </section>
  );
}
