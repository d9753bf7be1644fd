import { MAX_PAGE_LIMIT } from "@keyport/server/schemas";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { navigate, useSearch } from "../../lib/router";
import { trpc } from "../../lib/trpc";
import { Empty, ErrorMessage, Loading } from "../../ui/Status";
import { UsageChart } from "./UsageChart";
import { UsageKeysTable } from "./UsageKeysTable";
import { UsageTotals } from "./UsageTotals";
import { USAGE_RANGES, usageQueryInput } from "./usage-range";
import { parseUsageSearch, type UsageUrlState, usageHref } from "./usage-url";

/**
 * Usage of the wallet's keys: range and key filter (kept in the URL, `?range=&key=`), totals, a
 * stacked chart and a table per key.
 */
export function UsageView({ wallet }: { wallet: string }) {
  const { rangeId, keyId } = parseUsageSearch(useSearch());
  const show = (next: UsageUrlState) => navigate(usageHref(next), { replace: true });
  // The range ends when it was chosen: a `new Date()` per render would make every render a new query.
  const [anchor, setAnchor] = useState(() => new Date());
  const usage = useQuery({
    ...trpc.usage.get.queryOptions(usageQueryInput(wallet, rangeId, anchor, keyId)),
    placeholderData: keepPreviousData,
  });
  const keys = useQuery(trpc.keys.list.queryOptions({ wallet, status: "all", limit: MAX_PAGE_LIMIT }));

  return (
    <section aria-labelledby="usage-title">
      <div className="view-header">
        <h1 id="usage-title">Usage</h1>
        <button type="button" className="button" onClick={() => setAnchor(new Date())}>
          Refresh
        </button>
      </div>
      <div className="toolbar">
        <fieldset className="segmented">
          <legend className="visually-hidden">Range</legend>
          {USAGE_RANGES.map((range) => (
            <button
              key={range.id}
              type="button"
              className="button"
              aria-pressed={range.id === rangeId}
              onClick={() => {
                show({ rangeId: range.id, keyId });
                setAnchor(new Date());
              }}
            >
              {range.label}
            </button>
          ))}
        </fieldset>
        <label className="field field-inline">
          <span>Key</span>
          <select
            value={keyId ?? ""}
            onChange={(event) =>
              show({
                rangeId,
                keyId: event.currentTarget.value === "" ? undefined : event.currentTarget.value,
              })
            }
          >
            <option value="">All keys</option>
            {keys.data?.keys.map((key) => (
              <option key={key.id} value={key.id}>
                {key.name} ({key.start}…)
              </option>
            ))}
          </select>
        </label>
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
              <p>
                No verifications in this range yet. Verify a key and its usage shows here within a few
                seconds.
              </p>
            </Empty>
          ) : (
            <>
              <UsageChart series={usage.data.series} granularity={usage.data.granularity} />
              <UsageKeysTable keys={usage.data.keys} rangeId={rangeId} />
            </>
          )}
        </>
      )}
    </section>
  );
}
