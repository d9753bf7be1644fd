import { formatPrice } from "../../lib/format";
import { boundsOf, linePath, type Point } from "./line-path";

const WIDTH = 600;
const HEIGHT = 240;

const timeLabel = (ms: number, days: string) =>
  days === "1"
    ? new Date(ms).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" })
    : new Date(ms).toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });

/** A coin's price over time as a line, with its low, high and the range's ends as text. */
export function PriceChart({
  prices,
  currency,
  days,
}: {
  prices: readonly Point[];
  currency: string;
  days: string;
}) {
  const bounds = boundsOf(prices);
  const first = prices[0];
  const last = prices[prices.length - 1];
  if (!first || !last) return <p className="muted">No prices in this range.</p>;
  const change = first[1] === 0 ? 0 : ((last[1] - first[1]) / first[1]) * 100;
  return (
    <figure className="chart">
      <div className="chart-scale" aria-hidden="true">
        <span>high {formatPrice(bounds.maxY, currency)}</span>
      </div>
      <svg
        className={`chart-svg price-line ${change >= 0 ? "up" : "down"}`}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`Price from ${formatPrice(first[1], currency)} to ${formatPrice(last[1], currency)}, low ${formatPrice(bounds.minY, currency)}, high ${formatPrice(bounds.maxY, currency)}`}
      >
        <path d={linePath(prices, WIDTH, HEIGHT)} fill="none" vectorEffect="non-scaling-stroke" />
      </svg>
      <div className="chart-scale" aria-hidden="true">
        <span>{timeLabel(first[0], days)}</span>
        <span>low {formatPrice(bounds.minY, currency)}</span>
        <span>{timeLabel(last[0], days)}</span>
      </div>
    </figure>
  );
}
