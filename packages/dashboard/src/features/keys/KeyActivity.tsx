import { MAX_PAGE_LIMIT } from "@keyport/server/schemas";
import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { Link } from "../../lib/router";
import { trpc } from "../../lib/trpc";
import { Empty, ErrorMessage, Loading } from "../../ui/Status";
import { EventItem } from "../events/EventItem";

/**
 * The key's latest MAX_PAGE_LIMIT events (the server's `events.list` filtered by `keyId`), newest
 * first, in the activity view's words; "All activity of this key" opens the activity view filtered to it.
 */
export function KeyActivity({ wallet, keyId }: { wallet: string; keyId: string }) {
  const titleId = useId();
  const list = useQuery(trpc.events.list.queryOptions({ wallet, keyId, limit: MAX_PAGE_LIMIT }));
  const events = list.data?.events ?? [];
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
          {events.map((event) => (
            <EventItem key={event.id} event={event} showKey={false} />
          ))}
        </ol>
      )}
      <p>
        <Link to={`/activity?key=${encodeURIComponent(keyId)}`}>All activity of this key</Link>
      </p>
    </section>
  );
}
