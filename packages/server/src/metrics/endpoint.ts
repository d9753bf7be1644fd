import type { IncomingMessage, ServerResponse } from "node:http";
import { createMetricsAccess } from "@keyport/node-edge";
import type { Registry } from "prom-client";
import { sendJson } from "../http/errors.js";

/** The metrics label and path of the endpoint. */
export const METRICS_PATH = "/metrics";

/**
 * `GET /metrics`: the registry in Prometheus text format, for the callers `createMetricsAccess`
 * allows. A refusal is the error envelope: 401 (with `WWW-Authenticate`) when a token is set,
 * 403 in loopback mode, which names the rule so an operator behind a proxy sees what to change.
 */
export function createMetricsEndpoint(registry: Registry, token: string | undefined) {
  const access = createMetricsAccess(token);
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const verdict = access({ peer: req.socket.remoteAddress, header: (name) => headerValue(req, name) });
    if (verdict === "unauthorized") {
      sendJson(
        res,
        401,
        { code: "UNAUTHORIZED", message: "Metrics need Authorization: Bearer <METRICS_TOKEN>" },
        { "www-authenticate": 'Bearer realm="metrics"', "cache-control": "no-store" },
      );
      return;
    }
    if (verdict === "forbidden") {
      sendJson(
        res,
        403,
        {
          code: "FORBIDDEN",
          message:
            "Metrics are served to loopback callers without a proxy header; set METRICS_TOKEN to scrape from elsewhere",
        },
        { "cache-control": "no-store" },
      );
      return;
    }
    const text = await registry.metrics();
    res.writeHead(200, { "content-type": registry.contentType, "cache-control": "no-store" });
    res.end(text);
  };
}

/** A header's value; node lists a repeated one, which counts as present all the same. */
function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}
