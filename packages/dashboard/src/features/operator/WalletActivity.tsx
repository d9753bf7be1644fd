import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "../../lib/router";
import { trpc } from "../../lib/trpc";
import { Empty, ErrorMessage, Loading } from "../../ui/Status";
import { EventItem } from "../events/EventItem";
import { UsageChart } from "../usage/UsageChart";
import { UsageTotals } from "../usage/UsageTotals";
import { OperatorEventList } from "./OperatorEventList";
import { auditHref } from "./operator-url";
import { PaymentsTable } from "./PaymentsTable";

const DAY_MS = 86_400_000;

/** A wallet's verifications of the last 30 days by day and outcome (as its owner's usage view draws them). */
export function WalletUsage({ wallet }: { wallet: string }) {
  const [now] = useState(() => new Date());
  const usage = useQuery(
    trpc.operator.wallets.usage.queryOptions({
      wallet,
      from: new Date(now.getTime() - 30 * DAY_MS),
      to: now,
      granularity: "day",
    }),
  );
  return (
    <section className="key-section" aria-labelledby="wallet-usage-title">
      <h2 id="wallet-usage-title">Usage, last 30 days</h2>
      {usage.isPending ? <Loading label="Loading usage…" /> : null}
      {usage.isError ? <ErrorMessage error={usage.error} onRetry={() => usage.refetch()} /> : null}
      {usage.data ? (
        <>
          <UsageTotals totals={usage.data.totals} />
          <UsageChart series={usage.data.series} granularity="day" />
        </>
      ) : null}
    </section>
  );
}

/** A wallet's settled payments of the last year, newest first (the first 50). */
export function WalletPayments({ wallet }: { wallet: string }) {
  const [now] = useState(() => new Date());
  const payments = useQuery(
    trpc.operator.payments.list.queryOptions({
      wallet,
      from: new Date(now.getTime() - 365 * DAY_MS),
      to: now,
    }),
  );
  const list = payments.data?.payments ?? [];
  return (
    <section className="key-section" aria-labelledby="wallet-payments-title">
      <h2 id="wallet-payments-title">Payments, last 12 months</h2>
      {payments.isPending ? <Loading label="Loading payments…" /> : null}
      {payments.isError ? <ErrorMessage error={payments.error} onRetry={() => payments.refetch()} /> : null}
      {payments.data && list.length === 0 ? <Empty>No payment from this wallet in 12 months.</Empty> : null}
      {list.length > 0 ? (
        <PaymentsTable payments={list} labelledBy="wallet-payments-title" showWallet={false} />
      ) : null}
    </section>
  );
}

/** What operators did to the wallet, and the wallet's own latest events (its trail as it reads it). */
export function WalletAudit({ wallet }: { wallet: string }) {
  const actions = useQuery(trpc.operator.audit.list.queryOptions({ wallet, limit: 20 }));
  const trail = useQuery(trpc.operator.wallets.events.queryOptions({ wallet, limit: 20 }));
  return (
    <section className="key-section" aria-labelledby="wallet-audit-title">
      <h2 id="wallet-audit-title">Audit</h2>
      <h3>Operator actions on this wallet</h3>
      {actions.isPending ? <Loading label="Loading operator actions…" /> : null}
      {actions.isError ? <ErrorMessage error={actions.error} onRetry={() => actions.refetch()} /> : null}
      {actions.data && actions.data.events.length === 0 ? (
        <Empty>No operator has acted on this wallet.</Empty>
      ) : null}
      {actions.data && actions.data.events.length > 0 ? (
        <OperatorEventList events={actions.data.events} showWallet={false} />
      ) : null}
      <p>
        <Link to={auditHref(wallet)}>Every operator action on this wallet</Link>
      </p>
      <h3>Its own trail</h3>
      {trail.isPending ? <Loading label="Loading the wallet's trail…" /> : null}
      {trail.isError ? <ErrorMessage error={trail.error} onRetry={() => trail.refetch()} /> : null}
      {trail.data && trail.data.events.length === 0 ? (
        <Empty>Nothing in the wallet&apos;s trail yet.</Empty>
      ) : null}
      {trail.data && trail.data.events.length > 0 ? (
        <ol className="events">
          {trail.data.events.map((event) => (
            <EventItem key={event.id} event={event} />
          ))}
        </ol>
      ) : null}
    </section>
  );
}
