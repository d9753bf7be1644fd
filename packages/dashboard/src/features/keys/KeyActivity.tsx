import { MAX_PAGE_LIMIT } from "@keyport/server/schemas";
import { useQuery } from "@tanstack/react-query";
import { useId, useMemo } from "react";
import { formatDateTime } from "../../lib/format";
import { Link } from "../../lib/router";
import { trpc } from "../../lib/trpc";
import { Empty, ErrorMessage, Loading } from "../../ui/Status";
import { describeAction, describeChanges } from "../events/event-words";

/**
 * The key's events among the wallet's latest MAX_PAGE_LIMIT (the server's `events.list` has no key
 * filter), newest first, in the activity view's words; "All activity" leads to the rest.
 */
export function KeyActivity({ wallet, keyId }: { wallet: string; keyId: string }) {
  const titleId = useId();
  const list = useQuery(trpc.events.list.queryOptions({ wallet, limit: MAX_PAGE_LIMIT }));
  const events = useMemo(
    () => (list.data?.events ?? []).filter((event) => event.keyId === keyId),
    [list.data, keyId],
  );
  const noNames = useMemo(() => new Map<string, string>(), []);
  return (
    <section aria-labelledby={titleId} className="key-section">
      <h2 id={titleId}>Activity</h2>
      {list.isPending ? (
        <Loading label="Loading activity…" />
      ) : list.isError ? (
        <ErrorMessage error={list.error} onRetry={() => list.refetch()} />
      ) : events.length === 0 ? (
        <Empty>
          <p>No recent activity for this key.</p>
        </Empty>
      ) : (
        <ol className="events" aria-label="Events of this key, newest first">
          {events.map((event) => {
            const changes = describeChanges(event, noNames);
            return (
              <li key={event.id} className="event">
                <div className="event-head">
                  <strong>{describeAction(event.action)}</strong>
                  <time className="muted" dateTime={event.at.toISOString()}>
                    {formatDateTime(event.at)}
                  </time>
                </div>
                {changes.length === 0 ? null : (
                  <dl className="event-changes">
                    {changes.map((change) => (
                      <div key={change.label}>
                        <dt>{change.label}</dt>
                        <dd>{change.value}</dd>
                      </div>
                    ))}
                  </dl>
                )}
              </li>
            );
          })}
        </ol>
      )}
      <p>
        <Link to="/events">All activity</Link>
      </p>
    </section>
  );
}
