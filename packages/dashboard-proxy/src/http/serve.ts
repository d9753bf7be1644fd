import { Server } from "node:http";
import { answerClientError } from "@keyport/errors";
import { applyWriteTimeout, WRITE_TIMEOUT_MS } from "@keyport/node-edge";
import { type H3, serve } from "h3";

/** h3's `serve()` options (srvx), less the fetch handler the app supplies. */
export type ServeOptions = NonNullable<Parameters<typeof serve>[1]>;

/**
 * How long the node server waits on a client (ms), so a slow or silent one cannot hold a connection
 * (Node's defaults: 60 s for headers, 300 s for a request). `requestTimeout` bounds receiving the
 * request only: a streamed answer (chat) runs as long as it needs once the request is in. Node
 * checks the first two every `connectionsCheckingInterval` (30 s by default, which would let a slow
 * client stay up to 40 s). A client that runs out of time gets a 408 envelope (`answerClientError`).
 */
export const SERVER_TIMEOUTS = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
  connectionsCheckingInterval: 1_000,
} as const;

/**
 * Serves `app` on node:http through h3's `serve()`, with `SERVER_TIMEOUTS` (which `options.node`
 * may override, as tests do to stay fast), and malformed requests, oversized headers and timed-out
 * clients answered in the JSON error envelope (see `answerClientError`) instead of Node's bare
 * status line. A connection whose client leaves bytes unread for `writeTimeoutMs` (20 s) with no
 * progress is reset, whatever the route (`applyWriteTimeout`); tests pass a short one.
 * @example const server = serveApp(createApp(env), { port: 3001 }); await server.ready();
 */
export function serveApp(
  app: H3,
  options: ServeOptions,
  writeTimeoutMs: number = WRITE_TIMEOUT_MS,
): ReturnType<typeof serve> {
  const server = serve(app, { ...options, node: { ...SERVER_TIMEOUTS, ...options.node } });
  // srvx creates the node server in its constructor, before listening, so no request can slip past.
  const nodeServer = server.node?.server;
  if (nodeServer instanceof Server) {
    nodeServer.on("clientError", answerClientError);
    applyWriteTimeout(nodeServer, writeTimeoutMs);
  }
  return server;
}
