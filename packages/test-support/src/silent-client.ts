import type { Server } from "node:http";
import { connect, type Socket } from "node:net";

/** A connection that sent some bytes and then neither reads nor closes, as a slowloris attacker does. */
export interface SilentClient {
  /** Resolves with the ms from connecting until the server held no connection any more. */
  serverClosed: Promise<number>;
  /** Starts reading and resolves with everything the server sent once its close arrives. */
  readAll(): Promise<string>;
  socket: Socket;
}

/** What a silent client sends: `head` at once, then `drip` one byte every `dripMs` (20 ms). */
export interface SilentClientBytes {
  head?: string;
  drip: string;
  dripMs?: number;
}

/**
 * Connects to `server` (listening on 127.0.0.1:`port`), writes `head`, drips `drip` a byte at a
 * time as a slowloris attacker does, and then goes silent: it never reads (the socket is paused, so
 * whatever the server sends stays in the kernel) and never closes. Watches
 * `server.getConnections()` every 10 ms (from the accept on, so the server should serve only this
 * client); `serverClosed` rejects after `giveUpMs`.
 * @example const client = openSilentClient(server, port, { drip: "GET / HTTP/1.1\r\nHost: x\r\n" })
 */
export function openSilentClient(
  server: Server,
  port: number,
  bytes: SilentClientBytes,
  giveUpMs = 5_000,
): SilentClient {
  const started = performance.now();
  let dripped = 0;
  let dripping: NodeJS.Timeout | undefined;
  const socket = connect({ port, host: "127.0.0.1" }, () => {
    if (bytes.head !== undefined) socket.write(bytes.head);
    dripping = setInterval(() => {
      if (dripped >= bytes.drip.length || socket.destroyed) return clearInterval(dripping);
      socket.write(bytes.drip.charAt(dripped));
      dripped += 1;
    }, bytes.dripMs ?? 20);
  });
  socket.on("close", () => clearInterval(dripping));
  socket.pause();
  // The server may reset a connection it destroys while our bytes are unread: not a test failure.
  socket.on("error", () => {});
  const serverClosed = new Promise<number>((resolve, reject) => {
    let accepted = false;
    const poll = setInterval(() => {
      server.getConnections((error, count) => {
        if (error) return reject(error);
        const elapsed = performance.now() - started;
        if (count > 0) accepted = true;
        if (accepted && count === 0) {
          clearInterval(poll);
          resolve(elapsed);
        } else if (elapsed > giveUpMs) {
          clearInterval(poll);
          reject(new Error(`the server still held the connection after ${Math.round(elapsed)} ms`));
        }
      });
    }, 10);
  });
  const readAll = () =>
    new Promise<string>((resolve) => {
      const chunks: Buffer[] = [];
      socket.on("data", (chunk: Buffer) => chunks.push(chunk));
      socket.on("close", () => resolve(Buffer.concat(chunks).toString("latin1")));
      socket.resume();
    });
  return { serverClosed, readAll, socket };
}
