import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { dashboardClient } from "../../lib/dashboard-client";
import { formatCompactMoney, formatPercent, formatPrice } from "../../lib/format";
import { Link } from "../../lib/router";
import { Empty, ErrorMessage, Loading } from "../../ui/Status";
import { TableScroll } from "../../ui/TableScroll";
import { CURRENCIES, currencyFromSearch } from "./currencies";
import { Sparkline } from "./Sparkline";

/** The market table: rank, name, price, 24 h change, market cap and a 7-day sparkline, in a chosen currency. */
export function MarketsView() {
  const [currency, setCurrency] = useState(() => currencyFromSearch(window.location.search));
  const markets = useQuery({
    queryKey: ["markets", currency],
    queryFn: () =>
      dashboardClient.prices.markets({
        vs_currency: currency,
        per_page: "50",
        sparkline: "true",
        price_change_percentage: "24h",
      }),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

  return (
    <section aria-labelledby="markets-title">
      <div className="view-header">
        <h1 id="markets-title">Markets</h1>
        <label className="field field-inline">
          <span>Currency</span>
          <select
            value={currency}
            onChange={(event) => {
              const next = event.currentTarget.value;
              setCurrency(next);
              window.history.replaceState(null, "", `/markets?vs=${next}`);
            }}
          >
            {CURRENCIES.map((code) => (
              <option key={code} value={code}>
                {code.toUpperCase()}
              </option>
            ))}
          </select>
        </label>
      </div>
      {markets.isPending ? (
        <Loading label="Loading markets…" />
      ) : markets.isError ? (
        <ErrorMessage service="market" error={markets.error} onRetry={() => markets.refetch()} />
      ) : markets.data.length === 0 ? (
        <Empty>
          <p>No market data right now.</p>
        </Empty>
      ) : (
        <TableScroll label="Coins by market cap">
          <table className="table table-numbers">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Name</th>
                <th scope="col">Price</th>
                <th scope="col">24 h</th>
                <th scope="col">Market cap</th>
                <th scope="col">7 days</th>
              </tr>
            </thead>
            <tbody>
              {markets.data.map((coin) => (
                <tr key={coin.id}>
                  <td>{coin.market_cap_rank ?? "–"}</td>
                  <th scope="row">
                    <Link to={`/markets/${coin.id}?vs=${currency}`}>{coin.name}</Link>{" "}
                    <span className="muted">{coin.symbol.toUpperCase()}</span>
                  </th>
                  <td>{formatPrice(coin.current_price, currency)}</td>
                  <td className={changeClass(coin.price_change_percentage_24h)}>
                    {formatPercent(coin.price_change_percentage_24h)}
                  </td>
                  <td>{formatCompactMoney(coin.market_cap, currency)}</td>
                  <td>
                    <Sparkline prices={coin.sparkline_in_7d?.price ?? []} />
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

function changeClass(change: number | null | undefined): string {
  if (change === null || change === undefined || change === 0) return "";
  return change > 0 ? "up" : "down";
}
