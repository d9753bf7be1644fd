import { KEY_EVENT_ACTIONS, MAX_PAGE_LIMIT } from "@keyport/server/schemas";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { navigate, useSearch } from "../../lib/router";
import { trpc } from "../../lib/trpc";
import { Empty, ErrorMessage, Loading } from "../../ui/Status";
import { EventItem } from "./EventItem";
import { describeAction } from "./event-words";
import { type EventsFilter, eventsHref, parseEventsSearch } from "./events-url";

const PAGE_SIZE = 20;

/**
 * The wallet's audit trail, newest first: what happened, to which key, when, and what changed;
 * filtered by key and action (kept in the URL, `?key=&action=`).
 */
export function EventsView({ wallet }: { wallet: string }) {
  const filter = parseEventsSearch(useSearch());
  // Cursors of the pages seen so far, so "Previous page" needs no cursor from the server; a new
  // filter starts again at the first page.
  const [paging, setPaging] = useState<{ href: string; cursors: (string | undefined)[] }>({
    href: "",
    cursors: [undefined],
  });
  const href = eventsHref(filter);
  const cursors = paging.href === href ? paging.cursors : [undefined];
  const setCursors = (next: (string | undefined)[]) => setPaging({ href, cursors: next });
  const cursor = cursors[cursors.length - 1];
  const list = useQuery({
    ...trpc.events.list.queryOptions({
      wallet,
      limit: PAGE_SIZE,
      cursor,
      ...(filter.keyId === undefined ? {} : { keyId: filter.keyId }),
      ...(filter.action === undefined ? {} : { action: filter.action }),
    }),
    placeholderData: keepPreviousData,
  });
  const show = (next: EventsFilter) => navigate(eventsHref(next), { replace: true });
  // Names for the key ids in events; a key beyond the first page (the largest the server gives) shows by its id.
  const keys = useQuery(trpc.keys.list.queryOptions({ wallet, status: "all", limit: MAX_PAGE_LIMIT }));
  const keyNames = useMemo(
    () => new Map((keys.data?.keys ?? []).map((key) => [key.id, key.name] as const)),
    [keys.data],
  );

  return (
    <section aria-labelledby="events-title">
      <div className="view-header">
        <h1 id="events-title">Activity</h1>
        <button type="button" className="button" onClick={() => list.refetch()}>
          Refresh
        </button>
      </div>
      <p className="muted">
        Everything that happened to this wallet: keys created, updated, rolled, revoked or found in public,
        credits topped up, sign-ins and sign-outs, changes of the wallet-wide limit, and webhook endpoints
        added, changed, deleted or disabled.
      </p>
      <div className="toolbar">
        <label className="field field-inline">
          <span>Key</span>
          <select
            value={filter.keyId ?? ""}
            onChange={(event) => {
              const value = event.currentTarget.value;
              show({ ...filter, keyId: value === "" ? undefined : value });
            }}
          >
            <option value="">All keys</option>
            {keys.data?.keys.map((key) => (
              <option key={key.id} value={key.id}>
                {key.name} ({key.start}…)
              </option>
            ))}
          </select>
        </label>
        <label className="field field-inline">
          <span>Action</span>
          <select
            value={filter.action ?? ""}
            onChange={(event) => {
              const value = event.currentTarget.value;
              show({ ...filter, action: KEY_EVENT_ACTIONS.find((action) => action === value) });
            }}
          >
            <option value="">All actions</option>
            {KEY_EVENT_ACTIONS.map((action) => (
              <option key={action} value={action}>
                {describeAction(action)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {list.isPending ? (
        <Loading label="Loading activity…" />
      ) : list.isError ? (
        <ErrorMessage error={list.error} onRetry={() => list.refetch()} />
      ) : list.data.events.length === 0 ? (
        <Empty>
          <p>
            {filter.keyId === undefined && filter.action === undefined
              ? "No activity yet."
              : "No activity matches these filters."}
          </p>
        </Empty>
      ) : (
        <>
          <ol className="events" aria-label="Events, newest first">
            {list.data.events.map((event) => (
              <EventItem key={event.id} event={event} keyNames={keyNames} />
            ))}
          </ol>
          <nav className="pager" aria-label="Pages of activity">
            <button
              type="button"
              className="button"
              disabled={cursors.length === 1}
              onClick={() => setCursors(cursors.slice(0, -1))}
            >
              Newer
            </button>
            <span>Page {cursors.length}</span>
            <button
              type="button"
              className="button"
              disabled={list.data.nextCursor === null}
              onClick={() => {
                const next = list.data.nextCursor;
                if (next !== null) setCursors([...cursors, next]);
              }}
            >
              Older
            </button>
          </nav>
        </>
      )}
    </section>
  );
}
