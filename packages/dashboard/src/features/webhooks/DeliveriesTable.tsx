import { Fragment, useId, useState } from "react";
import { formatCount } from "../../lib/format";
import { RelativeTime } from "../../ui/RelativeTime";
import { Empty, ErrorMessage, Loading } from "../../ui/Status";
import { TableScroll } from "../../ui/TableScroll";
import { useNow } from "../../ui/use-now";
import { useRedeliver } from "./use-webhook-actions";
import { useDeliveries } from "./use-webhooks";
import {
  describeDeliveryStatus,
  describeEventType,
  type Webhook,
  type WebhookDelivery,
} from "./webhook-words";

const STATUS_BADGES: Record<WebhookDelivery["status"], string> = {
  succeeded: "badge-active",
  failed: "badge-revoked",
  pending: "badge-expired",
  dropped: "badge-revoked",
};

/**
 * The endpoint's latest deliveries (at most 100, newest first): event, status in words, attempts, next
 * try, last status code and duration, when; the response's first 1 KiB on "Response", and "Redeliver".
 * It refreshes every 2 s while one is pending.
 */
export function DeliveriesTable({ wallet, webhook }: { wallet: string; webhook: Webhook }) {
  const deliveries = useDeliveries(wallet, webhook.id);
  const redeliver = useRedeliver(wallet, webhook);
  const now = useNow(5_000);
  const titleId = useId();
  const list = deliveries.data?.deliveries ?? [];

  return (
    <section aria-labelledby={titleId} className="key-section">
      <h2 id={titleId}>Deliveries</h2>
      {deliveries.isPending ? <Loading label="Loading deliveries…" /> : null}
      {deliveries.isError ? (
        <ErrorMessage error={deliveries.error} onRetry={() => deliveries.refetch()} />
      ) : null}
      {redeliver.isError ? <ErrorMessage error={redeliver.error} /> : null}
      {deliveries.isSuccess && list.length === 0 ? (
        <Empty>
          <p>
            No deliveries yet. Events this endpoint subscribes to show here as they are sent; "Send test
            event" sends one now.
          </p>
        </Empty>
      ) : null}
      {list.length > 0 ? (
        <TableScroll label="Deliveries, newest first">
          <table className="table card-table" aria-labelledby={titleId}>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Next try</th>
                <th scope="col">Last answer</th>
                <th scope="col">Duration</th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((delivery) => (
                <DeliveryRow
                  key={delivery.id}
                  delivery={delivery}
                  now={now}
                  busy={redeliver.isPending}
                  onRedeliver={() => redeliver.redeliver(delivery.id)}
                />
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
    </section>
  );
}

function DeliveryRow({
  delivery,
  now,
  busy,
  onRedeliver,
}: {
  delivery: WebhookDelivery;
  now: Date;
  busy: boolean;
  onRedeliver: () => void;
}) {
  const [expanded, setExpanded] = useState(false);
  const responseId = useId();
  const event = describeEventType(delivery.type);
  const status = describeDeliveryStatus(delivery);
  return (
    <Fragment>
      <tr>
        <th scope="row">
          {event}
          <span className="cell-note">
            <code>{delivery.messageId}</code>
          </span>
        </th>
        <td data-label="Status">
          <span className={`badge ${STATUS_BADGES[delivery.status]}`}>{status}</span>
        </td>
        <td data-label="Attempts">{formatCount(delivery.attempts)}</td>
        <td data-label="Next try">
          <RelativeTime value={delivery.nextAttemptAt} now={now} empty="none" />
        </td>
        <td data-label="Last answer">
          {delivery.statusCode !== null ? (
            delivery.statusCode
          ) : (
            <span className="muted">{delivery.attempts > 0 ? "no answer" : "not tried yet"}</span>
          )}
        </td>
        <td data-label="Duration">
          {delivery.durationMs !== null ? (
            `${formatCount(delivery.durationMs)} ms`
          ) : (
            <span className="muted">–</span>
          )}
        </td>
        <td data-label="Created">
          <RelativeTime value={delivery.createdAt} now={now} empty="unknown" />
        </td>
        <td className="actions-cell">
          <div className="row-actions">
            {delivery.response !== null ? (
              <button
                type="button"
                className="button button-small"
                aria-expanded={expanded}
                aria-controls={expanded ? responseId : undefined}
                aria-label={`Response to ${event}, ${status}`}
                onClick={() => setExpanded((open) => !open)}
              >
                Response
              </button>
            ) : null}
            <button
              type="button"
              className="button button-small"
              aria-label={`Redeliver ${event}, ${status}`}
              // The server refuses a pending delivery (409): it is on its way already.
              disabled={busy || delivery.status === "pending"}
              onClick={onRedeliver}
            >
              Redeliver
            </button>
          </div>
        </td>
      </tr>
      {delivery.response !== null && expanded ? (
        <tr className="delivery-response">
          <td colSpan={8} id={responseId}>
            <span className="visually-hidden">Response body (first 1 KiB): </span>
            <pre>{delivery.response}</pre>
          </td>
        </tr>
      ) : null}
    </Fragment>
  );
}
