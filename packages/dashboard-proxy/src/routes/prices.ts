import { getQuery, getRouterParams, type H3, HTTPResponse } from "h3";
import type { Logger } from "pino";
import type { z } from "zod";
import type { SharedCacheStore } from "../cache/shared-store.js";
import {
  type CacheOutcome,
  createUpstreamCache,
  type Loader,
  type UpstreamCache,
} from "../cache/upstream-cache.js";
import { errorResponse, validationError } from "../http/errors.js";
import type { CacheMetrics } from "../metrics/cache.js";
import {
  chartParamsSchema,
  chartQuerySchema,
  marketsQuerySchema,
  simplePriceQuerySchema,
} from "../schemas/prices.js";
import {
  type CoinGeckoClient,
  type CoinGeckoRequest,
  chartRequest,
  marketsRequest,
  simplePriceRequest,
} from "../upstream/coingecko.js";
import { failureToApiError } from "../upstream/failure.js";
import { DASHBOARD_ROUTES, type DashboardRouteName } from "./table.js";

/** Cache timing; CoinGecko refreshes prices about every 60 s and charts about every 30 s. */
export interface PriceCacheOptions {
  pricesTtlMs: number;
  chartTtlMs: number;
  staleWhileRevalidateMs: number;
  maxEntries: number;
  /** The caches' clock in ms (default `Date.now`); tests move one by hand instead of waiting. */
  now?: () => number;
  /** Redis behind each cache's LRU (REDIS_URL): copies and loads shared by every instance. */
  shared?: SharedCacheStore;
}

/** What the price routes need. */
export interface PriceRouteOptions {
  client: CoinGeckoClient;
  cache: PriceCacheOptions;
  logger: Logger;
  /** Counts each route's cache answers (hit, stale, miss, error). */
  metrics: CacheMetrics;
}

const SERVICE = "market data provider";

/**
 * Registers `/api/prices/simple`, `/api/prices/markets` and `/api/prices/chart/:id`, each behind
 * its own cache keyed by the normalised upstream request.
 */
export function registerPriceRoutes(app: H3, options: PriceRouteOptions): void {
  const { client, cache, logger, metrics } = options;
  const swrSeconds = Math.floor(cache.staleWhileRevalidateMs / 1_000);

  const createCache = (route: DashboardRouteName, ttlMs: number) =>
    metrics.countCache(
      DASHBOARD_ROUTES[route].path,
      createUpstreamCache({
        ttlMs,
        staleWhileRevalidateMs: cache.staleWhileRevalidateMs,
        maxEntries: cache.maxEntries,
        now: cache.now,
        shared: cache.shared,
      }),
    );
  const simple = createCache("prices.simple", cache.pricesTtlMs);
  const markets = createCache("prices.markets", cache.pricesTtlMs);
  const chart = createCache("prices.chart", cache.chartTtlMs);

  const load =
    <T>(request: CoinGeckoRequest<T>): Loader =>
    async (signal) => {
      const result = await client.send(request, signal);
      if (result.ok) return { ok: true, value: JSON.stringify(result.value) };
      logger.warn({ upstream: "coingecko", path: request.path, failure: result.failure }, "upstream failed");
      return result;
    };
  const answer = async <T>(target: UpstreamCache, request: CoinGeckoRequest<T>) =>
    cachedResponse(await target.get(request.key, load(request)), swrSeconds);

  app.get(DASHBOARD_ROUTES["prices.simple"].path, async (event) => {
    const query = simplePriceQuerySchema.safeParse(getQuery(event));
    if (!query.success) return invalid(query.error);
    return answer(simple, simplePriceRequest(query.data));
  });

  app.get(DASHBOARD_ROUTES["prices.markets"].path, async (event) => {
    const query = marketsQuerySchema.safeParse(getQuery(event));
    if (!query.success) return invalid(query.error);
    return answer(markets, marketsRequest(query.data));
  });

  app.get(DASHBOARD_ROUTES["prices.chart"].path, async (event) => {
    // The param is validated exactly as it came on the wire: any escape (`%2F`, `%2e`) fails the
    // pattern, so nothing is ever decoded into a `/` or a dot segment.
    const params = chartParamsSchema.safeParse(getRouterParams(event));
    if (!params.success) return invalid(params.error);
    const query = chartQuerySchema.safeParse(getQuery(event));
    if (!query.success) return invalid(query.error);
    return answer(chart, chartRequest({ ...params.data, ...query.data }));
  });

  // `/api/prices/chart/a/b` and the like: a coin id is one segment, so this is a bad id, not a miss.
  app.get("/api/prices/chart/**", () =>
    errorResponse({
      code: "BAD_REQUEST",
      message: "Invalid request",
      issues: [{ path: ["id"], message: "must be a single CoinGecko coin id" }],
    }),
  );
}

function invalid(error: z.ZodError): Response {
  return errorResponse(validationError(error, "Invalid request"));
}

function cachedResponse(outcome: CacheOutcome, swrSeconds: number): Response | HTTPResponse {
  if (!outcome.ok) return errorResponse(failureToApiError(outcome.failure, SERVICE));
  // h3's own response: srvx writes the string body with one res.end() instead of streaming a web
  // Response body (a quarter of a cached request's CPU went there).
  return new HTTPResponse(outcome.body, {
    status: 200,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": `public, max-age=${outcome.maxAgeSeconds}, stale-while-revalidate=${swrSeconds}`,
      "x-cache": outcome.state,
    },
  });
}
