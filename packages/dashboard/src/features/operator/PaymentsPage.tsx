import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { navigate, useSearch } from "../../lib/router";
import { trpc } from "../../lib/trpc";
import { Empty, ErrorMessage, Loading } from "../../ui/Status";
import { CursorPager } from "./CursorPager";
import { type DayRange, parseDayRange, paymentsCsvHref, paymentsHref, rangeInstants } from "./operator-url";
import { PaymentsTable } from "./PaymentsTable";
import { RevenueTotals } from "./RevenueTotals";
import { useCursorPages } from "./use-cursor-pages";
import { usePaymentToken } from "./use-payment-token";

/**
 * Every settled payment in a range of UTC days (in the URL: `?from=2026-11-01&to=2026-11-30`), its
 * totals per (network, asset), 50 a page; "Export CSV" downloads the range through the proxy.
 */
export function PaymentsPage() {
  const search = useSearch();
  const [now] = useState(() => new Date());
  const range = parseDayRange(search, now);
  const instants = rangeInstants(range);
  const pages = useCursorPages(`${range.from} ${range.to}`);
  const token = usePaymentToken();
  const fromId = useId();
  const toId = useId();

  const totals = useQuery(trpc.operator.payments.totals.queryOptions(instants));
  const payments = useQuery({
    ...trpc.operator.payments.list.queryOptions({ ...instants, limit: 50, cursor: pages.cursor }),
    placeholderData: keepPreviousData,
  });

  function setRange(next: Partial<DayRange>) {
    const candidate = { ...range, ...next };
    // A day cleared or a reversed range is not applied: the inputs' bounds keep them in order.
    if (candidate.from === "" || candidate.to === "" || candidate.from > candidate.to) return;
    navigate(paymentsHref(candidate), { keepScroll: true });
  }

  const list = payments.data?.payments ?? [];
  return (
    <section aria-labelledby="payments-title">
      <div className="view-header">
        <h1 id="payments-title">Payments</h1>
        <a className="button" href={paymentsCsvHref(range)} download>
          Export CSV
        </a>
      </div>
      <p className="muted">
        Settled payments by UTC day, newest first. The CSV holds the same rows, oldest first, with every
        column (docs: operator guide, Payments).
      </p>
      <fieldset className="toolbar toolbar-fieldset">
        <legend className="visually-hidden">Range</legend>
        <div className="field">
          <label htmlFor={fromId}>From (UTC)</label>
          <input
            id={fromId}
            type="date"
            value={range.from}
            max={range.to}
            onChange={(event) => setRange({ from: event.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={toId}>To (UTC, included)</label>
          <input
            id={toId}
            type="date"
            value={range.to}
            min={range.from}
            onChange={(event) => setRange({ to: event.target.value })}
          />
        </div>
      </fieldset>
      <section aria-labelledby="payments-totals-title">
        <h2 id="payments-totals-title">Totals</h2>
        {totals.isPending ? <Loading label="Loading totals…" /> : null}
        {totals.isError ? <ErrorMessage error={totals.error} onRetry={() => totals.refetch()} /> : null}
        {totals.data ? (
          <RevenueTotals totals={totals.data.totals} token={token} empty="No payments in this range." />
        ) : null}
      </section>
      <h2 id="payments-list-title">Every payment</h2>
      {payments.isPending ? <Loading label="Loading payments…" /> : null}
      {payments.isError ? <ErrorMessage error={payments.error} onRetry={() => payments.refetch()} /> : null}
      {payments.data && list.length === 0 ? <Empty>No payment was settled in this range.</Empty> : null}
      {list.length > 0 ? <PaymentsTable payments={list} labelledBy="payments-list-title" showWallet /> : null}
      <CursorPager
        label="Pages of payments"
        page={pages.page}
        hasNext={payments.data?.nextCursor != null}
        onPrevious={pages.previous}
        onNext={() => {
          const next = payments.data?.nextCursor;
          if (next != null) pages.next(next);
        }}
      />
    </section>
  );
}
