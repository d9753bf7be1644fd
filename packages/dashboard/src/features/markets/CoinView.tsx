import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { dashboardClient } from "../../lib/dashboard-client";
import { formatCompactMoney, formatPercent, formatPrice } from "../../lib/format";
import { useMeta } from "../../lib/meta";
import { Link } from "../../lib/router";
import { ErrorMessage, Loading } from "../../ui/Status";
import { chartRangesFor } from "./chart-ranges";
import { currencyFromSearch } from "./currencies";
import { knownPoints } from "./line-path";
import { PriceChart } from "./PriceChart";

/** One coin: its price, 24 h change and market cap, and its price chart over a chosen range. */
export function CoinView({ id }: { id: string }) {
  const meta = useMeta();
  const [currency] = useState(() => currencyFromSearch(window.location.search));
  const [days, setDays] = useState<string>("7");
  const ranges = chartRangesFor(meta.coingeckoPlan);
  const range = ranges.find((candidate) => candidate.days === days) ?? ranges[1] ?? ranges[0];

  const coin = useQuery({
    queryKey: ["markets", currency, id],
    queryFn: () => dashboardClient.prices.markets({ vs_currency: currency, ids: id }),
    staleTime: 60_000,
  });
  const chart = useQuery({
    queryKey: ["coin-chart", id, currency, range?.days],
    queryFn: () => dashboardClient.prices.chart(id, { vs_currency: currency, days: range?.days ?? "7" }),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
  const info = coin.data?.[0];

  return (
    <section aria-labelledby="coin-title">
      <p>
        <Link to={`/markets?vs=${currency}`}>← All markets</Link>
      </p>
      <div className="view-header">
        <h1 id="coin-title">
          {info ? info.name : id} {info ? <span className="muted">{info.symbol.toUpperCase()}</span> : null}
        </h1>
      </div>
      {coin.isError ? (
        <ErrorMessage service="market" error={coin.error} onRetry={() => coin.refetch()} />
      ) : null}
      {info ? (
        <dl className="totals">
          <div className="total">
            <dt>Price</dt>
            <dd>{formatPrice(info.current_price, currency)}</dd>
          </div>
          <div className="total">
            <dt>24 h</dt>
            <dd>{formatPercent(info.price_change_percentage_24h)}</dd>
          </div>
          <div className="total">
            <dt>Market cap</dt>
            <dd>{formatCompactMoney(info.market_cap, currency)}</dd>
          </div>
        </dl>
      ) : null}
      <fieldset className="segmented">
        <legend className="visually-hidden">Chart range</legend>
        {ranges.map((option) => (
          <button
            key={option.days}
            type="button"
            className="button"
            aria-pressed={option.days === range?.days}
            onClick={() => setDays(option.days)}
          >
            {option.label}
          </button>
        ))}
      </fieldset>
      {chart.isPending ? (
        <Loading label="Loading the chart…" />
      ) : chart.isError ? (
        <ErrorMessage service="market" error={chart.error} onRetry={() => chart.refetch()} />
      ) : (
        <PriceChart prices={knownPoints(chart.data.prices)} currency={currency} days={range?.days ?? "7"} />
      )}
    </section>
  );
}
