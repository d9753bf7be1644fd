import type { IncomingMessage, RequestListener, Server, ServerResponse } from "node:http";
import { Server as NetServer, type Socket } from "node:net";

/** Stops a server without losing an answer it already gave: see {@link createGracefulShutdown}. */
export interface GracefulShutdown {
  /**
   * Stops accepting, lets in-flight requests finish and answers them with `Connection: close`,
   * ends idle keep-alive sockets, and resolves once every connection is closed. After `timeoutMs`
   * the connections still open are destroyed. Later calls return the first call's promise.
   */
  close(timeoutMs: number): Promise<void>;
}

/**
 * Serves `handler` on `server` (register no other `request` listener) and tracks its sockets so
 * that shutting down never drops an answered request. Node's own `server.close()` (which in
 * Node >= 19 runs `closeIdleConnections()`) and `closeIdleConnections()` `destroy()` every socket
 * not mid-request, including one whose last answer is `end()`ed but not yet flushed and one whose
 * next request is already on the wire unread, which turns the close into a reset that can take the
 * answer with it. Here idle sockets are `end()`ed instead (pending bytes first, then FIN), answers
 * during shutdown carry `Connection: close` (Node then ends the socket after the answer is
 * flushed), and a request read on a socket already ended is never handed to `handler`, so nothing
 * is counted that the client cannot hear.
 * @example
 * const server = createServer({ keepAliveTimeout: 5_000 });
 * const shutdown = createGracefulShutdown(server, handler);
 * await shutdown.close(10_000);
 */
export function createGracefulShutdown(server: Server, handler: RequestListener): GracefulShutdown {
  /**
   * Open sockets, each with its latest response. A request costs one map lookup and no listener:
   * a socket's answers go out in order, so the latest one finished means the socket is idle, and
   * what is unfinished at shutdown is only looked at then.
   */
  const sockets = new Map<Socket, SocketState>();
  let closing = false;
  let closed: Promise<void> | undefined;

  const end = (socket: Socket, state: SocketState | undefined) => {
    if (state !== undefined) state.ended = true;
    // end(), not destroy(): written bytes are flushed, then FIN. The socket keeps reading, so a
    // request the client sent meanwhile is read (and ignored) rather than left unread, which
    // would make the kernel answer our close with a reset.
    socket.end();
  };

  // At shutdown: an idle socket ends now; one still answering ends after its latest answer.
  const endWhenIdle = (socket: Socket, state: SocketState) => {
    const last = state.last;
    if (last === undefined || last.writableFinished) {
      end(socket, state);
      return;
    }
    if (!last.headersSent) {
      // Node ends the socket itself once this answer (the socket's last, so nothing is cut) is out.
      last.shouldKeepAlive = false;
      return;
    }
    // Already promised keep-alive: end the socket once this answer has gone, unless a newer
    // request came meanwhile (it answers with Connection: close, and Node ends the socket then).
    last.once("close", () => {
      if (state.last === last) end(socket, state);
    });
  };

  server.on("connection", (socket: Socket) => {
    const state: SocketState = { last: undefined, ended: false };
    sockets.set(socket, state);
    socket.once("close", () => sockets.delete(socket));
    if (closing) end(socket, state);
  });

  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const state = sockets.get(req.socket);
    // We already said goodbye on this socket: the client will see it closed without an answer
    // and can tell the request went unanswered. Running the handler would count it anyway.
    if (state?.ended === true) {
      req.resume();
      return;
    }
    if (state !== undefined) state.last = res;
    if (closing) res.shouldKeepAlive = false;
    handler(req, res);
  });

  return {
    close: (timeoutMs) =>
      (closed ??= new Promise((resolve) => {
        closing = true;
        // The hard bound: whatever still hangs (a slow handler, a client that never closes) goes.
        const timer = setTimeout(() => {
          for (const socket of sockets.keys()) socket.destroy();
        }, timeoutMs);
        // net.Server's close, not http.Server's: stop listening and wait for every connection to
        // close, without http's closeIdleConnections() destroying sockets under unflushed answers.
        // (http's unref'd connection-check interval is left running; it holds nothing open.)
        NetServer.prototype.close.call(server, () => {
          clearTimeout(timer);
          resolve();
        });
        for (const [socket, state] of sockets) endWhenIdle(socket, state);
      })),
  };
}

interface SocketState {
  /** The response to the latest request read on the socket; undefined before the first. */
  last: ServerResponse | undefined;
  /** We sent FIN: a request read from the socket now could not be answered. */
  ended: boolean;
}
