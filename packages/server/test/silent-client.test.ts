import type { Socket } from "node:net";
import {
  openSilentClient,
  type SilentClient,
  type SilentClientBytes,
} from "@keyport/test-support/silent-client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../src/app.js";
import type { Database } from "../src/db/database.js";
import { parseEnv } from "../src/env.js";
import { openTestPglite } from "./support/databases.js";

// A slow client that is answered 408 and then neither reads nor closes must not keep its socket: the
// server destroys it once the answer is flushed, at most 1 s later (docs/decisions.md, "The server's HTTP edge").
const SHORT = {
  headersTimeout: 300,
  requestTimeout: 600,
  keepAliveTimeout: 1_000,
  connectionsCheckingInterval: 25,
};

describe("a client that never reads after a client error", () => {
  let database: Database;
  let app: App;
  let port: number;

  beforeAll(async () => {
    database = await openTestPglite();
    app = await createApp(parseEnv({ DATABASE_URL: "memory:", LOG_LEVEL: "silent" }), {
      database,
      httpTimeouts: SHORT,
    });
    port = await app.listen(0, "127.0.0.1");
  });
  const opened: Socket[] = [];
  const open = (bytes: SilentClientBytes): SilentClient => {
    const client = openSilentClient(app.server, port, bytes);
    opened.push(client.socket);
    return client;
  };
  // A failing test must not leave its connection to the next one's count.
  afterEach(() => {
    for (const socket of opened.splice(0)) socket.destroy();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it("loses its connection within 1 s of the 408, which it can still read", async () => {
    // Drips part of a header for 220 ms, then goes silent: the 408 comes at headersTimeout.
    const client = open({ head: "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n", drip: "X-Slow: abc" });
    const closedAfterMs = await client.serverClosed;
    // headersTimeout (300 ms) plus the check interval, then at most 1 s for the answer to flush.
    expect(closedAfterMs).toBeLessThan(SHORT.headersTimeout + 1_000);
    expect(await client.readAll()).toMatch(/^HTTP\/1\.1 408 [\s\S]*"code":"TIMEOUT"/);
  });

  it("loses its connection within 1 s when its receive window is full of an answer it never reads", async () => {
    // The 4 MiB API reference script cannot fit in the kernel's buffers of a client that never reads;
    // the next request then times out while the server still holds unsent bytes of that answer.
    const client = open({
      head: "GET /docs/scalar.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /healthz HTTP/1.1\r\n",
      drip: "Host: 127.0.0.1\r\n",
    });
    expect(await client.serverClosed).toBeLessThan(SHORT.headersTimeout + 1_000);
  });
});
