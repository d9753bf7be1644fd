import { RECENT_VERIFICATIONS_KEPT } from "@keyport/server/schemas";
import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { formatCount } from "../../lib/format";
import { trpc } from "../../lib/trpc";
import { RelativeTime } from "../../ui/RelativeTime";
import { Empty, ErrorMessage, Loading } from "../../ui/Status";
import { TableScroll } from "../../ui/TableScroll";
import { useNow } from "../../ui/use-now";
import { outcomeWords } from "../usage/usage-range";

/**
 * The key's last verifications as the server keeps them (`keys.verifications`, newest first): when,
 * the outcome in the usage view's words (a rate-limited one names the limit that refused it), the permissions and cost asked and the client address. The
 * server writes them about once a second (docs/dashboard.md, "Key page"), hence the refresh button.
 */
export function RecentVerifications({ keyId }: { keyId: string }) {
  const titleId = useId();
  const now = useNow();
  const recent = useQuery(trpc.keys.verifications.queryOptions({ id: keyId }));
  return (
    <section aria-labelledby={titleId} className="key-section">
      <div className="view-header">
        <h2 id={titleId}>Recent verifications</h2>
        <button type="button" className="button button-small" onClick={() => recent.refetch()}>
          Refresh verifications
        </button>
      </div>
      {recent.isPending ? (
        <Loading label="Loading verifications…" />
      ) : recent.isError ? (
        <ErrorMessage error={recent.error} onRetry={() => recent.refetch()} />
      ) : recent.data.verifications.length === 0 ? (
        <Empty>
          <p>No verifications of this key yet. Each one shows here within a second or two.</p>
        </Empty>
      ) : (
        <TableScroll label="Recent verifications, newest first">
          <table className="table">
            <caption className="muted">
              The last {RECENT_VERIFICATIONS_KEPT} at most, newest first, refused attempts included.
            </caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Outcome</th>
                <th scope="col">Permissions asked</th>
                <th scope="col">Cost</th>
                <th scope="col">Client address</th>
              </tr>
            </thead>
            <tbody>
              {recent.data.verifications.map((row, index) => (
                // Rows have no id of their own; a key's list only ever changes as a whole (a refetch).
                // biome-ignore lint/suspicious/noArrayIndexKey: see above
                <tr key={`${row.at.getTime()}-${index}`}>
                  <td>
                    <RelativeTime value={row.at} now={now} empty="" />
                  </td>
                  <td>
                    {outcomeWords(row.outcome)}
                    {row.refusedBy === null ? null : (
                      <>
                        {" by "}
                        <code>{row.refusedBy.name}</code>
                        {row.refusedBy.scope === "wallet" ? " (wallet)" : null}
                      </>
                    )}
                  </td>
                  <td>
                    {row.permissions.length === 0 ? (
                      <span className="muted">none</span>
                    ) : (
                      <code>{row.permissions.join(", ")}</code>
                    )}
                  </td>
                  <td>{formatCount(row.cost)}</td>
                  <td>{row.ip === null ? <span className="muted">—</span> : <code>{row.ip}</code>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
