import { formatCount } from "../../lib/format";
import type { RevenueDay } from "./revenue-series";

const WIDTH = 600;
const HEIGHT = 160;

const dayLabel = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, {
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });

/**
 * Revenue by UTC day as bars (hand-written SVG, as the usage chart): one bar a day, its tooltip in words
 * ("Nov 20: 15 USDC from 3 payments"). The sums themselves are in the totals beside it.
 */
export function RevenueChart({
  series,
  amount,
  label,
}: {
  series: readonly RevenueDay[];
  /** A day's base units in words ("15 USDC"). */
  amount: (baseUnits: string) => string;
  /** What is drawn: "USDC on Base". */
  label: string;
}) {
  const max = Math.max(0, ...series.map((day) => day.value));
  const busiest = series.find((day) => day.value === max && max > 0);
  const barWidth = series.length === 0 ? 0 : WIDTH / series.length;
  const first = series[0];
  const last = series[series.length - 1];
  return (
    <figure className="chart">
      <p className="chart-peak">
        {busiest === undefined
          ? "No revenue in this range"
          : `Best day: ${amount(busiest.baseUnits)} on ${dayLabel(busiest.day)}`}
      </p>
      <svg
        className="chart-svg"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`Revenue per day in ${label}${busiest === undefined ? ", none in this range" : `; the best day had ${amount(busiest.baseUnits)}`}`}
      >
        <line x1={0} x2={WIDTH} y1={HEIGHT} y2={HEIGHT} className="chart-axis" />
        {series.map((day, index) => {
          const height = max === 0 ? 0 : (day.value / max) * (HEIGHT - 4);
          return (
            <rect
              key={day.day}
              className="outcome-valid"
              x={index * barWidth + barWidth * 0.1}
              y={HEIGHT - height}
              width={barWidth * 0.8}
              height={height}
            >
              <title>
                {`${dayLabel(day.day)}: ${amount(day.baseUnits)} from ${formatCount(day.payments)} ${day.payments === 1 ? "payment" : "payments"}`}
              </title>
            </rect>
          );
        })}
      </svg>
      {first !== undefined && last !== undefined ? (
        <div className="chart-scale" aria-hidden="true">
          <span>{dayLabel(first.day)}</span>
          <span>{dayLabel(last.day)}</span>
        </div>
      ) : null}
    </figure>
  );
}
