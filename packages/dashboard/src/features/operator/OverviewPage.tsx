import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { checksummed, formatCount } from "../../lib/format";
import { Link } from "../../lib/router";
import { trpc } from "../../lib/trpc";
import { ErrorMessage, Loading } from "../../ui/Status";
import { UsageChart } from "../usage/UsageChart";
import { UsageTotals } from "../usage/UsageTotals";
import type { PaymentTotals } from "./operator-types";
import { RevenueChart } from "./RevenueChart";
import { RevenueTotals } from "./RevenueTotals";
import { chartPair, revenueSeries } from "./revenue-series";
import { formatBaseUnits, networkWords } from "./token-amount";
import { usePaymentToken } from "./use-payment-token";

const DAY_MS = 86_400_000;
const RANGE_DAYS = 30;
/** How many wallets the active count reads at most (one page of the list, most recently active first). */
const ACTIVE_PAGE = 100;

/** The deployment at a glance: revenue and verifications of 30 days, active wallets, the last 24 h's payments. */
export function OverviewPage() {
  // One "now" a visit: the queries' inputs stay the same across renders (their keys with them).
  const [now] = useState(() => new Date());
  const from = new Date(now.getTime() - RANGE_DAYS * DAY_MS);
  const revenue = useQuery(trpc.operator.payments.totals.queryOptions({ from, to: now }));
  const lastDay = useQuery(
    trpc.operator.payments.totals.queryOptions({ from: new Date(now.getTime() - DAY_MS), to: now }),
  );
  const usage = useQuery(trpc.operator.usage.get.queryOptions({ from, to: now }));
  const wallets = useQuery(
    trpc.operator.wallets.list.queryOptions({ sort: "lastActive", limit: ACTIVE_PAGE }),
  );
  const token = usePaymentToken();

  const active = wallets.data?.wallets.filter((wallet) => wallet.lastActiveAt >= from).length ?? 0;
  const more = active === ACTIVE_PAGE && wallets.data?.nextCursor !== null;

  return (
    <section aria-labelledby="overview-title">
      <h1 id="overview-title">Operator overview</h1>
      <p className="muted">The whole deployment over the last {RANGE_DAYS} days, by UTC day.</p>

      <div className="stat-grid">
        <section className="stat" aria-labelledby="active-title">
          <h2 id="active-title">Active wallets</h2>
          {wallets.isPending ? <Loading label="Loading wallets…" /> : null}
          {wallets.isError ? <ErrorMessage error={wallets.error} onRetry={() => wallets.refetch()} /> : null}
          {wallets.data ? (
            <p>
              <strong className="stat-value">
                {formatCount(active)}
                {more ? "+" : ""}
              </strong>{" "}
              signed in, created a key or verified one in {RANGE_DAYS} days.{" "}
              <Link to="/operator/wallets">All wallets</Link>
            </p>
          ) : null}
        </section>
        <section className="stat" aria-labelledby="day-title">
          <h2 id="day-title">Payments in the last 24 hours</h2>
          {lastDay.isPending ? <Loading label="Loading payments…" /> : null}
          {lastDay.isError ? <ErrorMessage error={lastDay.error} onRetry={() => lastDay.refetch()} /> : null}
          {lastDay.data ? (
            <RevenueTotals
              totals={lastDay.data.totals}
              token={token}
              empty="No payments in the last 24 hours."
            />
          ) : null}
        </section>
      </div>

      <section className="panel" aria-labelledby="revenue-title">
        <h2 id="revenue-title">Revenue by day</h2>
        {revenue.isPending ? <Loading label="Loading revenue…" /> : null}
        {revenue.isError ? <ErrorMessage error={revenue.error} onRetry={() => revenue.refetch()} /> : null}
        {revenue.data ? <Revenue data={revenue.data} /> : null}
        <p>
          <Link to="/operator/payments">Every payment</Link>
        </p>
      </section>

      <section className="panel" aria-labelledby="verifications-title">
        <h2 id="verifications-title">Verifications by day and outcome</h2>
        {usage.isPending ? <Loading label="Loading usage…" /> : null}
        {usage.isError ? <ErrorMessage error={usage.error} onRetry={() => usage.refetch()} /> : null}
        {usage.data ? (
          <>
            <UsageTotals totals={usage.data.totals} />
            <UsageChart series={usage.data.series} granularity="day" />
            {usage.data.topWallets.length > 0 ? (
              <>
                <h3>Busiest wallets</h3>
                <ol className="plain-list top-wallets">
                  {usage.data.topWallets.map((wallet) => (
                    <li key={wallet.wallet}>
                      <Link to={`/operator/wallets/${wallet.wallet}`}>
                        <code>{checksummed(wallet.wallet)}</code>
                      </Link>{" "}
                      <span className="muted">
                        {formatCount(wallet.requests)}{" "}
                        {wallet.requests === 1 ? "verification" : "verifications"}
                      </span>
                    </li>
                  ))}
                </ol>
              </>
            ) : null}
          </>
        ) : null}
      </section>
    </section>
  );
}

function Revenue({ data }: { data: PaymentTotals }) {
  const token = usePaymentToken();
  const pair = chartPair(data.totals, token);
  const known =
    pair !== undefined && token !== undefined && pair.asset.toLowerCase() === token.asset.toLowerCase();
  const label = pair === undefined ? "" : `${known ? "USDC" : "base units"} on ${networkWords(pair.network)}`;
  return (
    <>
      <RevenueTotals
        totals={data.totals}
        token={token}
        empty={`No payments in the last ${RANGE_DAYS} days.`}
      />
      {pair === undefined ? null : (
        <RevenueChart
          series={revenueSeries(data.days, pair, data.from, data.to)}
          amount={(baseUnits) =>
            known && token !== undefined
              ? `${formatBaseUnits(baseUnits, token.decimals)} USDC`
              : `${baseUnits} base units`
          }
          label={label}
        />
      )}
    </>
  );
}
