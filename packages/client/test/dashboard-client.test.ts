import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDashboardClient, type DashboardClient, KeyportError } from "../src/index.js";
import { type RunningProxy, startProxy } from "./support/proxy.js";
import { type AgentStandIn, type CoinGeckoStandIn, startAgent, startCoinGecko } from "./support/upstreams.js";

const FIRST = "data: first\n\n";
const REST = "data: rest\n\n";

/** Reads an async iterable to the end. */
async function collect(chunks: AsyncIterable<string>): Promise<string[]> {
  const seen: string[] = [];
  for await (const chunk of chunks) seen.push(chunk);
  return seen;
}

describe("createDashboardClient against the real proxy", () => {
  let coingecko: CoinGeckoStandIn;
  let agent: AgentStandIn;
  let proxy: RunningProxy;
  let chatless: RunningProxy;
  let dashboard: DashboardClient;

  beforeAll(async () => {
    coingecko = await startCoinGecko();
    agent = await startAgent(FIRST, REST);
    // The stand-in agent streams plain text; chat is open to all here (sessions are the proxy's tests).
    proxy = await startProxy({
      COINGECKO_BASE_URL: coingecko.baseUrl,
      // Every call here comes from one address: its share of the upstream budget is not under test.
      COINGECKO_CLIENT_CALLS_PER_MINUTE: "1000",
      COINGECKO_CALLS_PER_MINUTE: "1000",
      AGENT_URL: agent.url,
      AGENT_PROTOCOL: "text",
      CHAT_ACCESS: "public",
    });
    chatless = await startProxy({ COINGECKO_BASE_URL: coingecko.baseUrl });
    dashboard = createDashboardClient({ baseUrl: `${proxy.baseUrl}/` });
  });
  afterAll(async () => {
    await proxy.close();
    await chatless.close();
    await agent.close();
    await coingecko.close();
  });

  it("reads simple prices, markets and a chart as typed JSON", async () => {
    const prices = await dashboard.prices.simple({ ids: "bitcoin,ethereum", vs_currencies: "usd" });
    expect(prices).toEqual({ bitcoin: { usd: 42 }, ethereum: { usd: 42 } });

    const markets = await dashboard.prices.markets({ vs_currency: "usd", per_page: "10" });
    expect(markets[0]).toMatchObject({ id: "bitcoin", symbol: "btc", current_price: 42, extra_field: true });

    const chart = await dashboard.prices.chart("bitcoin", { vs_currency: "usd", days: "7" });
    expect(chart.prices).toEqual([[1_700_000_000_000, 42]]);
    expect(coingecko.requests.some((path) => path.startsWith("/api/v3/coins/bitcoin/market_chart?"))).toBe(
      true,
    );
  });

  it("reads a date range and OHLC candles, sending their parameters as given", async () => {
    const range = await dashboard.prices.range("bitcoin", {
      vs_currency: "usd",
      from: "2024-01-01",
      to: "1706745600",
      precision: "2",
    });
    expect(range.prices).toEqual([[1_700_000_000_000, 42]]);
    expect(coingecko.requests).toContain(
      "/api/v3/coins/bitcoin/market_chart/range?vs_currency=usd&from=2024-01-01&to=1706745600&precision=2",
    );

    const candles = await dashboard.prices.ohlc("ethereum", { vs_currency: "eur", days: "14" });
    expect(candles).toEqual([[1_700_000_000_000, 40, 44, 39, 42]]);
    expect(coingecko.requests).toContain("/api/v3/coins/ethereum/ohlc?vs_currency=eur&days=14");
  });

  it("refuses a range whose end is before its start, and OHLC days CoinGecko does not offer, before sending", async () => {
    const before = coingecko.requests.length;
    await expect(
      dashboard.prices.range("bitcoin", { vs_currency: "usd", from: "2024-02-01", to: "2024-01-01" }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", issues: [{ path: ["to"] }] });
    // @ts-expect-error OHLC days are CoinGecko's list
    await expect(dashboard.prices.ohlc("bitcoin", { vs_currency: "usd", days: "3" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    expect(coingecko.requests.length).toBe(before);
  });

  it("refuses invalid input before any request is sent, as BAD_REQUEST with issues", async () => {
    const before = coingecko.requests.length;
    const error = await dashboard.prices
      .chart("../admin", { vs_currency: "usd", days: "7" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KeyportError);
    expect(error).toMatchObject({ code: "BAD_REQUEST", status: 400, issues: [{ path: ["id"] }] });
    // Values the types cannot rule out are checked at run time, by the proxy's own schemas.
    await expect(dashboard.prices.chart("bitcoin", { vs_currency: "u$d", days: "7" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(collect(dashboard.chat.stream([]))).rejects.toMatchObject({
      code: "BAD_REQUEST",
      status: 400,
    });
    expect(coingecko.requests.length).toBe(before);
    expect(agent.calls.length).toBe(0);
  });

  it("turns the proxy's error envelopes into KeyportErrors with code and status", async () => {
    coingecko.failWith = 500;
    try {
      await expect(dashboard.prices.simple({ ids: "dogecoin", vs_currencies: "eur" })).rejects.toMatchObject({
        name: "KeyportError",
        code: "BAD_GATEWAY",
        status: 502,
        // The proxy's id for the request, by which its log lines are found.
        requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
    } finally {
      coingecko.failWith = undefined;
    }
    const noChat = createDashboardClient({ baseUrl: chatless.baseUrl });
    await expect(collect(noChat.chat.stream([{ role: "user", content: "hi" }]))).rejects.toMatchObject({
      code: "SERVICE_UNAVAILABLE",
      status: 503,
    });
  });

  it("streams a chat as the text the agent sends, delta by delta", async () => {
    const chunks: string[] = [];
    const stream = dashboard.chat.stream([{ role: "user", content: "What moved ETH?" }], {
      sessionId: "s_1",
    });
    for await (const chunk of stream) {
      chunks.push(chunk);
      // The first chunk arrives while the agent is still holding the rest: it really streams.
      if (chunks.join("") === FIRST) agent.release();
    }
    expect(chunks.join("")).toBe(FIRST + REST);
    const call = agent.calls.at(-1);
    expect(call && JSON.parse(call.body)).toEqual({
      messages: [{ role: "user", content: "What moved ETH?" }],
      sessionId: "s_1",
    });
    expect(await call?.ended).toBe("finished");
  });

  it("stops the stream and the request when the signal aborts: the agent sees the connection close", async () => {
    const controller = new AbortController();
    const calls = agent.calls.length;
    const chunks: string[] = [];
    for await (const chunk of dashboard.chat.stream([{ role: "user", content: "long answer" }], {
      signal: controller.signal,
    })) {
      chunks.push(chunk);
      controller.abort();
    }
    expect(chunks).toEqual([FIRST]);
    await expect.poll(() => agent.calls.length).toBeGreaterThan(calls);
    expect(await agent.calls.at(-1)?.ended).toBe("aborted");
  });

  it("stops the request when the reader leaves the loop early", async () => {
    const calls = agent.calls.length;
    for await (const chunk of dashboard.chat.stream([{ role: "user", content: "never mind" }])) {
      expect(chunk).toBe(FIRST);
      break;
    }
    await expect.poll(() => agent.calls.length).toBeGreaterThan(calls);
    expect(await agent.calls.at(-1)?.ended).toBe("aborted");
  });

  it("reports an unreachable proxy as NETWORK_ERROR with status 0", async () => {
    const offline = createDashboardClient({ baseUrl: "http://127.0.0.1:1" });
    await expect(offline.prices.simple({ ids: "bitcoin", vs_currencies: "usd" })).rejects.toMatchObject({
      code: "NETWORK_ERROR",
      status: 0,
    });
  });
});
