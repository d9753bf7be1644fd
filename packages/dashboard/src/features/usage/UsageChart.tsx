import { formatCount } from "../../lib/format";
import { type BucketCounts, stackBars } from "./stack-bars";
import { OUTCOMES, type Outcome } from "./usage-range";

const WIDTH = 600;
const HEIGHT = 200;

const bucketLabel = (start: Date, granularity: "hour" | "day") =>
  granularity === "hour"
    ? start.toLocaleString(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" })
    : start.toLocaleDateString(undefined, { month: "short", day: "numeric" });

const OUTCOME_LABELS = new Map<Outcome, string>(OUTCOMES.map((outcome) => [outcome.field, outcome.label]));

/** A bar segment's tooltip in words: "Nov 20: Rate limited, 5 verifications". */
export function segmentTitle(when: string, outcome: Outcome, count: number): string {
  return `${when}: ${OUTCOME_LABELS.get(outcome) ?? outcome}, ${formatCount(count)} ${count === 1 ? "verification" : "verifications"}`;
}

/**
 * Verifications over time as stacked bars by outcome (hand-written SVG: one chart is not worth a chart
 * library). The numbers are in the totals beside it; the SVG is a picture with a summary label.
 */
export function UsageChart({
  series,
  granularity,
}: {
  series: readonly BucketCounts[];
  granularity: "hour" | "day";
}) {
  const segments = stackBars(series, WIDTH, HEIGHT);
  const max = Math.max(0, ...series.map((bucket) => bucket.requests));
  const first = series[0];
  const last = series[series.length - 1];
  return (
    <figure className="chart">
      <p className="chart-peak">
        Busiest {granularity}: {formatCount(max)} {max === 1 ? "verification" : "verifications"}
      </p>
      <svg
        className="chart-svg"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`Verifications per ${granularity}, stacked by outcome; the busiest ${granularity} had ${formatCount(max)}`}
      >
        <line x1={0} x2={WIDTH} y1={HEIGHT} y2={HEIGHT} className="chart-axis" />
        {segments.map((segment) => (
          <rect
            key={`${segment.start.getTime()}-${segment.outcome}`}
            className={`outcome-${segment.outcome}`}
            x={segment.x}
            y={segment.y}
            width={segment.width}
            height={segment.height}
          >
            <title>
              {segmentTitle(bucketLabel(segment.start, granularity), segment.outcome, segment.count)}
            </title>
          </rect>
        ))}
      </svg>
      <div className="chart-scale" aria-hidden="true">
        <span>{first ? bucketLabel(first.start, granularity) : ""}</span>
        <span>{last ? bucketLabel(last.start, granularity) : ""}</span>
      </div>
      <figcaption className="legend">
        {OUTCOMES.map((outcome) => (
          <span key={outcome.field} className="legend-item">
            <span className={`legend-swatch outcome-${outcome.field}`} aria-hidden="true" />
            {outcome.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
