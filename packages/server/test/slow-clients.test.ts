import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../src/app.js";
import type { Database } from "../src/db/database.js";
import { parseEnv } from "../src/env.js";
import { openTestPglite } from "./support/databases.js";
import { trickle } from "./support/slow-client.js";

// Slow clients, with the server's real timeouts (slow tier: it waits on real time).
// Before: Node's defaults let one byte a second hold a connection 60 s (headers) or 300 s (body).
describe("slow clients against the real timeouts", () => {
  let database: Database;
  let app: App;
  let port: number;

  beforeAll(async () => {
    database = await openTestPglite();
    app = await createApp(parseEnv({ DATABASE_URL: "memory:", LOG_LEVEL: "silent" }), { database });
    port = await app.listen(0, "127.0.0.1");
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it("closes headers sent one byte a second with 408 after about 10 s, well before 30 s", async () => {
    const head = `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${"a".repeat(60)}\r\n\r\n`;
    const result = await trickle(port, "", head, 1_000, 30_000);
    expect(result.text).toMatch(/^HTTP\/1\.1 408 /);
    // headersTimeout 10 s, checked every second (Node's 30 s check interval would allow up to 40 s).
    expect(result.elapsedMs).toBeGreaterThanOrEqual(9_500);
    expect(result.elapsedMs).toBeLessThan(15_000);
  }, 40_000);

  it("closes a body sent one byte a second with 408 after about 30 s, not Node's 300 s", async () => {
    const body = `{"key":"${"k".repeat(60)}"}`;
    const head =
      "POST /api-keys/verify HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
      `Content-Length: ${body.length}\r\n\r\n`;
    const result = await trickle(port, head, body, 1_000, 60_000);
    expect(result.text).toMatch(/^HTTP\/1\.1 408 /);
    expect(result.elapsedMs).toBeGreaterThanOrEqual(29_500);
    expect(result.elapsedMs).toBeLessThan(36_000);
  }, 70_000);

  it("closes an idle keep-alive connection after about 5 s", async () => {
    const result = await trickle(port, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", "", 1_000, 30_000);
    expect(result.text).toMatch(/^HTTP\/1\.1 200 /);
    expect(result.elapsedMs).toBeGreaterThanOrEqual(4_500);
    expect(result.elapsedMs).toBeLessThan(10_000);
  }, 40_000);

  it("resets 100 clients that request /docs/scalar.js and never read, about 20 s after they stop", async () => {
    const openConnections = () =>
      new Promise<number>((resolve, reject) =>
        app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
      );
    const started = performance.now();
    const sockets: Socket[] = [];
    for (let i = 0; i < 100; i++) {
      const socket = connect(port, "127.0.0.1");
      socket.on("error", () => {});
      socket.pause();
      socket.write("GET /docs/scalar.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
      sockets.push(socket);
    }
    await expect.poll(openConnections, { interval: 20 }).toBe(100);
    // Each socket closes when it actually does: 20 s without progress, checked every second. Those
    // whose whole answer fit in the kernel's buffers are closed by the keep-alive timeout (5 s).
    await expect.poll(openConnections, { timeout: 40_000, interval: 250 }).toBe(0);
    const elapsedMs = performance.now() - started;
    expect(elapsedMs).toBeGreaterThanOrEqual(19_500);
    expect(elapsedMs).toBeLessThan(24_000);
    for (const socket of sockets) socket.destroy();
  }, 60_000);
});
