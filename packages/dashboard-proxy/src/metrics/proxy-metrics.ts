import { collectDefaultMetrics, Registry } from "prom-client";
import { type CacheMetrics, createCacheMetrics } from "./cache.js";
import { createHttpMetrics, type HttpMetrics } from "./http.js";
import { createUpstreamMetrics, type UpstreamMetrics } from "./upstream.js";

/** One app's metrics: its own registry (tests run several apps in one process). */
export interface ProxyMetrics {
  registry: Registry;
  http: HttpMetrics;
  upstream: UpstreamMetrics;
  cache: CacheMetrics;
}

/**
 * Creates a registry with the process defaults (`collectDefaultMetrics`: CPU, memory, event loop
 * lag, GC, handles) and the proxy's request, upstream and cache metrics.
 * @example const metrics = createProxyMetrics(); await metrics.registry.metrics();
 */
export function createProxyMetrics(): ProxyMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    http: createHttpMetrics(registry),
    upstream: createUpstreamMetrics(registry),
    cache: createCacheMetrics(registry),
  };
}
