import type { IncomingMessage, ServerResponse } from "node:http";
import { acceptRequestId, errorBody, REQUEST_ID_HEADER } from "@keyport/errors";
import { TRPCError } from "@trpc/server";
import type { OpenAPIObject } from "trpc-to-openapi";
import { createContext, type Services } from "../context.js";
import { REQUEST_DEADLINE_MS, withDeadline } from "../deadline.js";
import { errorSummary } from "../logger.js";
import { createMetricsEndpoint, METRICS_PATH } from "../metrics/endpoint.js";
import type { ServerMetrics } from "../metrics/server-metrics.js";
import { trpcRouteLabel } from "../metrics/trpc-route.js";
import { type AppRouter, createAppCaller } from "../routers/_app.js";
import { bodyTooLargeMessage, declaresTooLargeBody, MAX_BODY_BYTES, RequestAbortedError } from "./body.js";
import { createDocsPages, DOCS_SCRIPT_PATH } from "./docs.js";
import { sendError, sendJson } from "./errors.js";
import type { FastRoute } from "./fast-route.js";
import { isListRoute, listOwnKeys } from "./list-route.js";
import type { RawRoute } from "./raw-route.js";
import { type CompiledRestRoute, callRestRoute, matchRestRoute } from "./rest.js";
import { createTrpcHandler } from "./trpc-handler.js";
import { answered, createTrpcVerify } from "./trpc-verify.js";

export interface RequestHandlerOptions {
  router: AppRouter;
  services: Services;
  restRoutes: readonly CompiledRestRoute[];
  openApiDocument: OpenAPIObject;
  /** Keyed by `"POST /api-keys/verify"`: exact method and path; a URL with a query never matches. */
  fastRoutes: ReadonlyMap<string, FastRoute>;
  /** Keyed by `"POST /leaks/github"`: exact method and path (any query); they read their own bodies. */
  rawRoutes?: ReadonlyMap<string, RawRoute>;
  /** Where requests are counted and timed; also served at `GET /metrics`. */
  metrics: ServerMetrics;
}

/**
 * The whole HTTP surface as one node request listener: fast routes, /trpc, /healthz, /openapi.json,
 * /docs, the raw routes (leak reports), then the REST routes; HEAD on a GET route answers as GET without
 * the body (node drops it). A declared body over `MAX_BODY_BYTES` (a raw route's own limit there) is
 * 413 before a byte is read. Every answer carries
 * `X-Request-Id` (the caller's when valid, else a fresh one). Logs one line per request
 * (method, route, status, reqId, duration), never a body: at info, except fast routes and unbatched tRPC
 * verify, which log at debug, and a passing `/healthz`, also at debug; a client that leaves before its
 * answer is one info line, "request aborted".
 */
export function createRequestHandler(options: RequestHandlerOptions) {
  const { services, restRoutes, router, metrics } = options;
  const rawRoutes: ReadonlyMap<string, RawRoute> = options.rawRoutes ?? new Map();
  const serveMetrics = createMetricsEndpoint(metrics.registry, services.env.METRICS_TOKEN);
  const openApiJson = JSON.stringify(options.openApiDocument);
  const docs = createDocsPages();
  const trpc = createTrpcHandler(router, services);
  const trpcVerify = createTrpcVerify(router, services, trpc);
  // An unbatched tRPC verification is a fast route too; what the fast path does not take is tRPC's.
  const fastRoutes = new Map(options.fastRoutes).set(`POST ${QUIET_TRPC_PATH}`, (req, res, _, requestId) => {
    const verifying = trpcVerify(req, res, requestId);
    if (verifying !== null) return verifying;
    // tRPC's adapter and errors read the id from the response (request-id.ts).
    res.setHeader(REQUEST_ID_HEADER, requestId);
    trpc(req, res);
    return answered(res);
  });

  async function route(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    pathname: string,
    requestId: string,
  ): Promise<string> {
    if (isTrpcPath(pathname)) {
      // tRPC's adapter builds a fetch Request, which throws (a 500) on these methods: refuse them first.
      if (FETCH_FORBIDDEN_METHODS.has(method)) {
        sendJson(res, 405, { code: "METHOD_NOT_SUPPORTED", message: "tRPC takes GET and POST" });
        return "/trpc";
      }
      if (trpcVerify(req, res, requestId) === null) trpc(req, res);
      return trpcRouteLabel(pathname);
    }
    // HEAD is GET without the body: node:http drops whatever a HEAD response writes.
    const getLike = method === "GET" || method === "HEAD";
    if (getLike && pathname === METRICS_PATH) {
      await serveMetrics(req, res);
      return METRICS_PATH;
    }
    if (getLike && pathname === "/healthz") {
      // A health check answers within the request deadline too: a database that does not answer is down.
      const healthy = await withDeadline(REQUEST_DEADLINE_MS, () => services.database.ping()).then(
        () => true,
        () => false,
      );
      sendJson(
        res,
        healthy ? 200 : 503,
        healthy
          ? { ok: true }
          : { ok: false, code: "SERVICE_UNAVAILABLE", message: "Database unreachable", requestId },
      );
      return pathname;
    }
    if (getLike && pathname === "/openapi.json") {
      res.writeHead(200, {
        "content-type": "application/json; charset=utf-8",
        "content-length": Buffer.byteLength(openApiJson),
      });
      res.end(openApiJson);
      return pathname;
    }
    if (getLike && pathname === "/docs") {
      docs.sendPage(res);
      return pathname;
    }
    if (getLike && pathname === DOCS_SCRIPT_PATH) {
      await docs.sendScript(res, req.headers["accept-encoding"]);
      return pathname;
    }
    const raw = rawRoutes.get(`${method} ${pathname}`);
    if (raw !== undefined) {
      try {
        await raw.handle(req, res, requestId);
      } catch (cause) {
        if (cause instanceof RequestAbortedError) return pathname;
        if (!(cause instanceof TRPCError) || cause.code === "INTERNAL_SERVER_ERROR") {
          services.logger.error(
            { err: errorSummary(cause), route: pathname, reqId: requestId },
            "route failed",
          );
        }
        if (!res.headersSent) sendError(res, cause);
      }
      return pathname;
    }
    const match = matchRestRoute(restRoutes, method === "HEAD" ? "GET" : method, pathname);
    if (!match) {
      // The path is not echoed: a caller may have put a secret in it.
      sendJson(res, 404, { code: "NOT_FOUND", message: "No such route" });
      return "(unmatched)";
    }
    const label = match.compiled.route.path;
    try {
      const url = new URL(req.url ?? "/", "http://localhost");
      const { compiled, params } = match;
      // A wallet listing its own keys skips tRPC; every other case (and every refusal) takes it.
      let data: unknown = isListRoute(compiled.route)
        ? await listOwnKeys(compiled, req, url, params, services.procedures)
        : null;
      if (data === null) {
        const ctx = createContext(services, req, res, requestId);
        data = await callRestRoute(compiled, req, url, params, ctx, createAppCaller(ctx));
      }
      const { successStatus, cacheControl } = match.compiled.route;
      sendJson(
        res,
        successStatus,
        data,
        cacheControl === undefined ? undefined : { "cache-control": cacheControl },
      );
    } catch (cause) {
      // The client left mid-body: nobody to answer; the close listener logs it.
      if (cause instanceof RequestAbortedError) return label;
      if (!(cause instanceof TRPCError) || cause.code === "INTERNAL_SERVER_ERROR") {
        const err = cause instanceof TRPCError ? (cause.cause ?? cause) : cause;
        services.logger.error({ err: errorSummary(err), route: label, reqId: requestId }, "procedure failed");
      }
      if (!res.headersSent) sendError(res, cause);
    }
    return label;
  }

  const { logger } = services;
  const info = logger.info.bind(logger);
  const debug = logger.debug.bind(logger);

  function fail(
    res: ServerResponse,
    method: string,
    label: string,
    requestId: string,
    started: number,
    cause: unknown,
  ): void {
    logger.error({ err: errorSummary(cause), method, reqId: requestId }, "request handler failed");
    if (!res.headersSent) {
      res.setHeader(REQUEST_ID_HEADER, requestId);
      sendError(res, cause);
    }
    metrics.http.observeWhenDone(res, method, label, started);
  }

  return (req: IncomingMessage, res: ServerResponse): void => {
    const requestId = acceptRequestId(req.headers[REQUEST_ID_HEADER]);
    const method = req.method ?? "GET";
    const raw = req.url ?? "/";
    const query = raw.indexOf("?");
    const pathname = query === -1 ? raw : raw.slice(0, query);
    const routeKey = `${method} ${pathname}`;
    // Only an exact URL: `/trpc/keys.verify?batch=1` is tRPC's business.
    const fast = query === -1 ? fastRoutes.get(routeKey) : undefined;
    // Set first, so every answer carries it whoever writes it (tRPC's adapter, docs, metrics,
    // errors); a fast route writes it itself (fast-route.ts).
    if (fast === undefined) res.setHeader(REQUEST_ID_HEADER, requestId);
    // Hot paths log at debug (their failures still log at error), so at the default
    // LOG_LEVEL=info a verification costs no log line, no timer and no listener.
    const quiet = fast !== undefined || pathname === QUIET_TRPC_PATH;
    const write = !quiet ? info : logger.isLevelEnabled("debug") ? debug : undefined;
    const started = performance.now();
    // Counted once answered; a request whose client left is not counted at all (no status to count).
    const answered = (label: string) => {
      metrics.http.observeWhenDone(res, method, label, started);
      return label;
    };
    const failed = (label: string) => (cause: unknown) => {
      fail(res, method, label, requestId, started, cause);
      return label;
    };
    let routed: Promise<string>;
    const maxBodyBytes = rawRoutes.get(routeKey)?.maxBodyBytes ?? MAX_BODY_BYTES;
    if (declaresTooLargeBody(req, maxBodyBytes) && !isTrpcPath(pathname)) {
      // Refused before a byte of the body is read; the connection closes rather than drain the body.
      const message = bodyTooLargeMessage(maxBodyBytes);
      if (fast !== undefined) res.setHeader(REQUEST_ID_HEADER, requestId);
      sendJson(res, 413, errorBody("PAYLOAD_TOO_LARGE", message), { connection: "close" });
      routed = Promise.resolve(answered(fast !== undefined ? pathname : "(too large)"));
    } else if (fast !== undefined) {
      // At info a verification costs no listener: a fast route that returns unanswered lost its client.
      const listened = write !== undefined;
      routed = Promise.resolve(fast(req, res, services, requestId)).then(() => {
        if (!listened && !res.writableEnded) info(abortLine(method, pathname, requestId, started), ABORTED);
        return answered(pathname);
      }, failed(pathname));
      if (!listened) return;
    } else {
      routed = route(req, res, method, pathname, requestId).then(answered, failed("(error)"));
    }
    res.once("close", () => {
      const finished = res.writableFinished;
      const ended = performance.now();
      routed.then((label) => {
        if (!finished) info(abortLine(method, label, requestId, started, ended), ABORTED);
        else if (label === "/healthz" && res.statusCode < 300) {
          // A passing health check is polled (the launcher, load balancers): debug, not a line a second.
          debug(requestLine(method, label, res.statusCode, requestId, started, ended), "request");
        } else write?.(requestLine(method, label, res.statusCode, requestId, started, ended), "request");
      });
    });
  };
}
export { MAX_BATCH_SIZE } from "./trpc-handler.js";

const FETCH_FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

/** Batched tRPC verify (`/trpc/keys.verify?batch=1`) is a hot path too. */
const QUIET_TRPC_PATH = "/trpc/keys.verify";

function requestLine(
  method: string,
  route: string,
  status: number,
  reqId: string,
  started: number,
  ended: number,
) {
  return { method, route, status, reqId, durationMs: Math.round((ended - started) * 10) / 10 };
}

/** Logged at info when the client leaves before its answer: neither an error nor a 5xx. */
const ABORTED = "request aborted";

function abortLine(method: string, route: string, reqId: string, started: number, ended = performance.now()) {
  return { method, route, reqId, durationMs: Math.round((ended - started) * 10) / 10 };
}

function isTrpcPath(pathname: string): boolean {
  return pathname === "/trpc" || pathname.startsWith("/trpc/");
}
