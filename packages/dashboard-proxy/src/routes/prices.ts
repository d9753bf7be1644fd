import { clientLimitKey } from "@keyport/node-edge";
import { getQuery, getRouterParams, type H3, type H3Event, type HTTPResponse } from "h3";
import type { Logger } from "pino";
import type { z } from "zod";
import type { SharedCacheStore } from "../cache/shared-store.js";
import {
  type CacheOutcome,
  createUpstreamCache,
  type GetOptions,
  type Loader,
} from "../cache/upstream-cache.js";
import { memoizeByUrl } from "../cache/url-memo.js";
import { type ApiError, errorResponse, validationError } from "../http/errors.js";
import type { ClientIpReader } from "../http/request-ip.js";
import type { CacheMetrics } from "../metrics/cache.js";
import {
  chartParamsSchema,
  chartQuerySchema,
  marketsQuerySchema,
  ohlcQuerySchema,
  rangeQuerySchema,
  simplePriceQuerySchema,
} from "../schemas/prices.js";
import { hasSessionCookie } from "../session/cookies.js";
import type { Asker, BudgetedClient } from "../upstream/budget.js";
import {
  type CoinGeckoRequest,
  chartRequest,
  marketsRequest,
  ohlcRequest,
  rangeRequest,
  simplePriceRequest,
} from "../upstream/coingecko.js";
import { failureToApiError, type UpstreamFailure } from "../upstream/failure.js";
import { chartGranularity, chartTtl, FRESHNESS, pricesTtl, rangeTtl } from "../upstream/freshness.js";
import { intervalRefusal, type Plan } from "../upstream/plans.js";
import { registerStartupCheck } from "../upstream/startup-check.js";
import "../http/request-context.js";
import { createCachedResponses } from "./prepared-response.js";
import { refuseRewrittenPricePaths } from "./price-paths.js";
import { DASHBOARD_ROUTES, type DashboardRouteName } from "./table.js";

/** Cache timing. Freshness follows CoinGecko's own updates by plan and granularity (upstream/freshness.ts). */
export interface PriceCacheOptions {
  /** Tests: one freshness for prices and markets instead of the plan's (60 s Demo, 20 s paid). */
  pricesTtlMs?: number;
  /** Tests: one freshness for every chart, range and OHLC answer instead of the granularity's. */
  chartTtlMs?: number;
  staleWhileRevalidateMs: number;
  maxEntries: number;
  /** The caches' clock in ms (default `Date.now`); tests move one by hand instead of waiting. */
  now?: () => number;
  /** Redis behind each cache's LRU (REDIS_URL): copies and loads shared by every instance. */
  shared?: SharedCacheStore;
}

/** What the price routes need. */
export interface PriceRouteOptions {
  /** Charges each call to the asking client's share and to the budget (upstream/budget.ts). */
  client: BudgetedClient;
  /** The request's client address, whose share (an IPv4 address, an IPv6 /64) a call is charged to. */
  clientIp: ClientIpReader;
  /** The CoinGecko plan: which intervals are offered, how fresh prices stay, what a plan error says. */
  plan: Plan;
  cache: PriceCacheOptions;
  logger: Logger;
  /** Counts each route's cache answers (hit, stale, miss, error). */
  metrics: CacheMetrics;
  /** Wall-clock ms, to tell a range that is history from one still moving; default `Date.now`. */
  wallClock?: () => number;
}

const SERVICE = "market data provider";
// Validated calls remembered per route by exact URL (cache/url-memo.ts): a hit skips zod entirely.
const PLAN_MEMO_MAX = 1_000;

/** A validated call: the upstream request and how long its answer stays fresh. */
interface Planned<T> {
  request: CoinGeckoRequest<T>;
  ttlMs: number;
}

/** A planned call as the cache takes it; its load is charged to the request that starts it. */
interface Ready {
  key: string;
  load: Loader<H3Event>;
  options: GetOptions;
}

/**
 * Registers `/api/prices/simple`, `/markets`, `/chart/:id`, `/range/:id` and `/ohlc/:id`, each behind
 * its own cache keyed by the normalised upstream request, and the start-up check of the key and host.
 */
export function registerPriceRoutes(app: H3, options: PriceRouteOptions): void {
  const { client, cache, clientIp, logger, metrics, plan } = options;
  // Before the router: what URL parsing would fold (`%2e%2e`, `\`) never reaches a route.
  app.use(refuseRewrittenPricePaths());
  const wallClock = options.wallClock ?? Date.now;
  const swrSeconds = Math.floor(cache.staleWhileRevalidateMs / 1_000);
  const pricesMs = cache.pricesTtlMs ?? pricesTtl(plan);
  const chartMs = (ttlMs: number) => cache.chartTtlMs ?? ttlMs;

  const createCache = (route: DashboardRouteName) =>
    metrics.countCache(
      DASHBOARD_ROUTES[route].path,
      createUpstreamCache<H3Event>({
        ttlMs: pricesMs,
        staleWhileRevalidateMs: cache.staleWhileRevalidateMs,
        maxEntries: cache.maxEntries,
        now: cache.now,
        shared: cache.shared,
      }),
    );

  const logFailure = (path: string, failure: UpstreamFailure) => {
    if (failure.kind === "misconfigured") {
      // An operator must act: the line names the setting to fix (never the key itself).
      logger.error(
        { upstream: "coingecko", path, setting: failure.setting, detail: failure.detail },
        failure.hint,
      );
    } else if (failure.kind === "not_found") {
      // The caller's mistake (a coin CoinGecko does not know), remembered 10 minutes: not a warning.
      logger.debug({ upstream: "coingecko", path, failure }, "upstream has no such coin");
    } else if (failure.kind !== "budget_spent" && failure.kind !== "unavailable") {
      // A refusal of our own budget (spent, or its Redis unreadable: the client never answers
      // `unavailable`) made no call: counted and logged once a minute (upstream/refusal-log.ts).
      logger.warn({ upstream: "coingecko", path, failure }, "upstream failed");
    }
  };
  // The asker is read only when a load starts (a miss or a refresh), never on a hit. The cookie is
  // looked at, not verified (docs/dashboard-proxy.md, "Upstream budget").
  const askerOf = (event: H3Event): Asker => ({
    client: clientLimitKey(clientIp(event)),
    claim: hasSessionCookie(event) ? "dashboard" : "anyone",
  });
  const load =
    <T>(request: CoinGeckoRequest<T>): Loader<H3Event> =>
    async (signal, event) => {
      const result = await client.send(request, signal, askerOf(event));
      if (result.ok) return { ok: true, value: JSON.stringify(result.value) };
      logFailure(request.path, result.failure);
      return result;
    };

  // One per app: each cache entry's bytes and headers, prepared on its first answer.
  const respond = createCachedResponses(swrSeconds);
  const answer = (event: H3Event, outcome: CacheOutcome): Response | HTTPResponse => {
    if (!outcome.ok)
      return errorResponse(failureToApiError(outcome.failure, SERVICE, plan), event.context.requestId);
    event.context.varyDone = true;
    return respond(outcome.entry, outcome.state, outcome.maxAgeSeconds);
  };

  /** Registers one cached route: `plan` validates the event into a call, or answers the refusal. */
  const route = (
    name: DashboardRouteName,
    planCall: (event: H3Event) => Planned<unknown> | ApiError,
    // A range's freshness depends on when it is asked for, so its plans are not remembered.
    remember = true,
  ) => {
    const target = createCache(name);
    // The loader and the cache options are made with the plan, so a remembered URL reuses them.
    const ready = (event: H3Event): Ready | ApiError => {
      const call = planCall(event);
      if ("code" in call) return call;
      return { key: call.request.key, load: load(call.request), options: { ttlMs: call.ttlMs } };
    };
    const planned = remember ? memoizeByUrl(ready, (call) => !("code" in call), PLAN_MEMO_MAX) : ready;
    app.get(DASHBOARD_ROUTES[name].path, (event) => {
      const call = planned(event);
      if ("code" in call) return errorResponse(call);
      const outcome = target.get(call.key, call.load, call.options, event);
      // A copy in this process answers synchronously; only a load is awaited.
      return outcome instanceof Promise
        ? outcome.then((settled) => answer(event, settled))
        : answer(event, outcome);
    });
  };

  route("prices.simple", (event) => {
    const query = simplePriceQuerySchema.safeParse(getQuery(event));
    if (!query.success) return invalid(query.error);
    return { request: simplePriceRequest(query.data), ttlMs: pricesMs };
  });

  route("prices.markets", (event) => {
    const query = marketsQuerySchema.safeParse(getQuery(event));
    if (!query.success) return invalid(query.error);
    return { request: marketsRequest(query.data), ttlMs: pricesMs };
  });

  route("prices.chart", (event) => {
    const input = coinInput(event, chartQuerySchema);
    if ("code" in input) return input;
    const refused = intervalRefusal("chart", input.interval, plan);
    if (refused) return refused;
    const ttlMs = chartMs(chartTtl(chartGranularity(input.days, input.interval)));
    return { request: chartRequest(input), ttlMs };
  });

  route(
    "prices.range",
    (event) => {
      const input = coinInput(event, rangeQuerySchema);
      if ("code" in input) return input;
      const refused = intervalRefusal("chart", input.interval, plan);
      if (refused) return refused;
      const ttlMs = chartMs(rangeTtl(input.from, input.to, input.interval, wallClock()));
      return { request: rangeRequest(input), ttlMs };
    },
    false,
  );

  route("prices.ohlc", (event) => {
    const input = coinInput(event, ohlcQuerySchema);
    if ("code" in input) return input;
    const refused = intervalRefusal("ohlc", input.interval, plan);
    if (refused) return refused;
    return { request: ohlcRequest(input), ttlMs: chartMs(FRESHNESS.ohlc) };
  });

  // `/api/prices/chart/a/b` and the like: a coin id is one segment, so this is a bad id, not a miss.
  for (const prefix of ["chart", "range", "ohlc"]) {
    app.get(`/api/prices/${prefix}/**`, () =>
      errorResponse({
        code: "BAD_REQUEST",
        message: "Invalid request",
        issues: [{ path: ["id"], message: "must be a single CoinGecko coin id" }],
      }),
    );
  }

  registerStartupCheck(app, { client, logger });
}

/** The `:id` param and the query of a coin route, or the 400 that refuses them. */
function coinInput<S extends z.ZodType<object>>(
  event: H3Event,
  schema: S,
): (z.output<S> & { id: string }) | ApiError {
  // The param is validated exactly as it came on the wire: any escape (`%2F`, `%2e`) fails the
  // pattern, so nothing is ever decoded into a `/` or a dot segment.
  const params = chartParamsSchema.safeParse(getRouterParams(event));
  if (!params.success) return validationError(params.error, "Invalid request");
  const query = schema.safeParse(getQuery(event));
  if (!query.success) return validationError(query.error, "Invalid request");
  return { ...query.data, id: params.data.id };
}

function invalid(error: z.ZodError): ApiError {
  return validationError(error, "Invalid request");
}
