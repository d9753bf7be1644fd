import type { PaymentTotals } from "./operator-types";

/** One (network, asset) a deployment was paid in. */
export interface Pair {
  network: string;
  asset: string;
}

/** One UTC day's revenue in one pair: `baseUnits` exact, `value` a number for the bar's height only. */
export interface RevenueDay {
  day: string;
  baseUnits: string;
  payments: number;
  value: number;
}

const DAY_MS = 86_400_000;

const samePair = (a: Pair, b: Pair) =>
  a.network === b.network && a.asset.toLowerCase() === b.asset.toLowerCase();

/**
 * The pair the chart draws: the server's payment token when it was paid in, else the pair with the most
 * payments (totals hold one row per pair); undefined when nothing was paid.
 */
export function chartPair(totals: PaymentTotals["totals"], preferred: Pair | undefined): Pair | undefined {
  if (preferred !== undefined && totals.some((total) => samePair(total, preferred))) return preferred;
  const busiest = [...totals].sort((a, b) => b.payments - a.payments)[0];
  return busiest === undefined ? undefined : { network: busiest.network, asset: busiest.asset };
}

/**
 * Every UTC day from `from` to the day before `to` (exclusive) with the pair's revenue, zero-filled:
 * the server leaves days without payments out.
 * @example revenueSeries(totals.days, pair, totals.from, totals.to)
 */
export function revenueSeries(days: PaymentTotals["days"], pair: Pair, from: Date, to: Date): RevenueDay[] {
  const byDay = new Map(days.filter((day) => samePair(day, pair)).map((day) => [day.day, day]));
  const series: RevenueDay[] = [];
  const first = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate());
  for (let at = first; at < to.getTime(); at += DAY_MS) {
    const day = new Date(at).toISOString().slice(0, 10);
    const found = byDay.get(day);
    series.push({
      day,
      baseUnits: found?.baseUnits ?? "0",
      payments: found?.payments ?? 0,
      value: found === undefined ? 0 : Number(found.baseUnits),
    });
  }
  return series;
}
