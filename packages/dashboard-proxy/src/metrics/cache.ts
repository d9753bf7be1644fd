import { Counter, type Registry } from "prom-client";
import type { CacheOutcome, UpstreamCache } from "../cache/upstream-cache.js";

/** Counts how each cached route was served. */
export interface CacheMetrics {
  /** Wraps `cache` so each answer is counted under `route` (a route template). */
  countCache<A>(route: string, cache: UpstreamCache<A>): UpstreamCache<A>;
}

/**
 * Creates `keyport_proxy_cache_requests_total{route,result}`: `hit` (fresh copy), `stale` (an
 * old copy served, while a refresh runs or because it failed), `miss` (loaded from the upstream),
 * `error` (no copy and the load failed).
 */
export function createCacheMetrics(registry: Registry): CacheMetrics {
  // Plain numbers read at scrape time (prom-client would hash the labels on every inc()).
  const everyRoute: { route: string; counts: Record<Result, number> }[] = [];
  new Counter({
    name: "keyport_proxy_cache_requests_total",
    help: "Cached route answers by route template and result: hit, stale, miss, error",
    labelNames: ["route", "result"],
    registers: [registry],
    collect() {
      this.reset();
      for (const { route, counts } of everyRoute) {
        for (const result of RESULTS) this.inc({ route, result }, counts[result]);
      }
    },
  });
  return {
    countCache<A>(route: string, cache: UpstreamCache<A>): UpstreamCache<A> {
      const counts: Record<Result, number> = { hit: 0, stale: 0, miss: 0, error: 0 };
      everyRoute.push({ route, counts });
      const count = (outcome: CacheOutcome): CacheOutcome => {
        if (!outcome.ok) counts.error++;
        else if (outcome.state === "HIT") counts.hit++;
        else if (outcome.state === "STALE") counts.stale++;
        else counts.miss++;
        return outcome;
      };
      return {
        get(key, load, options, asker) {
          const outcome = cache.get(key, load, options, asker);
          // A hit stays synchronous: the cached request's whole path has no await.
          return outcome instanceof Promise ? outcome.then(count) : count(outcome);
        },
      };
    },
  };
}

const RESULTS = ["hit", "stale", "miss", "error"] as const;
type Result = (typeof RESULTS)[number];
