import { Histogram, type Registry } from "prom-client";

/** One label set's series of a {@link BatchedHistogram}. */
export interface HistogramSeries {
  observe(value: number): void;
}

/** A histogram by method and route whose series the caller keeps. */
export interface BatchedHistogram {
  /** A new series for one label set: create it once, observe into it on every request. */
  series(method: string, route: string): HistogramSeries;
}

/**
 * A prom-client histogram whose observations are plain counter increments. prom-client's own
 * `observe` converts, validates and hashes the labels of every value (most of what a cached hit
 * spent on metrics); here each series counts in an array, and the registry reads the counts when it
 * is scraped, as the `_bucket` (cumulative, `le`), `_sum` and `_count` samples prom-client writes.
 * @example createBatchedHistogram(registry, { name, help, buckets: [0.1, 1] }).series("GET", "/x").observe(0.02)
 */
export function createBatchedHistogram(
  registry: Registry,
  config: { name: string; help: string; buckets: readonly number[] },
): BatchedHistogram {
  const { name, buckets } = config;
  // Per series: a count per bucket (not cumulative; the last one is +Inf), the sum and the count.
  const all: { labels: { method: string; route: string }; counts: number[]; sum: number; count: number }[] =
    [];

  // prom-client writes a metric's text from its getForPromString() (and builds get() on it): this
  // one answers from the arrays above, in the shape prom-client's own histogram answers with.
  class Batched extends Histogram<"method" | "route"> {
    async getForPromString() {
      const values = [];
      for (const { labels, counts, sum, count } of all) {
        let cumulative = 0;
        for (let i = 0; i <= buckets.length; i++) {
          cumulative += counts[i] ?? 0;
          const le = buckets[i] ?? "+Inf";
          values.push({
            labels: { le },
            sharedLabels: labels,
            value: cumulative,
            metricName: `${name}_bucket`,
            exemplar: null,
          });
        }
        values.push({ labels: {}, sharedLabels: labels, value: sum, metricName: `${name}_sum` });
        values.push({ labels: {}, sharedLabels: labels, value: count, metricName: `${name}_count` });
      }
      return { name, help: config.help, type: "histogram", values, aggregator: "sum" };
    }
  }
  new Batched({
    name,
    help: config.help,
    labelNames: ["method", "route"],
    buckets: [...buckets],
    registers: [registry],
  });

  return {
    series(method, route) {
      const series = {
        labels: { method, route },
        counts: new Array<number>(buckets.length + 1).fill(0),
        sum: 0,
        count: 0,
      };
      all.push(series);
      return {
        observe(value) {
          let i = 0;
          while (i < buckets.length && value > (buckets[i] ?? Number.POSITIVE_INFINITY)) i++;
          series.counts[i] = (series.counts[i] ?? 0) + 1;
          series.sum += value;
          series.count++;
        },
      };
    },
  };
}
