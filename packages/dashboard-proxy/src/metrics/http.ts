import { Counter, type Registry } from "prom-client";
import { createBatchedHistogram } from "./batched-histogram.js";

/** Seconds; from a cached price (well under a millisecond) to a slow upstream. */
const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Counts and times answered requests by method, route template and status. */
export interface HttpMetrics {
  /** Records one answer that took `elapsedMs` from receiving the request to its response head. */
  observe(method: string, route: string, status: number, elapsedMs: number): void;
}

interface RouteSeries {
  method: string;
  route: string;
  duration: { observe(value: number): void };
  /** Requests by status. */
  statuses: Map<number, number>;
  serverErrors: number;
}

/**
 * Creates `keyport_proxy_http_requests_total`, `keyport_proxy_http_request_duration_seconds` and
 * `keyport_proxy_http_server_errors_total` (5xx) in `registry`. `route` is a registered route's
 * template or `(unmatched)`, never a raw path.
 */
export function createHttpMetrics(registry: Registry): HttpMetrics {
  // prom-client hashes label values on every inc(): the counters are plain numbers the registry
  // reads when scraped, found by two map lookups, so a request allocates no label object.
  const byRoute = new Map<string, Map<string, RouteSeries>>();
  const everySeries: RouteSeries[] = [];

  new Counter({
    name: "keyport_proxy_http_requests_total",
    help: "HTTP requests answered, by method, route template and status",
    labelNames: ["method", "route", "status"],
    registers: [registry],
    collect() {
      this.reset();
      for (const { method, route, statuses } of everySeries) {
        for (const [status, count] of statuses) this.inc({ method, route, status: String(status) }, count);
      }
    },
  });
  const duration = createBatchedHistogram(registry, {
    name: "keyport_proxy_http_request_duration_seconds",
    help: "Time from receiving a request to its response head (a chat stream keeps flowing after), by method and route",
    buckets: BUCKETS,
  });
  new Counter({
    name: "keyport_proxy_http_server_errors_total",
    help: "Responses with a 5xx status, by method and route template",
    labelNames: ["method", "route"],
    registers: [registry],
    collect() {
      this.reset();
      for (const { method, route, serverErrors } of everySeries) this.inc({ method, route }, serverErrors);
    },
  });

  function seriesFor(method: string, route: string): RouteSeries {
    let byMethod = byRoute.get(route);
    if (byMethod === undefined) {
      byMethod = new Map();
      byRoute.set(route, byMethod);
    }
    let series = byMethod.get(method);
    if (series === undefined) {
      series = {
        method,
        route,
        duration: duration.series(method, route),
        statuses: new Map(),
        serverErrors: 0,
      };
      byMethod.set(method, series);
      everySeries.push(series);
    }
    return series;
  }

  return {
    observe(method, route, status, elapsedMs) {
      const series = seriesFor(method, route);
      series.statuses.set(status, (series.statuses.get(status) ?? 0) + 1);
      if (status >= 500) series.serverErrors++;
      series.duration.observe(elapsedMs / 1_000);
    },
  };
}
