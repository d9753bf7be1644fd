import { Counter, Gauge, type Registry } from "prom-client";
import type { UsageBatch } from "../usage/buffer.js";

/** Writes one usage batch (the buffer's sink). */
export type UsageSink = (batch: UsageBatch) => Promise<void>;

/** Usage buffer metrics: flushes counted through the sink, depth read when scraped. */
export interface UsageMetrics {
  /** Wraps the buffer's sink: each call is one flush, counted as ok or failed, with its rows. */
  countFlushes(sink: UsageSink): UsageSink;
}

/**
 * Creates `keyport_usage_flushes_total{result}`, `keyport_usage_rows_flushed_total` and
 * `keyport_usage_buffer_pending_rows` (read from `pendingRows()` at scrape time).
 */
export function createUsageMetrics(registry: Registry, pendingRows: () => number): UsageMetrics {
  const flushes = new Counter({
    name: "keyport_usage_flushes_total",
    help: "Usage buffer flushes by result; a failed flush keeps its rows for the next one",
    labelNames: ["result"],
    registers: [registry],
  });
  const ok = flushes.labels("ok");
  const failed = flushes.labels("failed");
  ok.inc(0);
  failed.inc(0);
  const rows = new Counter({
    name: "keyport_usage_rows_flushed_total",
    help: "Usage rollup rows (key, hour, outcome) written by successful flushes",
    registers: [registry],
  });
  new Gauge({
    name: "keyport_usage_buffer_pending_rows",
    help: "(key, hour) entries counted in memory and not yet written",
    registers: [registry],
    collect() {
      this.set(pendingRows());
    },
  });

  return {
    countFlushes: (sink) => async (batch) => {
      try {
        await sink(batch);
      } catch (error) {
        failed.inc();
        throw error;
      }
      ok.inc();
      rows.inc(batch.counts.length);
    },
  };
}
