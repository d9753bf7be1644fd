import { Server } from "node:http";
import { answerClientError } from "@keyport/errors";
import { type H3, serve } from "h3";

/** h3's `serve()` options (srvx), less the fetch handler the app supplies. */
export type ServeOptions = NonNullable<Parameters<typeof serve>[1]>;

/**
 * Serves `app` on node:http through h3's `serve()`, with malformed requests and oversized headers
 * answered in the JSON error envelope (see `answerClientError`) instead of Node's bare status line.
 * @example const server = serveApp(createApp(env), { port: 3001 }); await server.ready();
 */
export function serveApp(app: H3, options: ServeOptions): ReturnType<typeof serve> {
  const server = serve(app, options);
  // srvx creates the node server in its constructor, before listening, so no request can slip past.
  const nodeServer = server.node?.server;
  if (nodeServer instanceof Server) nodeServer.on("clientError", answerClientError);
  return server;
}
