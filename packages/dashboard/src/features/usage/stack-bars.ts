import { OUTCOMES, type Outcome } from "./usage-range";

/** One bucket's counts by outcome. */
export type BucketCounts = { start: Date; requests: number } & Record<Outcome, number>;

/** One rectangle of the stacked chart, in viewBox units. */
export interface BarSegment {
  outcome: Outcome;
  x: number;
  y: number;
  width: number;
  height: number;
  count: number;
  start: Date;
}

/**
 * Lays out a stacked bar chart: one bar per bucket, segments bottom-up in `OUTCOMES` order, scaled so
 * the tallest bar fills `height`. Zero counts produce no segment.
 */
export function stackBars(series: readonly BucketCounts[], width: number, height: number): BarSegment[] {
  const max = Math.max(1, ...series.map((bucket) => bucket.requests));
  const slot = series.length === 0 ? width : width / series.length;
  const barWidth = Math.max(1, slot * 0.8);
  const segments: BarSegment[] = [];
  series.forEach((bucket, index) => {
    let top = height;
    for (const { field } of OUTCOMES) {
      const count = bucket[field];
      if (count <= 0) continue;
      const segmentHeight = (count / max) * height;
      top -= segmentHeight;
      segments.push({
        outcome: field,
        x: index * slot + (slot - barWidth) / 2,
        y: top,
        width: barWidth,
        height: segmentHeight,
        count,
        start: bucket.start,
      });
    }
  });
  return segments;
}
