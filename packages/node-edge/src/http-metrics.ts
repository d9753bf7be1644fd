import type { ServerResponse } from "node:http";
import { Counter, type Registry } from "prom-client";
import { createBatchedHistogram } from "./batched-histogram.js";

/** Counts and times answered requests by method, route template and status. */
export interface HttpMetrics {
  /** Records one answered request that took `elapsedMs`. */
  observe(method: string, route: string, status: number, elapsedMs: number): void;
  /**
   * Records a node response when it is complete: now if it has ended, else when it finishes;
   * `started` is the request's `performance.now()`.
   */
  observeWhenDone(res: ServerResponse, method: string, route: string, started: number): void;
}

/** What differs between the servers: metric names, buckets and what the duration measures. */
export interface HttpMetricsOptions {
  /** Prefix of the metric names, e.g. `keyport_http` for `keyport_http_requests_total`. */
  prefix: string;
  /** Duration buckets, in seconds. */
  buckets: readonly number[];
  /** Help text of the duration histogram: from receiving a request to what. */
  durationHelp: string;
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
 * Creates `<prefix>_requests_total`, `<prefix>_request_duration_seconds` and
 * `<prefix>_server_errors_total` (5xx) in `registry`. `route` must be a template or a fixed label,
 * never a raw path: each label set is kept for the life of the process.
 * @example createHttpMetrics(registry, { prefix: "keyport_http", buckets: [0.001, 0.01], durationHelp }).observe("GET", "/healthz", 200, 0.4)
 */
export function createHttpMetrics(registry: Registry, options: HttpMetricsOptions): HttpMetrics {
  const { prefix } = options;
  // A request costs two map lookups, two number increments and one histogram count: prom-client
  // hashes label values on every inc() and observe(), so the counters are plain numbers and the
  // histogram a batched one, which the registry reads when scraped.
  const byRoute = new Map<string, Map<string, RouteSeries>>();
  const everySeries: RouteSeries[] = [];

  new Counter({
    name: `${prefix}_requests_total`,
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
    name: `${prefix}_request_duration_seconds`,
    help: options.durationHelp,
    buckets: options.buckets,
  });
  new Counter({
    name: `${prefix}_server_errors_total`,
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

  function observe(method: string, route: string, status: number, elapsedMs: number): void {
    const series = seriesFor(method, route);
    series.statuses.set(status, (series.statuses.get(status) ?? 0) + 1);
    if (status >= 500) series.serverErrors++;
    series.duration.observe(elapsedMs / 1_000);
  }

  return {
    observe,
    observeWhenDone(res, method, route, started) {
      // Hot routes have ended their response by now: no listener, no closure.
      if (res.writableEnded) observe(method, route, res.statusCode, performance.now() - started);
      else res.once("finish", () => observe(method, route, res.statusCode, performance.now() - started));
    },
  };
}
