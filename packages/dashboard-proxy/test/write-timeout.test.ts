import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CoinGeckoStandIn, startCoinGecko } from "./support/coingecko-stand-in.js";
import { COINGECKO_KEY, type RunningProxy, startProxy } from "./support/proxy.js";

// The write timeout shortened to 500 ms (20 s in production; test/reliability/slow-clients.test.ts
// runs the real one). docs/decisions.md#the-servers-http-edge.
const WRITE_TIMEOUT_MS = 500;

/** Sends one request on a raw socket that never reads what comes back. */
function neverRead(url: string, path: string): Socket {
  const socket = connect(Number(new URL(url).port), "127.0.0.1");
  socket.on("error", () => {});
  socket.pause();
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  return socket;
}

describe("a client that never reads, on the proxy", () => {
  let root: string;
  let coingecko: CoinGeckoStandIn;
  let proxy: RunningProxy;

  beforeAll(async () => {
    // A dashboard build with one 16 MiB asset: more than the kernel's buffers take on loopback.
    root = await mkdtemp(join(tmpdir(), "proxy-write-timeout-"));
    await mkdir(join(root, "assets"));
    await writeFile(join(root, "index.html"), "<!doctype html><title>dashboard</title>");
    await writeFile(join(root, "assets", "big-0123abcd.js"), Buffer.alloc(16 * 1024 * 1024, "x"));
    coingecko = await startCoinGecko("x-cg-demo-api-key", COINGECKO_KEY);
    proxy = await startProxy(
      {
        DASHBOARD_DIR: root,
        COINGECKO_BASE_URL: coingecko.baseUrl,
        COINGECKO_API_KEY: COINGECKO_KEY,
        COINGECKO_STARTUP_CHECK: "off",
        UPSTREAM_TIMEOUT_MS: "5000",
      },
      {},
      WRITE_TIMEOUT_MS,
    );
  });
  afterAll(async () => {
    await proxy.close();
    await coingecko.close();
    await rm(root, { recursive: true, force: true });
  });

  it("loses its connection to a large asset soon after the write timeout", async () => {
    const started = performance.now();
    const socket = neverRead(proxy.url, "/assets/big-0123abcd.js");
    await expect.poll(() => proxy.connections(), { interval: 5 }).toBe(1);
    await expect.poll(() => proxy.connections(), { timeout: 10_000, interval: 50 }).toBe(0);
    const elapsedMs = performance.now() - started;
    expect(elapsedMs).toBeGreaterThanOrEqual(WRITE_TIMEOUT_MS);
    expect(elapsedMs).toBeLessThan(4_000);
    socket.destroy();
  });

  it("keeps an answer that waits on a slow upstream, writing nothing, for three times the write timeout", async () => {
    coingecko.behave({ kind: "slow", delayMs: 1_500 });
    const answer = await proxy.call("/api/prices/ohlc/bitcoin?vs_currency=usd&days=7");
    expect(answer.status).toBe(200);
  });
});
