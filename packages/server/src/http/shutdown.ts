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
  /** Open sockets, with how many of their requests still await the end of their answer. */
  const sockets = new Map<Socket, number>();
  /** Sockets we sent FIN on: a request read from them could not be answered. */
  const ended = new WeakSet<Socket>();
  /** Answers in progress, to switch them to `Connection: close` once shutdown begins. */
  const responses = new Set<ServerResponse>();
  let closing = false;
  let closed: Promise<void> | undefined;

  const end = (socket: Socket) => {
    ended.add(socket);
    // end(), not destroy(): written bytes are flushed, then FIN. The socket keeps reading, so a
    // request the client sent meanwhile is read (and ignored) rather than left unread, which
    // would make the kernel answer our close with a reset.
    socket.end();
  };

  server.on("connection", (socket: Socket) => {
    sockets.set(socket, 0);
    socket.once("close", () => sockets.delete(socket));
    if (closing) end(socket);
  });

  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const { socket } = req;
    // We already said goodbye on this socket: the client will see it closed without an answer
    // and can tell the request went unanswered. Running the handler would count it anyway.
    if (ended.has(socket)) {
      req.resume();
      return;
    }
    if (closing) res.shouldKeepAlive = false;
    sockets.set(socket, (sockets.get(socket) ?? 0) + 1);
    responses.add(res);
    // 'close' follows 'finish' (the answer handed to the OS) or an aborted connection.
    res.once("close", () => {
      responses.delete(res);
      const pending = sockets.get(socket);
      if (pending === undefined) return;
      sockets.set(socket, pending - 1);
      // An answer that started before shutdown went out keep-alive: end its socket now it is idle.
      if (closing && pending === 1) end(socket);
    });
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
        for (const res of responses) if (!res.headersSent) res.shouldKeepAlive = false;
        for (const [socket, pending] of sockets) if (pending === 0) end(socket);
      })),
  };
}
