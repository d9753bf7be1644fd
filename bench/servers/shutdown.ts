import type { Server } from "node:http";

/** Exits 0 on SIGTERM/SIGINT after closing `server`, so `--cpu-prof` gets to write its profile. */
export function exitOnSignal(close: () => Promise<void> | void): void {
  const stop = () => {
    Promise.resolve(close()).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

/** Closes a node:http server, dropping idle keep-alive sockets so close() does not wait on them. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** The PORT setting every bench server reads. */
export function portFromEnv(): number {
  const port = Number(process.env.PORT);
  if (!Number.isInteger(port) || port <= 0) throw new Error("PORT must be set to a port number");
  return port;
}
