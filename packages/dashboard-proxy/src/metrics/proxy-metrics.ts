import { createHttpMetrics, type HttpMetrics, registerProcessFaultMetrics } from "@keyport/node-edge";
import { collectDefaultMetrics, Registry } from "prom-client";
import { type CacheMetrics, createCacheMetrics } from "./cache.js";
import { createUpstreamMetrics, type UpstreamMetrics } from "./upstream.js";

/** Seconds; from a cached price (well under a millisecond) to a slow upstream. */
const HTTP_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** One app's metrics: its own registry (tests run several apps in one process). */
export interface ProxyMetrics {
  registry: Registry;
  http: HttpMetrics;
  upstream: UpstreamMetrics;
  cache: CacheMetrics;
}

/**
 * Creates a registry with the process defaults (`collectDefaultMetrics`: CPU, memory, event loop
 * lag, GC, handles), unhandled rejections and the proxy's request, upstream and cache metrics.
 * @example const metrics = createProxyMetrics(); await metrics.registry.metrics();
 */
export function createProxyMetrics(): ProxyMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  registerProcessFaultMetrics(registry);
  return {
    registry,
    http: createHttpMetrics(registry, {
      prefix: "keyport_proxy_http",
      buckets: HTTP_BUCKETS,
      durationHelp:
        "Time from receiving a request to its response head (a chat stream keeps flowing after), by method and route",
    }),
    upstream: createUpstreamMetrics(registry),
    cache: createCacheMetrics(registry),
  };
}
