import { Counter, Histogram, type Registry } from "prom-client";

/** Seconds; from a cached price (well under a millisecond) to a slow upstream. */
const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Counts and times answered requests by method, route template and status. */
export interface HttpMetrics {
  /** Records one answer; `started` is the request's `performance.now()`. */
  observe(method: string, route: string, status: number, started: number): void;
}

interface Inc {
  inc(): void;
}

interface RouteSeries {
  duration: { observe(value: number): void };
  statuses: Map<number, Inc>;
  errors: Inc;
}

/**
 * Creates `keyport_proxy_http_requests_total`, `keyport_proxy_http_request_duration_seconds` and
 * `keyport_proxy_http_server_errors_total` (5xx) in `registry`. `route` is a registered route's
 * template or `(unmatched)`, never a raw path.
 */
export function createHttpMetrics(registry: Registry): HttpMetrics {
  const requests = new Counter({
    name: "keyport_proxy_http_requests_total",
    help: "HTTP requests answered, by method, route template and status",
    labelNames: ["method", "route", "status"],
    registers: [registry],
  });
  const duration = new Histogram({
    name: "keyport_proxy_http_request_duration_seconds",
    help: "Time from receiving a request to its response head (a chat stream keeps flowing after), by method and route",
    labelNames: ["method", "route"],
    buckets: BUCKETS,
    registers: [registry],
  });
  const errors = new Counter({
    name: "keyport_proxy_http_server_errors_total",
    help: "Responses with a 5xx status, by method and route template",
    labelNames: ["method", "route"],
    registers: [registry],
  });
  // One prom-client child per series, found by two map lookups: no label object per request.
  const byRoute = new Map<string, Map<string, RouteSeries>>();

  function seriesFor(method: string, route: string): RouteSeries {
    let byMethod = byRoute.get(route);
    if (byMethod === undefined) {
      byMethod = new Map();
      byRoute.set(route, byMethod);
    }
    let series = byMethod.get(method);
    if (series === undefined) {
      series = {
        duration: duration.labels(method, route),
        statuses: new Map(),
        errors: errors.labels(method, route),
      };
      byMethod.set(method, series);
    }
    return series;
  }

  return {
    observe(method, route, status, started) {
      const series = seriesFor(method, route);
      let counter = series.statuses.get(status);
      if (counter === undefined) {
        counter = requests.labels(method, route, String(status));
        series.statuses.set(status, counter);
      }
      counter.inc();
      series.duration.observe((performance.now() - started) / 1_000);
      if (status >= 500) series.errors.inc();
    },
  };
}
