import type { ChartQuery } from "@keyport/client";
import type { Meta } from "../../lib/meta";

/** The coin chart's ranges, with the `days` each asks CoinGecko for. */
export const CHART_RANGES = [
  { label: "1D", days: "1" },
  { label: "7D", days: "7" },
  { label: "30D", days: "30" },
  { label: "90D", days: "90" },
  { label: "1Y", days: "365" },
  { label: "Max", days: "max" },
] as const satisfies readonly { label: string; days: ChartQuery["days"] }[];

export type ChartRange = (typeof CHART_RANGES)[number];

/** The ranges the proxy's CoinGecko plan serves: Demo refuses `max` and anything beyond 365 days. */
export function chartRangesFor(plan: Meta["coingeckoPlan"]): ChartRange[] {
  if (plan !== "demo") return [...CHART_RANGES];
  return CHART_RANGES.filter((range) => range.days !== "max" && Number(range.days) <= 365);
}
