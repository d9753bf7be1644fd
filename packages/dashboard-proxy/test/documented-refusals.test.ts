import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CoinGeckoStandIn, startCoinGecko } from "./support/coingecko-stand-in.js";
import { COINGECKO_KEY, type RunningProxy, startProxy } from "./support/proxy.js";

// What docs/dashboard-proxy.md promises for odd coin ids and an oversized sign-in body, over real
// HTTP. The coin paths go byte for byte (`raw`): a URL parser on the client side would fold `%2e%2e`
// and `\` before the proxy ever saw them.

const ORIGIN = "http://dashboard.test:3001";
let cg: CoinGeckoStandIn;
let proxy: RunningProxy;

beforeAll(async () => {
  cg = await startCoinGecko("x-cg-demo-api-key", COINGECKO_KEY);
  proxy = await startProxy({
    COINGECKO_BASE_URL: cg.baseUrl,
    COINGECKO_API_KEY: COINGECKO_KEY,
    COINGECKO_STARTUP_CHECK: "off",
    PUBLIC_ORIGIN: ORIGIN,
  });
});
afterAll(async () => {
  await proxy.close();
  await cg.close();
});

describe("a coin id is checked exactly as it was sent", () => {
  it.each([
    ["an escaped dot-dot segment", "/api/prices/chart/%2e%2e?vs_currency=usd&days=1"],
    ["an upper-case escaped dot-dot segment", "/api/prices/ohlc/%2E%2E?vs_currency=usd&days=1"],
    ["an escaped letter", "/api/prices/chart/%62itcoin?vs_currency=usd&days=1"],
    ["an escaped slash", "/api/prices/range/bitcoin%2Fping?vs_currency=usd&from=1&to=2"],
    ["backslashes and a dot-dot segment", "/api/prices/chart/bitcoin\\..\\ping?vs_currency=usd&days=1"],
    ["a plain dot-dot segment", "/api/prices/chart/../simple?ids=bitcoin&vs_currencies=usd"],
    ["a dot-dot segment right after /api/prices/", "/api/prices/../simple?ids=bitcoin&vs_currencies=usd"],
    ["a dot segment", "/api/prices/chart/./bitcoin?vs_currency=usd&days=1"],
  ])("refuses %s with 400, before any upstream call", async (_name, path) => {
    const before = cg.requests.length;
    const res = await proxy.raw(path);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toMatchObject({ code: "BAD_REQUEST", issues: [{ path: ["id"] }] });
    expect(cg.requests.length).toBe(before);
  });

  it("answers a plain coin id", async () => {
    expect((await proxy.raw("/api/prices/chart/bitcoin?vs_currency=usd&days=1")).status).toBe(200);
  });
});

describe("the sign-in body", () => {
  it("is refused with 413 when a streamed body passes 64 KiB", async () => {
    const chunk = new TextEncoder().encode("x".repeat(16 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 6) controller.enqueue(chunk);
        else controller.close();
      },
    });
    // `duplex` is required by Node's fetch for a streamed body; the DOM typings lack it.
    const init: RequestInit & { duplex: "half" } = {
      method: "POST",
      headers: { origin: ORIGIN, "content-type": "application/json" },
      body: stream,
      duplex: "half",
    };
    const res = await proxy.call("/api/session", init);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text)).toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
  });
});
