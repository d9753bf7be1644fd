import { Counter, type Registry } from "prom-client";
import type { UpstreamCache } from "../cache/upstream-cache.js";

/** Counts how each cached route was served. */
export interface CacheMetrics {
  /** Wraps `cache` so each answer is counted under `route` (a route template). */
  countCache(route: string, cache: UpstreamCache): UpstreamCache;
}

/**
 * Creates `keyport_proxy_cache_requests_total{route,result}`: `hit` (fresh copy), `stale` (an
 * old copy served, while a refresh runs or because it failed), `miss` (loaded from the upstream),
 * `error` (no copy and the load failed).
 */
export function createCacheMetrics(registry: Registry): CacheMetrics {
  const answers = new Counter({
    name: "keyport_proxy_cache_requests_total",
    help: "Cached route answers by route template and result: hit, stale, miss, error",
    labelNames: ["route", "result"],
    registers: [registry],
  });
  return {
    countCache(route, cache) {
      const hit = answers.labels(route, "hit");
      const stale = answers.labels(route, "stale");
      const miss = answers.labels(route, "miss");
      const error = answers.labels(route, "error");
      for (const child of [hit, stale, miss, error]) child.inc(0);
      return {
        async get(key, load, options) {
          const outcome = await cache.get(key, load, options);
          if (!outcome.ok) error.inc();
          else if (outcome.state === "HIT") hit.inc();
          else if (outcome.state === "STALE") stale.inc();
          else miss.inc();
          return outcome;
        },
      };
    },
  };
}
