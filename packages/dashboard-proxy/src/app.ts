import { codeForStatus, type ErrorCode } from "@keyport/errors";
import { createTrustedProxies } from "@keyport/node-edge";
import { bodyLimit, H3, type HTTPError } from "h3";
import type { Redis } from "ioredis";
import type { DestinationStream, Logger } from "pino";
import type { Env } from "./env.js";
import { CLIENT_CLOSED, CLIENT_CLOSED_STATUS, isClientGone } from "./http/abort.js";
import { createAccessLog } from "./http/access-log.js";
import { errorResponse } from "./http/errors.js";
import { createGuards, originVerdict } from "./http/guards.js";
import { createLogger, sharedStdout } from "./http/logger.js";
import { corsHeaders, isCorsPath } from "./http/origin.js";
import "./http/request-context.js";
import { AGENT_STREAM_BOUNDS } from "./chat/stream-bounds.js";
import { assignRequestId, putRequestId } from "./http/request-id.js";
import { createClientIpReader } from "./http/request-ip.js";
import { createMetricsEndpoint, METRICS_PATH } from "./metrics/endpoint.js";
import { createProxyMetrics } from "./metrics/proxy-metrics.js";
import { registerChatRoute } from "./routes/chat.js";
import { registerMetaRoute } from "./routes/meta.js";
import { registerOperatorCsvRoute } from "./routes/operator-csv.js";
import { type PriceCacheOptions, registerPriceRoutes } from "./routes/prices.js";
import { registerSessionRoutes } from "./routes/session.js";
import { registerStaticRoutes } from "./routes/static.js";
import { registerTrpcForward } from "./routes/trpc-forward.js";
import { MAX_BODY_BYTES } from "./schemas/chat.js";
import { createSessionCookies } from "./session/cookies.js";
import { createSessionResolver } from "./session/resolver.js";
import { createSharedState } from "./shared-state.js";
import { createAgentClient } from "./upstream/agent.js";
import { withBudget } from "./upstream/budget.js";
import { createCoinGeckoClient } from "./upstream/coingecko.js";
import { createKeyportClient } from "./upstream/keyport.js";
import { createRefusalLog } from "./upstream/refusal-log.js";

/** Knobs for tests and benchmarks; production uses the defaults. */
export interface CreateAppOptions {
  /** Where log lines go (one JSON line each); default stdout. Tests capture lines here. */
  logDestination?: DestinationStream;
  /** Cache timing; defaults: freshness by plan and granularity, stale-while-revalidate 60 s, 1000 entries. */
  cache?: Partial<PriceCacheOptions>;
  /** Rate-limit window length; default one minute (`RATE_LIMIT_PER_MINUTE` per window). */
  rateLimitWindowMs?: number;
  /** A Redis client the caller owns and closes (tests); default: one opened for `REDIS_URL`. */
  redis?: Redis;
  /** Wall-clock ms for the upstream budget and the per-IP limit; default `Date.now` (Redis's time for a shared budget). */
  clock?: () => number;
}

// Freshness is not set here: it follows the plan and each chart's granularity (upstream/freshness.ts).
const DEFAULT_CACHE: PriceCacheOptions = {
  staleWhileRevalidateMs: 60_000,
  maxEntries: 1_000,
};

// Messages for errors h3 raises itself; ours carry their own. Never the h3 text, which can quote the URL.
// A 500 says "Internal server error" whatever is written here (errorResponse's rule).
const MESSAGES: Partial<Record<ErrorCode, string>> = {
  BAD_REQUEST: "Malformed request",
  NOT_FOUND: "No such route",
  METHOD_NOT_SUPPORTED: "Method not allowed on this route",
  PAYLOAD_TOO_LARGE: `The request body is larger than ${MAX_BODY_BYTES / 1024} KiB`,
  UNSUPPORTED_MEDIA_TYPE: "Unsupported content type",
};

// What each app opened itself and must release on shutdown (see closeApp).
const closers = new WeakMap<H3, () => Promise<void>>();

/**
 * Builds the dashboard proxy: guards (origin, rate limit, body limit), `/healthz`, the price routes
 * and chat. Serve it with h3's `serve(app, { port })` or any fetch-compatible server.
 * @example serve(createApp(parseEnv(process.env)), { port: 3001 })
 */
export function createApp(env: Env, options: CreateAppOptions = {}): H3 {
  const logger = createLogger(env.LOG_LEVEL, options.logDestination);
  const accessLog = createAccessLog(env.LOG_LEVEL, options.logDestination ?? sharedStdout());
  const allowedOrigins = new Set(env.ALLOWED_ORIGINS);
  const clientIp = createClientIpReader(createTrustedProxies(env.TRUSTED_PROXIES));
  const keyport = createKeyportClient({ baseUrl: env.KEYPORT_URL, timeoutMs: env.KEYPORT_TIMEOUT_MS });
  const cookies = createSessionCookies(env.PUBLIC_ORIGIN);
  const sessions = createSessionResolver({ keyport, publicOrigin: env.PUBLIC_ORIGIN });
  // Per app, not prom-client's global registry: tests run several apps in one process.
  const metrics = createProxyMetrics();
  // Budget, per-IP limit and cache tier: in Redis with REDIS_URL (shared by every instance), else here.
  const shared = createSharedState(env, {
    logger,
    registry: metrics.registry,
    redis: options.redis,
    now: options.clock,
    cacheNow: options.cache?.now,
    rateLimitWindowMs: options.rateLimitWindowMs ?? 60_000,
  });

  const app = new H3({
    // h3 would print unhandled errors in full; ours go through pino without request data.
    silent: true,
    onRequest: (event) => {
      event.context.startedAt = performance.now();
      assignRequestId(event);
    },
    // A client that reset or left mid-request is not an outage: no "unhandled error", no 500.
    onError: (error, event) =>
      isClientGone(event) ? errorResponse(CLIENT_CLOSED) : mapError(error, logger, event.context.requestId),
    onResponse: (response, event) => {
      // Answers differ by Origin (CORS headers, 403), so shared caches must key on it.
      const verdict = originVerdict(event, env.PUBLIC_ORIGIN, allowedOrigins);
      if (verdict.kind === "allowed" && isCorsPath(event.url.pathname, env.CHAT_ACCESS === "public")) {
        for (const [name, value] of Object.entries(corsHeaders(verdict.origin)))
          response.headers.set(name, value);
      } else if (event.context.varyDone !== true && !response.headers.has("vary")) {
        // Skipped for a prepared cache hit: reading `headers` would copy all of its headers.
        response.headers.set("vary", "Origin");
      }
      const started = event.context.startedAt;
      const elapsedMs = started === undefined ? undefined : performance.now() - started;
      // Whatever a route made of a vanished client (a 400 for a cut body, a 499 from an upstream
      // call it aborted, a 200 nobody reads) is logged and counted as the abort it is.
      const aborted = isClientGone(event);
      const status = aborted ? CLIENT_CLOSED_STATUS : response.status;
      const method = event.req.method;
      // The path only: query strings are the client's business, not our logs'.
      accessLog(
        method,
        event.url.pathname,
        status,
        elapsedMs === undefined ? undefined : Math.round(elapsedMs),
        aborted,
        event.context.requestId,
      );
      // The registered route's template, never the raw path (a coin id, a probe's URL).
      const route = event.context.matchedRoute?.route ?? "(unmatched)";
      if (elapsedMs !== undefined) metrics.http.observe(method, route, status, elapsedMs);
      // Last: the answer is written after this hook, and a line and a count come first whatever happens here.
      putRequestId(response, event);
    },
  });

  app.use(
    createGuards({
      publicOrigin: env.PUBLIC_ORIGIN,
      allowedOrigins,
      clientIp,
      chatPublic: env.CHAT_ACCESS === "public",
      rateLimiter: shared.rateLimiter,
    }),
  );
  app.use(bodyLimit(MAX_BODY_BYTES));

  // A real route, registered first: the dashboard's HTML fallback can never answer it.
  app.get(METRICS_PATH, createMetricsEndpoint(metrics.registry, env.METRICS_TOKEN));
  app.get("/healthz", () => Response.json({ ok: true }, { headers: { "cache-control": "no-store" } }));
  registerMetaRoute(app, {
    coingeckoPlan: env.COINGECKO_PLAN,
    chat: env.AGENT_URL !== undefined,
    serverUrl: env.KEYPORT_PUBLIC_URL,
    publicOrigin: env.PUBLIC_ORIGIN,
    signInChainIds: env.SIWE_CHAIN_IDS,
    readServerMeta: async () => {
      const answer = await keyport.meta(undefined);
      return answer.ok ? answer.value : undefined;
    },
  });
  registerSessionRoutes(app, { keyport, cookies, clientIp, publicOrigin: env.PUBLIC_ORIGIN });
  registerTrpcForward(app, { keyport, cookies, clientIp, publicOrigin: env.PUBLIC_ORIGIN, logger });
  registerOperatorCsvRoute(app, { keyport, cookies, clientIp, publicOrigin: env.PUBLIC_ORIGIN, logger });

  // Budget refusals are counted in the log, a line a minute at most: a flood writes no flood.
  const logRefusal = createRefusalLog(logger, options.clock);
  registerPriceRoutes(app, {
    plan: env.COINGECKO_PLAN,
    // The budget is paid first: a refused call is never made, so it is not counted as an upstream call.
    client: withBudget(
      metrics.upstream.countCoinGecko(
        createCoinGeckoClient({
          baseUrl: env.COINGECKO_BASE_URL,
          apiKey: env.COINGECKO_API_KEY,
          keyHeader: env.COINGECKO_KEY_HEADER,
          timeoutMs: env.UPSTREAM_TIMEOUT_MS,
        }),
      ),
      shared.budget,
      {
        share: shared.clientShare,
        onRefused: (verdict) => {
          shared.onBudgetRefused(verdict);
          logRefusal(verdict);
        },
      },
    ),
    clientIp,
    cache: { ...DEFAULT_CACHE, ...options.cache, shared: shared.cacheStore },
    logger,
    metrics: metrics.cache,
  });

  registerChatRoute(app, {
    agent:
      env.AGENT_URL === undefined
        ? undefined
        : metrics.upstream.countAgent(
            createAgentClient({
              url: env.AGENT_URL,
              apiKey: env.AGENT_API_KEY,
              headerTimeoutMs: env.CHAT_HEADER_TIMEOUT_MS,
              bounds: { ...AGENT_STREAM_BOUNDS, idleMs: env.CHAT_IDLE_TIMEOUT_MS },
              protocol: env.AGENT_PROTOCOL,
              model: env.AGENT_MODEL,
              systemPrompt: env.AGENT_SYSTEM_PROMPT,
            }),
          ),
    logger,
    access: env.CHAT_ACCESS,
    resolveSession: sessions.resolveSession,
    perWalletLimit: env.CHAT_RATE_LIMIT_PER_MINUTE,
    rateLimitWindowMs: options.rateLimitWindowMs,
  });

  // Last, and under `/**`: every route above is more specific, so the page never answers for one.
  registerStaticRoutes(app, { dir: env.DASHBOARD_DIR });

  closers.set(app, shared.close);
  return app;
}

/**
 * Releases what `createApp` opened for `app`: the Redis client of `REDIS_URL` (quit, so commands
 * already sent get their replies). Call it once the server has closed (no request still running).
 * @example await server.close(); await closeApp(app);
 */
export async function closeApp(app: H3): Promise<void> {
  await closers.get(app)?.();
}

function mapError(error: HTTPError, logger: Logger, requestId: string | undefined): Response {
  const code = error.unhandled ? "INTERNAL_SERVER_ERROR" : codeForStatus(error.status);
  if (code === "INTERNAL_SERVER_ERROR") {
    // Name only: messages of third-party errors are not ours to vouch for.
    logger.error(
      { error: error.cause instanceof Error ? error.cause.name : error.name, reqId: requestId },
      "unhandled error",
    );
  }
  return errorResponse({ code, message: MESSAGES[code] ?? "Request failed" }, requestId);
}
