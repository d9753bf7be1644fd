import { connect, createServer, type Socket } from "node:net";
import { portOf } from "@keyport/test-support/port";

/** A TCP proxy in front of a Redis that can lose a command's reply the way a crash does. */
export interface ReplyCutter {
  /** e.g. `redis://127.0.0.1:41234`, for REDIS_URL. */
  url: string;
  /**
   * Arms the proxy: the next client write holding `marker` reaches Redis, Redis runs it, and then the
   * connection is cut before its reply (and any other reply in that read) reaches the client. Resolves
   * once the cut is done.
   */
  cutAfter(marker: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts a proxy on a loopback port forwarding every connection to `redisPort`.
 * @example const cutter = await startReplyCutter(redis.port); const cut = cutter.cutAfter(sha); ...; await cut;
 */
export async function startReplyCutter(redisPort: number): Promise<ReplyCutter> {
  const sockets = new Set<Socket>();
  let armed: { marker: string; done: () => void } | undefined;
  const server = createServer((client) => {
    const upstream = connect({ host: "127.0.0.1", port: redisPort });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => undefined);
    }
    let cutting: (() => void) | undefined;
    client.on("data", (chunk: Buffer) => {
      if (armed && chunk.includes(armed.marker)) {
        cutting = armed.done;
        armed = undefined;
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      if (cutting === undefined) {
        client.write(chunk);
        return;
      }
      // Redis has run the command and answered: the answer is lost with the connection.
      const done = cutting;
      cutting = undefined;
      client.destroy();
      upstream.destroy();
      done();
    });
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `redis://127.0.0.1:${portOf(server.address())}`,
    cutAfter: (marker) =>
      new Promise<void>((resolve) => {
        armed = { marker, done: resolve };
      }),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
