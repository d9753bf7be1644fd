import { checksummed, formatDateTime } from "../../lib/format";
import { Link } from "../../lib/router";
import type { OperatorEvent } from "./operator-types";
import { actionWords, actorWords } from "./operator-words";

/** Operator actions, newest first: what, by whom, on which wallet and key, why. */
export function OperatorEventList({
  events,
  showWallet,
}: {
  events: readonly OperatorEvent[];
  showWallet: boolean;
}) {
  return (
    <ol className="events">
      {events.map((event) => (
        <li key={event.id} className="event">
          <div className="event-head">
            <strong>{actionWords(event.action)}</strong>
            <time className="muted" dateTime={event.at.toISOString()}>
              {formatDateTime(event.at)}
            </time>
          </div>
          <dl className="event-changes">
            <div>
              <dt>By</dt>
              <dd>{actorWords(event.actor)}</dd>
            </div>
            {showWallet && event.wallet !== null ? (
              <div>
                <dt>Wallet</dt>
                <dd>
                  <Link to={`/operator/wallets/${event.wallet}`}>{checksummed(event.wallet)}</Link>
                </dd>
              </div>
            ) : null}
            {event.keyId === null ? null : (
              <div>
                <dt>Key</dt>
                <dd>
                  <code>{event.keyId}</code>
                </dd>
              </div>
            )}
            {event.reason === null ? null : (
              <div>
                <dt>Reason</dt>
                <dd>{event.reason}</dd>
              </div>
            )}
          </dl>
        </li>
      ))}
    </ol>
  );
}
