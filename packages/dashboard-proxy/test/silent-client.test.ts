import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Server } from "node:http";
import type { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  openSilentClient,
  type SilentClient,
  type SilentClientBytes,
} from "@keyport/test-support/silent-client";
import type { serve } from "h3";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type ServeOptions, serveApp } from "../src/http/serve.js";
import { createApp, parseEnv } from "../src/index.js";

// A slow client that is answered 408 and then neither reads nor closes must not keep its socket: the
// proxy destroys it once the answer is flushed, at most 1 s later (docs/decisions.md, "The server's HTTP edge").
const HEADERS_TIMEOUT_MS = 300;
const SHORT: NonNullable<ServeOptions["node"]> = {
  headersTimeout: HEADERS_TIMEOUT_MS,
  requestTimeout: 600,
  keepAliveTimeout: 200,
  connectionsCheckingInterval: 25,
};

describe("a client that never reads after a client error", () => {
  let root: string;
  let running: ReturnType<typeof serve>;
  let nodeServer: Server;
  let port: number;
  const opened: Socket[] = [];
  const open = (bytes: SilentClientBytes): SilentClient => {
    const client = openSilentClient(nodeServer, port, bytes);
    opened.push(client.socket);
    return client;
  };

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "keyport-silent-"));
    mkdirSync(join(root, "assets"));
    writeFileSync(join(root, "index.html"), "<!doctype html>");
    // More than a never-reading client's kernel buffers hold.
    writeFileSync(join(root, "assets", "big-abc123.js"), "x".repeat(8 * 1024 * 1024));
    const app = createApp(parseEnv({ DASHBOARD_DIR: root }), { logDestination: { write: () => {} } });
    running = serveApp(app, {
      port: 0,
      hostname: "127.0.0.1",
      silent: true,
      gracefulShutdown: false,
      node: SHORT,
    });
    await running.ready();
    const server = running.node?.server;
    if (!(server instanceof Server)) throw new Error("not a node:http server");
    nodeServer = server;
    port = Number(new URL(running.url ?? "").port);
  });
  // A failing test must not leave its connection to the next one's count.
  afterEach(() => {
    for (const socket of opened.splice(0)) socket.destroy();
  });
  afterAll(async () => {
    await running.close(true);
    rmSync(root, { recursive: true, force: true });
  });

  it("loses its connection within 1 s of the 408, which it can still read", async () => {
    // Drips part of a header for 220 ms, then goes silent: the 408 comes at headersTimeout.
    const client = open({ head: "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n", drip: "X-Slow: abc" });
    // headersTimeout (300 ms) plus the check interval, then at most 1 s for the answer to flush.
    expect(await client.serverClosed).toBeLessThan(HEADERS_TIMEOUT_MS + 1_000);
    expect(await client.readAll()).toMatch(/^HTTP\/1\.1 408 [\s\S]*"code":"TIMEOUT"/);
  });

  it("loses its connection within 1 s when its receive window is full of an answer it never reads", async () => {
    const client = open({
      head: "GET /assets/big-abc123.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /healthz HTTP/1.1\r\n",
      drip: "Host: 127.0.0.1\r\n",
    });
    expect(await client.serverClosed).toBeLessThan(HEADERS_TIMEOUT_MS + 1_000);
  });
});
