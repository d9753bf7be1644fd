import type { IncomingMessage, ServerResponse } from "node:http";
import { TRPCError } from "@trpc/server";
import { createHTTPHandler } from "@trpc/server/adapters/standalone";
import type { OpenAPIObject } from "trpc-to-openapi";
import { createContext, type Services } from "../context.js";
import { REQUEST_DEADLINE_MS, withDeadline } from "../deadline.js";
import { createMetricsEndpoint, METRICS_PATH } from "../metrics/endpoint.js";
import type { ServerMetrics } from "../metrics/server-metrics.js";
import { trpcRouteLabel } from "../metrics/trpc-route.js";
import { type AppRouter, createAppCaller } from "../routers/_app.js";
import { MAX_BODY_BYTES } from "./body.js";
import { DOCS_HTML } from "./docs.js";
import { sendError, sendJson } from "./errors.js";
import { type FastRoute, NO_STORE } from "./fast-route.js";
import { type CompiledRestRoute, callRestRoute, matchRestRoute } from "./rest.js";

export interface RequestHandlerOptions {
  router: AppRouter;
  services: Services;
  restRoutes: readonly CompiledRestRoute[];
  openApiDocument: OpenAPIObject;
  /** Keyed by `"POST /api-keys/verify"`: exact method and path; a URL with a query never matches. */
  fastRoutes: ReadonlyMap<string, FastRoute>;
  /** Where requests are counted and timed; also served at `GET /metrics`. */
  metrics: ServerMetrics;
}

/**
 * The whole HTTP surface as one node request listener: fast routes, /trpc, /healthz, /openapi.json,
 * /docs, then the REST routes. Logs one line per request (method, route, status, duration), never a body:
 * at info, except fast routes and unbatched tRPC verify, which log at debug.
 */
export function createRequestHandler(options: RequestHandlerOptions) {
  const { services, restRoutes, router, metrics } = options;
  const serveMetrics = createMetricsEndpoint(metrics.registry, services.env.METRICS_TOKEN);
  const openApiJson = JSON.stringify(options.openApiDocument);
  const trpc = createHTTPHandler({
    router,
    basePath: "/trpc/",
    maxBodySize: MAX_BODY_BYTES,
    // One request cannot fan out into unbounded procedure calls; the client's batch link sends at most 10.
    maxBatchSize: MAX_BATCH_SIZE,
    createContext: ({ req }) => createContext(services, req),
    // Verification answers are authorisation decisions: never cached on the way.
    responseMeta: ({ paths }) => (paths?.includes("keys.verify") ? { headers: NO_STORE } : {}),
    onError: ({ error, path }) => {
      if (error.code === "INTERNAL_SERVER_ERROR")
        services.logger.error({ err: error.cause ?? error, path }, "procedure failed");
    },
  });

  async function route(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    pathname: string,
  ): Promise<string> {
    if (pathname === "/trpc" || pathname.startsWith("/trpc/")) {
      // tRPC's adapter builds a fetch Request, which throws (a 500) on these methods: refuse them first.
      if (FETCH_FORBIDDEN_METHODS.has(method)) {
        sendJson(res, 405, { code: "METHOD_NOT_SUPPORTED", message: "tRPC takes GET and POST" });
        return "/trpc";
      }
      trpc(req, res);
      return trpcRouteLabel(pathname);
    }
    if (method === "GET" && pathname === METRICS_PATH) {
      await serveMetrics(req, res);
      return METRICS_PATH;
    }
    if (method === "GET" && pathname === "/healthz") {
      // A health check answers within the request deadline too: a database that does not answer is down.
      const healthy = await withDeadline(REQUEST_DEADLINE_MS, () => services.database.ping()).then(
        () => true,
        () => false,
      );
      sendJson(
        res,
        healthy ? 200 : 503,
        healthy ? { ok: true } : { ok: false, code: "SERVICE_UNAVAILABLE", message: "Database unreachable" },
      );
      return pathname;
    }
    if (method === "GET" && pathname === "/openapi.json") {
      res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
      res.end(openApiJson);
      return pathname;
    }
    if (method === "GET" && pathname === "/docs") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(DOCS_HTML);
      return pathname;
    }
    const match = matchRestRoute(restRoutes, method, pathname);
    if (!match) {
      // The path is not echoed: a caller may have put a secret in it.
      sendJson(res, 404, { code: "NOT_FOUND", message: "No such route" });
      return "(unmatched)";
    }
    const label = match.compiled.route.path;
    try {
      const url = new URL(req.url ?? "/", "http://localhost");
      const ctx = createContext(services, req);
      const data = await callRestRoute(match.compiled, req, url, match.params, ctx, createAppCaller(ctx));
      sendJson(res, match.compiled.route.successStatus, data);
    } catch (cause) {
      if (!(cause instanceof TRPCError) || cause.code === "INTERNAL_SERVER_ERROR") {
        const err = cause instanceof TRPCError ? (cause.cause ?? cause) : cause;
        services.logger.error({ err, route: label }, "procedure failed");
      }
      if (!res.headersSent) sendError(res, cause);
    }
    return label;
  }

  const { logger } = services;
  const info = logger.info.bind(logger);
  const debug = logger.debug.bind(logger);

  function fail(res: ServerResponse, method: string, label: string, started: number, cause: unknown): void {
    logger.error({ err: cause, method }, "request handler failed");
    if (!res.headersSent) sendError(res, cause);
    metrics.http.observeWhenDone(res, method, label, started);
  }

  return (req: IncomingMessage, res: ServerResponse): void => {
    const method = req.method ?? "GET";
    const raw = req.url ?? "/";
    const query = raw.indexOf("?");
    const pathname = query === -1 ? raw : raw.slice(0, query);
    // Only an exact URL: `/trpc/keys.verify?batch=1` is tRPC's business.
    const fast = query === -1 ? options.fastRoutes.get(`${method} ${pathname}`) : undefined;
    // Hot paths log at debug (their failures still log at error), so at the default
    // LOG_LEVEL=info a verification costs no log line, no timer and no listener.
    const quiet = fast !== undefined || pathname === QUIET_TRPC_PATH;
    const write = !quiet ? info : logger.isLevelEnabled("debug") ? debug : undefined;
    const started = performance.now();
    const logLine = (label: string) => {
      metrics.http.observeWhenDone(res, method, label, started);
      if (write !== undefined)
        logWhenDone(res, () => write(requestLine(method, label, res.statusCode, started), "request"));
    };
    if (fast !== undefined) {
      Promise.resolve(fast(req, res, services)).then(
        () => logLine(pathname),
        (cause: unknown) => fail(res, method, pathname, started, cause),
      );
      return;
    }
    route(req, res, method, pathname).then(logLine, (cause: unknown) =>
      fail(res, method, "(error)", started, cause),
    );
  };
}
/** Procedure calls one batched tRPC request may carry; more is 400 `BAD_REQUEST`. */
export const MAX_BATCH_SIZE = 10;

const FETCH_FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

/** Batched tRPC verify (`/trpc/keys.verify?batch=1`) is a hot path too. */
const QUIET_TRPC_PATH = "/trpc/keys.verify";

function requestLine(method: string, route: string, status: number, started: number) {
  return { method, route, status, durationMs: Math.round((performance.now() - started) * 10) / 10 };
}

function logWhenDone(res: ServerResponse, log: () => void): void {
  if (res.writableFinished) log();
  else res.once("finish", log);
}
