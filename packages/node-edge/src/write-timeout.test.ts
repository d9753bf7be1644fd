import { createServer, type Server } from "node:http";
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { applyWriteTimeout } from "./write-timeout.js";

const BIG = Buffer.alloc(32 * 1024 * 1024, "x");

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return typeof address === "object" && address !== null ? address.port : 0;
}

/** Opens a connection, sends `GET path`, and resolves when the server closes it, with how long that took. */
function requestAndWatch(port: number, path: string, read: (socket: Socket) => void) {
  const socket = connect(port, "127.0.0.1");
  const started = performance.now();
  let received = 0;
  socket.on("data", (chunk: Buffer) => {
    received += chunk.length;
  });
  socket.on("error", () => {});
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  read(socket);
  const closed = new Promise<{ elapsedMs: number; received: number }>((resolve) =>
    socket.on("close", () => resolve({ elapsedMs: performance.now() - started, received })),
  );
  return { socket, closed };
}

/**
 * Resolves with how long the server's side of the next connection lived: what the write timeout
 * frees. A paused client does not look at its socket, so its own side may notice much later.
 */
function whenServerSocketCloses(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.once("connection", (socket) => {
      const started = performance.now();
      socket.on("close", () => resolve(performance.now() - started));
    }),
  );
}

describe("write timeout", () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it("destroys a connection whose client never reads a large answer, soon after the timeout", async () => {
    server = createServer((_req, res) => res.end(BIG));
    applyWriteTimeout(server, 500);
    const port = await listen(server);
    const serverClosed = whenServerSocketCloses(server);
    // Never reads: the kernel's buffers fill, then the rest waits in the socket.
    const { socket, closed } = requestAndWatch(port, "/big", (client) => client.pause());
    const elapsedMs = await serverClosed;
    expect(elapsedMs).toBeGreaterThanOrEqual(500);
    expect(elapsedMs).toBeLessThan(3_000);
    // A paused socket does not look at its connection: reading again finds it ended, the rest dropped.
    socket.resume();
    const { received } = await closed;
    expect(received).toBeLessThan(BIG.length);
  });

  it("never cuts a slow client that keeps reading, though its one 32 MiB write outlasts the timeout", async () => {
    server = createServer((_req, res) => res.end(BIG));
    applyWriteTimeout(server, 1_000);
    const port = await listen(server);
    const serverClosed = whenServerSocketCloses(server);
    // About 512 KiB every 100 ms: the kernel takes more of the pending write every few hundred ms.
    let reading: NodeJS.Timeout | undefined;
    let received = 0;
    requestAndWatch(port, "/big", (socket) => {
      socket.pause();
      let burstEnd = 0;
      socket.on("data", (chunk: Buffer) => {
        received += chunk.length;
        if (received >= burstEnd) socket.pause();
      });
      reading = setInterval(() => {
        burstEnd = received + 512 * 1024;
        socket.resume();
      }, 100);
    });
    const outcome = await Promise.race([
      serverClosed.then(() => "closed"),
      new Promise<string>((resolve) => setTimeout(() => resolve("open"), 3_000)),
    ]);
    clearInterval(reading);
    expect(outcome).toBe("open");
    // Still short of the end: the one write was pending the whole time.
    expect(received).toBeGreaterThan(2 * 1024 * 1024);
    expect(received).toBeLessThan(BIG.length);
  });

  it("leaves alone an answer that writes nothing while it waits longer than the timeout", async () => {
    server = createServer((_req, res) => {
      setTimeout(() => res.end("settled"), 1_500);
    });
    applyWriteTimeout(server, 300);
    const port = await listen(server);
    let text = "";
    const { socket } = requestAndWatch(port, "/wait", (client) =>
      client.on("data", (chunk: Buffer) => {
        text += chunk.toString();
      }),
    );
    await new Promise<void>((resolve) => socket.on("data", () => text.includes("settled") && resolve()));
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    socket.destroy();
  });
});
