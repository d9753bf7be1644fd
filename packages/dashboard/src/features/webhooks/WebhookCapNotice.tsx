import { webhookCapNotice } from "./webhook-words";

/**
 * Said before the user hits the cap: one short of it, and at it (then "Add endpoint" is disabled and
 * points here). The server answers an eleventh endpoint 409.
 */
export function WebhookCapNotice({ id, count, cap }: { id: string; count: number; cap: number }) {
  const notice = webhookCapNotice(count, cap);
  if (notice === null) return null;
  return (
    <div id={id} className="notice notice-inline" role="note">
      <p>
        {notice === "full"
          ? `This wallet has ${count} endpoints, the most Keyport allows (${cap}): delete one before adding another.`
          : `This wallet has ${count} endpoints; Keyport allows ${cap}. One endpoint can receive many event types.`}
      </p>
    </div>
  );
}
