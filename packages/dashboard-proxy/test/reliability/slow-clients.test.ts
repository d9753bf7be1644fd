import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningProxy, startProxy } from "../support/proxy.js";
import { trickle } from "../support/slow-client.js";

// Slowloris against the proxy as `pnpm start` serves it (serveApp's real timeouts, not shrunk):
// headers at one byte a second are cut by headersTimeout (10 s, checked every second), well before
// the 30 s the black-box attack saw, with a 408 envelope; other clients are served meanwhile.

let proxy: RunningProxy;
let port: number;

beforeAll(async () => {
  proxy = await startProxy({});
  port = Number(new URL(proxy.url).port);
});
afterAll(() => proxy.close());

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
