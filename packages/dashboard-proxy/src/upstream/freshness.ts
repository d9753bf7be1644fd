import { rangeBoundMs } from "../schemas/prices.js";
import type { Plan } from "./plans.js";

// How long an answer stays fresh, following how often CoinGecko itself updates it:
// - /simple/price and /coins/markets: CoinGecko's edge cache is 60 s on Demo and 20 s on paid plans.
// - market charts: a new point per step of their granularity (CoinGecko's auto granularity: 5-minute
//   data for 1 day, hourly up to 90 days, daily beyond, or as `interval` says), so an answer stays
//   fresh one step; daily data is capped at 6 h so a chart's last point is never a day old.
// - a range that ended over a day ago is history and does not change: 24 h.
// - OHLC: CoinGecko refreshes candles every 15 minutes.

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The freshness of each kind of answer, in ms. */
export interface Freshness {
  pricesDemo: number;
  pricesPaid: number;
  fiveMinutely: number;
  hourly: number;
  daily: number;
  history: number;
  ohlc: number;
}

/** The defaults, from CoinGecko's documented update frequencies. */
export const FRESHNESS: Freshness = {
  pricesDemo: 60 * SECOND,
  pricesPaid: 20 * SECOND,
  fiveMinutely: 5 * MINUTE,
  hourly: HOUR,
  daily: 6 * HOUR,
  history: DAY,
  ohlc: 15 * MINUTE,
};

/** A chart's point spacing. */
export type Granularity = "5m" | "hourly" | "daily";

/** How fresh prices and markets stay on `plan`. */
export function pricesTtl(plan: Plan, freshness: Freshness = FRESHNESS): number {
  return plan === "demo" ? freshness.pricesDemo : freshness.pricesPaid;
}

/** The granularity CoinGecko answers `market_chart` with: `interval`, else by `days`. */
export function chartGranularity(days: string, interval: Granularity | undefined): Granularity {
  if (interval !== undefined) return interval;
  if (days === "max") return "daily";
  const count = Number(days);
  return count <= 1 ? "5m" : count <= 90 ? "hourly" : "daily";
}

/** The granularity of `market_chart/range`: `interval`, else by the range's length. */
export function rangeGranularity(from: string, to: string, interval: Granularity | undefined): Granularity {
  if (interval !== undefined) return interval;
  const span = rangeBoundMs(to) - rangeBoundMs(from);
  return span <= DAY ? "5m" : span <= 90 * DAY ? "hourly" : "daily";
}

/** How fresh a chart of `granularity` stays. */
export function chartTtl(granularity: Granularity, freshness: Freshness = FRESHNESS): number {
  if (granularity === "5m") return freshness.fiveMinutely;
  return granularity === "hourly" ? freshness.hourly : freshness.daily;
}

/** How fresh a range stays: as a chart of its granularity, or `history` once it ended over a day before `nowMs`. */
export function rangeTtl(
  from: string,
  to: string,
  interval: Granularity | undefined,
  nowMs: number,
  freshness: Freshness = FRESHNESS,
): number {
  if (rangeBoundMs(to) < nowMs - DAY) return freshness.history;
  return chartTtl(rangeGranularity(from, to, interval), freshness);
}
