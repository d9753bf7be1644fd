import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningProxy, startProxy } from "../support/proxy.js";
import { trickle } from "../support/slow-client.js";

// Slowloris against the proxy as `pnpm start` serves it (serveApp's real timeouts, not shrunk):
// headers at one byte a second are cut by headersTimeout (10 s, checked every second), well before
// the 30 s the black-box attack saw, with a 408 envelope; other clients are served meanwhile.

let proxy: RunningProxy;
let port: number;
let root: string;

beforeAll(async () => {
  // A dashboard build with a 4 MiB asset, the size of the server's /docs/scalar.js.
  root = await mkdtemp(join(tmpdir(), "proxy-slow-clients-"));
  await mkdir(join(root, "assets"));
  await writeFile(join(root, "index.html"), "<!doctype html><title>dashboard</title>");
  await writeFile(join(root, "assets", "big-0123abcd.js"), Buffer.alloc(4 * 1024 * 1024 + 300_000, "x"));
  proxy = await startProxy({ DASHBOARD_DIR: root });
  port = Number(new URL(proxy.url).port);
});
afterAll(async () => {
  await proxy.close();
  await rm(root, { recursive: true, force: true });
});

describe("a client sending its headers one byte a second", () => {
  it("is answered 408 and closed after about 10 s, well before 30 s, while others are served", async () => {
    const request = `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${"a".repeat(40)}\r\n\r\n`;
    const slow = trickle(port, "", request, 1_000, 5_000);
    // Not a queue: the proxy answers at once while the slow client holds its connection.
    await expect.poll(() => proxy.connections()).toBeGreaterThan(0);
    expect((await proxy.call("/healthz")).status).toBe(200);

    const result = await slow;
    expect(result.text).toMatch(/^HTTP\/1\.1 408 /);
    expect(result.text).toContain('"code":"TIMEOUT"');
    expect(result.sent).toBeLessThan(request.length);
    expect(result.elapsedMs).toBeGreaterThanOrEqual(9_000);
    expect(result.elapsedMs).toBeLessThan(15_000);
  }, 40_000);
});

describe("100 clients that request a large asset and never read", () => {
  it("are reset about 20 s after they stop reading (the real write timeout)", async () => {
    const started = performance.now();
    const sockets: Socket[] = [];
    for (let i = 0; i < 100; i++) {
      const socket = connect(port, "127.0.0.1");
      socket.on("error", () => {});
      socket.pause();
      socket.write("GET /assets/big-0123abcd.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
      sockets.push(socket);
    }
    await expect.poll(() => proxy.connections(), { interval: 20 }).toBe(100);
    await expect.poll(() => proxy.connections(), { timeout: 40_000, interval: 250 }).toBe(0);
    const elapsedMs = performance.now() - started;
    expect(elapsedMs).toBeGreaterThanOrEqual(19_500);
    expect(elapsedMs).toBeLessThan(24_000);
    for (const socket of sockets) socket.destroy();
  }, 60_000);
});
