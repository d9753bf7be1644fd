import { useId } from "react";
import { Link } from "../../lib/router";
import { CopyButton } from "../../ui/CopyButton";
import { RelativeTime } from "../../ui/RelativeTime";
import { ErrorMessage, Loading } from "../../ui/Status";
import { useNow } from "../../ui/use-now";
import { DeleteWebhookDialog } from "./DeleteWebhookDialog";
import { DeliveriesTable } from "./DeliveriesTable";
import { EditWebhookDialog } from "./EditWebhookDialog";
import { RotateSecretDialog } from "./RotateSecretDialog";
import { useSendTestEvent, useSetWebhookEnabled } from "./use-webhook-actions";
import { useWebhooks } from "./use-webhooks";
import { WebhookStateBadge } from "./WebhookStateBadge";
import { describeEvents, type Webhook } from "./webhook-words";

/**
 * `/webhooks/:id`: one endpoint, as Stripe shows one: its details; Edit, Enable/Disable, Rotate secret,
 * Delete and "Send test event"; and its delivery log with "Redeliver". An id the wallet does not hold
 * says so, with a way back.
 */
export function WebhookPage({ wallet, id }: { wallet: string; id: string }) {
  const webhooks = useWebhooks(wallet);
  const titleId = useId();
  if (webhooks.isPending) return <Loading label="Loading endpoint…" />;
  if (webhooks.isError) return <ErrorMessage error={webhooks.error} onRetry={() => webhooks.refetch()} />;
  const webhook = webhooks.data.webhooks.find((candidate) => candidate.id === id);
  if (webhook === undefined) {
    return (
      <section aria-labelledby={titleId}>
        <h1 id={titleId}>Endpoint not found</h1>
        <p>
          This wallet has no webhook endpoint with the id <code>{id}</code>.{" "}
          <Link to="/webhooks">Back to your webhooks</Link>.
        </p>
      </section>
    );
  }
  return <WebhookDetails wallet={wallet} webhook={webhook} titleId={titleId} />;
}

function WebhookDetails({ wallet, webhook, titleId }: { wallet: string; webhook: Webhook; titleId: string }) {
  const now = useNow();
  const enable = useSetWebhookEnabled(wallet, webhook);
  const test = useSendTestEvent(wallet, webhook);
  return (
    <section aria-labelledby={titleId} className="key-page webhook-page">
      <p className="breadcrumb">
        <Link to="/webhooks">← Webhooks</Link>
      </p>
      <h1 id={titleId} className="webhook-title">
        {webhook.url} <WebhookStateBadge webhook={webhook} />
      </h1>
      <div className="row-actions webhook-actions">
        <button
          type="button"
          className="button button-primary"
          disabled={!webhook.enabled || test.isPending}
          aria-describedby={webhook.enabled ? undefined : `${titleId}-enable-first`}
          onClick={test.send}
        >
          Send test event
        </button>
        <EditWebhookDialog wallet={wallet} webhook={webhook} />
        <button
          type="button"
          className="button"
          disabled={enable.isPending}
          onClick={() => enable.set(!webhook.enabled)}
        >
          {webhook.enabled ? "Disable" : "Enable"}
        </button>
        <RotateSecretDialog wallet={wallet} webhook={webhook} />
        <DeleteWebhookDialog wallet={wallet} webhook={webhook} />
      </div>
      {webhook.enabled ? null : (
        <p id={`${titleId}-enable-first`} className="muted">
          A disabled endpoint receives nothing, test events included: enable it to send one.
        </p>
      )}
      {enable.isError ? <ErrorMessage error={enable.error} /> : null}
      {test.isError ? <ErrorMessage error={test.error} /> : null}
      <dl className="details">
        <div>
          <dt>ID</dt>
          <dd className="details-id">
            <code>{webhook.id}</code> <CopyButton text={webhook.id} label="Copy ID" />
          </dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>
            <WebhookStateBadge webhook={webhook} />
          </dd>
        </div>
        <div>
          <dt>Added</dt>
          <dd>
            <RelativeTime value={webhook.createdAt} now={now} empty="unknown" />
          </dd>
        </div>
        <div>
          <dt>Description</dt>
          <dd>{webhook.description || <span className="muted">none</span>}</dd>
        </div>
        <div className="details-wide">
          <dt>Events</dt>
          <dd>{describeEvents(webhook.events)}</dd>
        </div>
      </dl>
      <DeliveriesTable wallet={wallet} webhook={webhook} />
    </section>
  );
}
