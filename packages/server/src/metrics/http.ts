import type { ServerResponse } from "node:http";
import { Counter, Histogram, type Registry } from "prom-client";

/** Seconds; from a cached verification (about 0.1 ms) to a slow database call. */
const BUCKETS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

/** Counts and times finished requests by method, route template and status. */
export interface HttpMetrics {
  /** Records a request whose response is complete; `started` is its `performance.now()`. */
  observe(method: string, route: string, status: number, started: number): void;
  /** Records the request now if its response has ended, else when it finishes. */
  observeWhenDone(res: ServerResponse, method: string, route: string, started: number): void;
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
 * Creates `keyport_http_requests_total`, `keyport_http_request_duration_seconds` and
 * `keyport_http_server_errors_total` (5xx) in `registry`. `route` must be a template or a fixed
 * label, never a raw path: each label set is kept for the life of the process.
 */
export function createHttpMetrics(registry: Registry): HttpMetrics {
  // A request costs two map lookups, two number increments and one histogram observation:
  // prom-client hashes label values on every inc(), so the counters are plain numbers that
  // the registry reads when scraped.
  const byRoute = new Map<string, Map<string, RouteSeries>>();
  const everySeries: RouteSeries[] = [];

  new Counter({
    name: "keyport_http_requests_total",
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
  const duration = new Histogram({
    name: "keyport_http_request_duration_seconds",
    help: "Time from receiving a request to ending its response, by method and route template",
    labelNames: ["method", "route"],
    buckets: BUCKETS,
    registers: [registry],
  });
  new Counter({
    name: "keyport_http_server_errors_total",
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
        duration: duration.labels(method, route),
        statuses: new Map(),
        serverErrors: 0,
      };
      byMethod.set(method, series);
      everySeries.push(series);
    }
    return series;
  }

  function observe(method: string, route: string, status: number, started: number): void {
    const series = seriesFor(method, route);
    series.statuses.set(status, (series.statuses.get(status) ?? 0) + 1);
    if (status >= 500) series.serverErrors++;
    series.duration.observe((performance.now() - started) / 1_000);
  }

  return {
    observe,
    observeWhenDone(res, method, route, started) {
      // Hot routes have ended their response by now: no listener, no closure.
      if (res.writableEnded) observe(method, route, res.statusCode, started);
      else res.once("finish", () => observe(method, route, res.statusCode, started));
    },
  };
}
