import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../src/app.js";
import type { Database } from "../src/db/database.js";
import { parseEnv } from "../src/env.js";
import { openTestPglite } from "./support/databases.js";

// The write timeout shortened to 500 ms (20 s in production; test/slow-clients.test.ts runs the real
// one against 100 clients). docs/decisions.md#the-servers-http-edge.
const WRITE_TIMEOUT_MS = 500;

/** How many connections the server holds open. */
function openConnections(app: App): Promise<number> {
  return new Promise((resolve, reject) =>
    app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );
}

/** Sends one request on a raw socket that never reads what comes back. */
function neverRead(port: number, path: string): Socket {
  const socket = connect(port, "127.0.0.1");
  socket.on("error", () => {});
  socket.pause();
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  return socket;
}

describe("a client that never reads", () => {
  let database: Database;
  let app: App;
  let port: number;

  beforeAll(async () => {
    database = await openTestPglite();
    app = await createApp(parseEnv({ DATABASE_URL: "memory:", LOG_LEVEL: "silent" }), {
      database,
      writeTimeoutMs: WRITE_TIMEOUT_MS,
      // An answer that writes nothing while it waits (as a top-up waits on the chain), then answers.
      fastRoutes: new Map([
        [
          "GET /test/wait",
          (_req, res) =>
            void setTimeout(() => res.writeHead(200, { "content-type": "text/plain" }).end("settled"), 1_500),
        ],
      ]),
    });
    port = await app.listen(0, "127.0.0.1");
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it("loses its connection to the 4 MB /docs/scalar.js soon after the write timeout", async () => {
    const started = performance.now();
    const socket = neverRead(port, "/docs/scalar.js");
    await expect.poll(() => openConnections(app), { interval: 5 }).toBe(1);
    await expect.poll(() => openConnections(app), { timeout: 10_000, interval: 50 }).toBe(0);
    const elapsedMs = performance.now() - started;
    expect(elapsedMs).toBeGreaterThanOrEqual(WRITE_TIMEOUT_MS);
    // The keep-alive timeout (5 s) would close a connection whose answer was all sent: this is sooner.
    expect(elapsedMs).toBeLessThan(4_000);
    socket.destroy();
  });

  it("keeps an answer that writes nothing for three times the write timeout", async () => {
    const response = await fetch(`http://127.0.0.1:${port}/test/wait`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("settled");
  });
});
