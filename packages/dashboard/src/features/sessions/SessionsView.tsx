import { useQuery } from "@tanstack/react-query";
import { formatDateTime } from "../../lib/format";
import { trpc } from "../../lib/trpc";
import { RelativeTime } from "../../ui/RelativeTime";
import { ErrorMessage, Loading } from "../../ui/Status";
import { TableScroll } from "../../ui/TableScroll";
import { useNow } from "../../ui/use-now";
import { describeUserAgent } from "./browser-words";
import { useEndOtherSessions, useEndSession } from "./use-session-actions";

type WalletSession = NonNullable<ReturnType<typeof useSessions>["data"]>["sessions"][number];

function useSessions() {
  return useQuery(trpc.auth.sessions.queryOptions());
}

/**
 * The wallet's signed-in sessions (this browser's marked "This session"): when each signed in and was
 * last seen, its browser and address; "Sign out" for each other one, and "Sign out other sessions".
 */
export function SessionsView() {
  const sessions = useSessions();
  const endOthers = useEndOtherSessions();
  const now = useNow();
  const list = sessions.data?.sessions ?? [];
  const others = list.filter((session) => !session.current).length;

  return (
    <section aria-labelledby="sessions-title">
      <div className="view-header">
        <h1 id="sessions-title">Sessions</h1>
        <button
          type="button"
          className="button button-danger"
          disabled={others === 0 || endOthers.isPending}
          onClick={() => endOthers.mutate()}
        >
          Sign out other sessions
        </button>
      </div>
      <p className="muted">
        Every browser or client signed in as this wallet. Signing one out ends it at once: its next request
        asks it to sign in again. Last seen is updated at most once a minute.
      </p>
      {endOthers.isError ? <ErrorMessage error={endOthers.error} /> : null}
      {sessions.isPending ? <Loading label="Loading sessions…" /> : null}
      {sessions.isError ? <ErrorMessage error={sessions.error} onRetry={() => sessions.refetch()} /> : null}
      {list.length > 0 ? (
        <TableScroll label="Signed-in sessions">
          {/* On a phone each row is a card (styles.css: .card-table), so nothing scrolls sideways. */}
          <table className="table card-table sessions-table" aria-labelledby="sessions-title">
            <thead>
              <tr>
                <th scope="col">Browser</th>
                <th scope="col">Address</th>
                <th scope="col">Signed in</th>
                <th scope="col">Last seen</th>
                <th scope="col">Ends</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((session) => (
                <SessionRow key={session.id} session={session} now={now} />
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
    </section>
  );
}

function SessionRow({ session, now }: { session: WalletSession; now: Date }) {
  const words = describeUserAgent(session.userAgent);
  const address = session.ip ?? "unknown address";
  // Two sessions of one browser differ by when they signed in: the button's name says both.
  const name = `${words} (${address}), signed in ${formatDateTime(session.createdAt)}`;
  const end = useEndSession(words);
  return (
    <tr>
      <th scope="row">
        <span title={session.userAgent ?? undefined}>{words}</span>
        {session.current ? <span className="badge badge-active">This session</span> : null}
      </th>
      <td data-label="Address">
        {session.ip === null ? <span className="muted">unknown</span> : <code>{session.ip}</code>}
      </td>
      <td data-label="Signed in">
        <RelativeTime value={session.createdAt} now={now} empty="never" />
      </td>
      <td data-label="Last seen">
        <RelativeTime value={session.lastSeenAt} now={now} empty="never" />
      </td>
      <td data-label="Ends">
        <RelativeTime value={session.expiresAt} now={now} empty="never" />
      </td>
      <td className="actions-cell">
        {session.current ? null : (
          <button
            type="button"
            className="button button-small button-danger"
            aria-label={`Sign out ${name}`}
            disabled={end.isPending}
            onClick={() => end.mutate({ id: session.id })}
          >
            Sign out
          </button>
        )}
        {end.isError ? <ErrorMessage error={end.error} /> : null}
      </td>
    </tr>
  );
}
