import { createServer, type Server } from "node:http";
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createGracefulShutdown, type GracefulShutdown } from "./shutdown.js";

// More than the loopback socket buffers of both ends hold, so most of it waits in the server's.
const BIG = 32 * 1024 * 1024;

/** A raw TCP client: everything it received, and how the connection ended. */
interface RawClient {
  socket: Socket;
  received(): string;
  /** Resolves with the socket's error code, or "end" when the server closed it cleanly (FIN). */
  ended: Promise<string>;
  /** Resolves once `text` has been received. */
  waitFor(text: string): Promise<void>;
}

function rawClient(port: number): RawClient {
  const socket = connect(port, "127.0.0.1");
  let data = "";
  const waiters: Array<() => void> = [];
  socket.on("data", (chunk: Buffer) => {
    data += chunk.toString("latin1");
    for (const wake of waiters.splice(0)) wake();
  });
  const ended = new Promise<string>((resolve) => {
    socket.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    socket.on("end", () => resolve("end"));
  });
  const waitFor = async (text: string) => {
    while (!data.includes(text)) await new Promise<void>((wake) => waiters.push(wake));
  };
  return { socket, received: () => data, ended, waitFor };
}

const get = (path: string) => `GET ${path} HTTP/1.1\r\nhost: test\r\n\r\n`;

describe("createGracefulShutdown", () => {
  let server: Server;
  let shutdown: GracefulShutdown;
  let handled: string[];
  let release: () => void = () => {};
  const released = () => new Promise<void>((resolve) => (release = resolve));

  const start = async () => {
    handled = [];
    server = createServer({ keepAliveTimeout: 5_000 });
    const slow = released();
    shutdown = createGracefulShutdown(server, (req, res) => {
      handled.push(req.url ?? "");
      if (req.url === "/big") {
        res.writeHead(200, { "content-length": BIG });
        res.end(Buffer.alloc(BIG, "x"));
      } else if (req.url === "/slow") {
        void slow.then(() => res.end("slow done"));
      } else if (req.url === "/fast") {
        res.end("fast done");
      } // "/never" is never answered.
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    if (typeof address !== "object" || address === null) throw new Error("not listening on TCP");
    return address.port;
  };

  afterEach(async () => {
    release();
    if (server.listening) await shutdown.close(1_000);
  });

  it("delivers an answer that was written but not yet flushed to a client reading it slowly", async () => {
    const port = await start();
    const client = rawClient(port);
    client.socket.write(get("/big"));
    await client.waitFor("\r\n\r\n");
    // The answer is end()ed on the server but most of it still sits in its buffers.
    client.socket.pause();
    const closed = shutdown.close(30_000);
    // close() ends or destroys sockets synchronously; one turn of the event loop lets a wrong destroy show.
    await new Promise((resolve) => setImmediate(resolve));
    client.socket.resume();
    expect(await client.ended).toBe("end");
    await closed;
    const body = client.received().split("\r\n\r\n")[1] ?? "";
    expect(body.length).toBe(BIG);
  });

  it("answers an in-flight request with Connection: close and ends an idle keep-alive socket cleanly", async () => {
    const port = await start();
    const busy = rawClient(port);
    const idle = rawClient(port);
    busy.socket.write(get("/slow"));
    idle.socket.write(get("/fast"));
    await idle.waitFor("fast done");
    expect(idle.received()).toMatch(/connection: keep-alive/i);
    await expect.poll(() => handled).toContain("/slow");

    const closed = shutdown.close(30_000);
    expect(await idle.ended).toBe("end");
    release();
    await busy.waitFor("slow done");
    expect(busy.received()).toMatch(/connection: close/i);
    expect(await busy.ended).toBe("end");
    await closed;
    // Stopped listening: a new connection is refused.
    expect(await rawClient(port).ended).toBe("ECONNREFUSED");
  });

  it("answers every pipelined request in flight at shutdown, then ends the socket", async () => {
    const port = await start();
    const client = rawClient(port);
    // Two requests in one write: the second is answered only after the first.
    client.socket.write(get("/slow") + get("/fast"));
    await expect.poll(() => handled).toEqual(["/slow", "/fast"]);
    const closed = shutdown.close(30_000);
    release();
    await client.waitFor("fast done");
    // Both answers arrive whole, in order, and only then does the socket end cleanly.
    expect(await client.ended).toBe("end");
    expect(client.received().match(/slow done|fast done/g)).toEqual(["slow done", "fast done"]);
    await closed;
  });

  it("never hands a request read on an already ended socket to the handler", async () => {
    const port = await start();
    const late = rawClient(port);
    late.socket.write(get("/fast"));
    await late.waitFor("fast done");
    const closed = shutdown.close(30_000);
    expect(await late.ended).toBe("end");
    const before = late.received();
    // Too late: the server said goodbye first. It reads this (no reset) but must not run it.
    late.socket.end(get("/fast"));
    await new Promise((resolve) => late.socket.once("close", resolve));
    await closed;
    expect(handled).toEqual(["/fast"]);
    expect(late.received()).toBe(before);
  });

  it("destroys connections still open at the deadline", async () => {
    const port = await start();
    const stuck = rawClient(port);
    stuck.socket.write(get("/never"));
    await expect.poll(() => handled).toContain("/never");
    const gone = new Promise((resolve) => stuck.socket.once("close", resolve));
    await shutdown.close(100);
    await gone;
    expect(stuck.received()).toBe("");
  });
});
