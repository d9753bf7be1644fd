import { createMetricsAccess } from "@keyport/node-edge";
import type { EventHandler } from "h3";
import type { Registry } from "prom-client";
import { errorResponse } from "../http/errors.js";

/** Where the endpoint is registered: a real route, ahead of any HTML fallback the dashboard adds. */
export const METRICS_PATH = "/metrics";

/**
 * `GET /metrics`: the registry in Prometheus text format for the callers `createMetricsAccess`
 * allows; otherwise the error envelope, 401 (with `WWW-Authenticate`) when a token is set, 403
 * in loopback mode, naming the rule so an operator behind a proxy sees what to change.
 */
export function createMetricsEndpoint(registry: Registry, token: string | undefined): EventHandler {
  const access = createMetricsAccess(token);
  return async (event) => {
    // The peer is the socket's (srvx's node request), never an address read from a header.
    const verdict = access({
      peer: event.runtime?.node?.req.socket.remoteAddress,
      header: (name) => event.req.headers.get(name),
    });
    if (verdict === "unauthorized") {
      return errorResponse({
        code: "UNAUTHORIZED",
        message: "Metrics need Authorization: Bearer <METRICS_TOKEN>",
        headers: { "www-authenticate": 'Bearer realm="metrics"', "cache-control": "no-store" },
      });
    }
    if (verdict === "forbidden") {
      return errorResponse({
        code: "FORBIDDEN",
        message:
          "Metrics are served to loopback callers without a proxy header; set METRICS_TOKEN to scrape from elsewhere",
        headers: { "cache-control": "no-store" },
      });
    }
    return new Response(await registry.metrics(), {
      headers: { "content-type": registry.contentType, "cache-control": "no-store" },
    });
  };
}
