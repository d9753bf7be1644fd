/** A point of a line chart: x is time (ms), y is the value. */
export type Point = readonly [x: number, y: number];

/**
 * The points that have a value: CoinGecko sends `[timestamp, null]` for moments it has none, and a
 * line simply skips them.
 */
export function knownPoints(series: readonly (readonly [number, number | null])[]): Point[] {
  const points: Point[] = [];
  for (const [x, y] of series) if (y !== null) points.push([x, y]);
  return points;
}

/** The data's bounds, so axis labels and the path agree. */
export interface Bounds {
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
}

/** The bounds of `points`; a flat or single-point series gets a non-zero span so it draws mid-height. */
export function boundsOf(points: readonly Point[]): Bounds {
  let minX = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (const [x, y] of points) {
    minX = Math.min(minX, x);
    maxX = Math.max(maxX, x);
    minY = Math.min(minY, y);
    maxY = Math.max(maxY, y);
  }
  if (points.length === 0) return { minX: 0, maxX: 1, minY: 0, maxY: 1 };
  if (maxX === minX) maxX = minX + 1;
  if (maxY === minY) {
    minY -= 1;
    maxY += 1;
  }
  return { minX, maxX, minY, maxY };
}

/**
 * An SVG path through `points`, scaled into a `width` x `height` box (y grows downwards in SVG, so the
 * highest value is at the top). Empty input gives an empty path.
 */
export function linePath(points: readonly Point[], width: number, height: number): string {
  const { minX, maxX, minY, maxY } = boundsOf(points);
  return points
    .map(([x, y], index) => {
      const px = ((x - minX) / (maxX - minX)) * width;
      const py = height - ((y - minY) / (maxY - minY)) * height;
      return `${index === 0 ? "M" : "L"}${round(px)} ${round(py)}`;
    })
    .join(" ");
}

const round = (value: number) => Math.round(value * 100) / 100;
