import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Link } from "../../lib/router";
import { trpc } from "../../lib/trpc";
import { Empty, ErrorMessage, Loading } from "../../ui/Status";
import { UsageChart } from "../usage/UsageChart";
import { UsageTotals } from "../usage/UsageTotals";
import { usageQueryInput } from "../usage/usage-range";

/** The key's verifications of the last 7 days by outcome: the usage view's totals and chart, for this key. */
export function KeyUsage({ wallet, keyId }: { wallet: string; keyId: string }) {
  const titleId = useId();
  // The range ends when the page opened: a `new Date()` per render would make every render a new query.
  const [anchor, setAnchor] = useState(() => new Date());
  const usage = useQuery({
    ...trpc.usage.get.queryOptions(usageQueryInput(wallet, "7d", anchor, keyId)),
    placeholderData: keepPreviousData,
  });
  return (
    <section aria-labelledby={titleId} className="key-section">
      <div className="view-header">
        <h2 id={titleId}>Usage, last 7 days</h2>
        <button type="button" className="button button-small" onClick={() => setAnchor(new Date())}>
          Refresh usage
        </button>
      </div>
      {usage.isPending ? (
        <Loading label="Loading usage…" />
      ) : usage.isError ? (
        <ErrorMessage error={usage.error} onRetry={() => usage.refetch()} />
      ) : (
        <>
          <UsageTotals totals={usage.data.totals} />
          {usage.data.totals.requests === 0 ? (
            <Empty>
              <p>No verifications of this key in the last 7 days.</p>
            </Empty>
          ) : (
            <UsageChart series={usage.data.series} granularity={usage.data.granularity} />
          )}
        </>
      )}
      <p>
        <Link to="/usage">All usage</Link>
      </p>
    </section>
  );
}
