import { describeWebhookState, type Webhook } from "./webhook-words";

/** "Enabled", or "Disabled" and why, as a badge. */
export function WebhookStateBadge({ webhook }: { webhook: Pick<Webhook, "enabled" | "disabledReason"> }) {
  return (
    <span className={`badge ${webhook.enabled ? "badge-active" : "badge-revoked"}`}>
      {describeWebhookState(webhook)}
    </span>
  );
}
