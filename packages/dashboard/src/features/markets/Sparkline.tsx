import { formatPercent } from "../../lib/format";
import { linePath, type Point } from "./line-path";

const WIDTH = 120;
const HEIGHT = 32;

/** A 7-day price sparkline; its label says the week's change in words. */
export function Sparkline({ prices }: { prices: readonly (number | null)[] }) {
  const points: Point[] = [];
  prices.forEach((price, index) => {
    if (price !== null) points.push([index, price]);
  });
  const first = points[0];
  const last = points[points.length - 1];
  if (!first || !last) return <span className="muted">no data</span>;
  const change = first[1] === 0 ? 0 : ((last[1] - first[1]) / first[1]) * 100;
  return (
    <svg
      className={`sparkline ${change >= 0 ? "up" : "down"}`}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      width={WIDTH}
      height={HEIGHT}
      role="img"
      aria-label={`7 days: ${formatPercent(change)}`}
    >
      <path d={linePath(points, WIDTH, HEIGHT - 2)} transform="translate(0 1)" fill="none" />
    </svg>
  );
}
