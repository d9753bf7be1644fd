import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { formatCount } from "../../lib/format";
import { describeRateLimit } from "../../lib/rate-limit";
import { trpc } from "../../lib/trpc";
import { RelativeTime } from "../../ui/RelativeTime";
import { Empty, ErrorMessage, Loading } from "../../ui/Status";
import { TableScroll } from "../../ui/TableScroll";
import { useNow } from "../../ui/use-now";

// Live enough to watch a burst, cheap enough to leave open: one read of the counters every 5 s.
const REFRESH_MS = 5_000;

/**
 * Each of the key's rate limits and its wallet's with its live use (`keys.rateLimitUse`): the sliding
 * count of the limit and when the current window ends (docs/dashboard.md, "Key page"). Reading
 * spends nothing.
 */
export function KeyLimitUse({ keyId }: { keyId: string }) {
  const titleId = useId();
  const now = useNow();
  const use = useQuery({
    ...trpc.keys.rateLimitUse.queryOptions({ id: keyId }),
    refetchInterval: REFRESH_MS,
  });
  return (
    <section aria-labelledby={titleId} className="key-section">
      <div className="view-header">
        <h2 id={titleId}>Rate limits</h2>
        <button type="button" className="button button-small" onClick={() => use.refetch()}>
          Refresh limits
        </button>
      </div>
      {use.isPending ? (
        <Loading label="Loading rate limits…" />
      ) : use.isError ? (
        <ErrorMessage error={use.error} onRetry={() => use.refetch()} />
      ) : use.data.ratelimits.length === 0 ? (
        <Empty>
          <p>
            Neither this key nor its wallet has a rate limit: every verification is counted, none refused for
            its rate.
          </p>
        </Empty>
      ) : (
        <TableScroll label="Rate limits and their use now">
          <table className="table">
            <caption className="muted">
              Use now over a sliding window: this window's count plus the last one's, weighted by how much of
              it still overlaps.
            </caption>
            <thead>
              <tr>
                <th scope="col">Limit</th>
                <th scope="col">Used now</th>
                <th scope="col">Of</th>
                <th scope="col">Applies to</th>
                <th scope="col">Window ends</th>
              </tr>
            </thead>
            <tbody>
              {use.data.ratelimits.map((limit) => (
                <tr key={`${limit.scope}:${limit.name}`}>
                  <th scope="row">
                    <code>{limit.name}</code>{" "}
                    {limit.scope === "wallet" ? <span className="muted">(wallet)</span> : null}
                  </th>
                  <td>
                    <meter
                      className="limit-meter"
                      min={0}
                      max={limit.limit}
                      high={limit.limit * 0.8}
                      value={limit.used}
                      aria-label={`${limit.name}: ${limit.used} of ${limit.limit} used`}
                    />{" "}
                    {`${formatCount(limit.used)} of ${formatCount(limit.limit)}`}
                  </td>
                  <td>{describeRateLimit(limit)}</td>
                  <td>{limit.autoApply ? "every request" : "requests naming it"}</td>
                  <td>
                    <RelativeTime value={limit.resetAt} now={now} empty="" />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
