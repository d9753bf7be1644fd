import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { EnvSource } from "../src/index.js";
import { type CoinGeckoStandIn, startCoinGecko } from "./support/coingecko-stand-in.js";
import { COINGECKO_KEY, type RunningProxy, startProxy } from "./support/proxy.js";

// CoinGecko's parameters, as its SDK names them, reach it exactly as the caller gave them; the
// plan's limits on `interval` are refused before any upstream call.

let demo: CoinGeckoStandIn;
let pro: CoinGeckoStandIn;
let proxy: RunningProxy | undefined;

beforeAll(async () => {
  demo = await startCoinGecko("x-cg-demo-api-key", COINGECKO_KEY);
  pro = await startCoinGecko("x-cg-pro-api-key", COINGECKO_KEY);
});
afterAll(async () => {
  await Promise.all([demo.close(), pro.close()]);
});
beforeEach(() => {
  for (const cg of [demo, pro]) {
    cg.requests.length = 0;
    cg.behave({ kind: "default" });
  }
});
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

type PlanName = "demo" | "pro" | "enterprise";

async function start(plan: PlanName, env: EnvSource = {}) {
  const cg = plan === "demo" ? demo : pro;
  proxy = await startProxy({
    COINGECKO_PLAN: plan,
    COINGECKO_BASE_URL: cg.baseUrl,
    COINGECKO_API_KEY: COINGECKO_KEY,
    ...env,
  });
  return { proxy, cg };
}

/** The query the stand-in received, as name -> value. */
const seenQuery = (cg: CoinGeckoStandIn) => Object.fromEntries(cg.requests[0]?.query ?? []);

describe("every parameter reaches CoinGecko exactly as given", () => {
  it("simple: ids, names, symbols, include_tokens, vs_currencies, the include_* flags and precision", async () => {
    const { proxy, cg } = await start("demo");
    const given = {
      ids: "bitcoin,ethereum",
      names: "Bitcoin,Wrapped Bitcoin",
      symbols: "btc,eth",
      include_tokens: "all",
      vs_currencies: "eur,usd",
      include_market_cap: "true",
      include_24hr_vol: "true",
      include_24hr_change: "false",
      include_last_updated_at: "true",
      precision: "full",
    };
    const res = await proxy.call(`/api/prices/simple?${new URLSearchParams(given)}`);
    expect(res.status).toBe(200);
    expect(cg.requests[0]?.path).toBe("/simple/price");
    expect(seenQuery(cg)).toEqual(given);
  });

  it("simple: names alone (no ids) is enough, and no ids parameter is invented", async () => {
    const { proxy, cg } = await start("demo");
    const res = await proxy.call("/api/prices/simple?names=Bitcoin&vs_currencies=usd&precision=2");
    expect(res.status).toBe(200);
    expect(seenQuery(cg)).toMatchObject({ names: "Bitcoin", vs_currencies: "usd", precision: "2" });
    expect(cg.requests[0]?.query.has("ids")).toBe(false);
  });

  it("markets: category, locale, precision, names, symbols, include_tokens and the paging and sorting", async () => {
    const { proxy, cg } = await start("demo");
    const given = {
      vs_currency: "usd",
      ids: "bitcoin,solana",
      names: "Bitcoin,Solana",
      symbols: "btc,sol",
      include_tokens: "top",
      category: "layer-1",
      order: "volume_desc",
      per_page: "50",
      page: "2",
      sparkline: "true",
      price_change_percentage: "1h,24h,7d",
      locale: "zh-tw",
      precision: "4",
    };
    const res = await proxy.call(`/api/prices/markets?${new URLSearchParams(given)}`);
    expect(res.status).toBe(200);
    expect(cg.requests[0]?.path).toBe("/coins/markets");
    expect(seenQuery(cg)).toEqual(given);
  });

  it("chart: days=3, interval=daily and precision=2 on the Demo plan (the issue's refused example)", async () => {
    const { proxy, cg } = await start("demo");
    const res = await proxy.call(
      "/api/prices/chart/bitcoin?vs_currency=usd&days=3&interval=daily&precision=2",
    );
    expect(res.status).toBe(200);
    expect(cg.requests[0]?.path).toBe("/coins/bitcoin/market_chart");
    expect(cg.requests[0]?.rawQuery).toBe("vs_currency=usd&days=3&interval=daily&precision=2");
  });

  it.each(["1", "2", "45", "1000", "100000", "max"])("chart: days=%s passes as given", async (days) => {
    const { proxy, cg } = await start("demo");
    const res = await proxy.call(`/api/prices/chart/bitcoin?vs_currency=usd&days=${days}`);
    expect(res.status).toBe(200);
    expect(seenQuery(cg)).toEqual({ vs_currency: "usd", days });
  });

  it.each(["5m", "hourly", "daily"])("chart: interval=%s on the Enterprise plan", async (interval) => {
    const { proxy, cg } = await start("enterprise");
    const res = await proxy.call(`/api/prices/chart/bitcoin?vs_currency=usd&days=7&interval=${interval}`);
    expect(res.status).toBe(200);
    expect(seenQuery(cg)).toEqual({ vs_currency: "usd", days: "7", interval });
    expect(cg.requests[0]?.headers["x-cg-pro-api-key"]).toBe(COINGECKO_KEY);
  });

  it.each([
    ["UNIX seconds", "1704067200", "1706745600"],
    ["ISO dates", "2024-01-01", "2024-02-01"],
    ["ISO date-times", "2024-01-01T00:00", "2024-01-01T12:30"],
    ["one of each", "1704067200", "2024-02-01T08:15"],
  ])("range: from and to as %s", async (_name, from, to) => {
    const { proxy, cg } = await start("demo");
    const query = new URLSearchParams({ vs_currency: "usd", from, to, interval: "daily", precision: "3" });
    const res = await proxy.call(`/api/prices/range/bitcoin?${query}`);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toHaveProperty("prices");
    expect(cg.requests[0]?.path).toBe("/coins/bitcoin/market_chart/range");
    expect(seenQuery(cg)).toEqual({ vs_currency: "usd", from, to, interval: "daily", precision: "3" });
  });

  it.each(OHLC_DAYS())("ohlc: days=%s", async (days) => {
    const { proxy, cg } = await start("demo");
    const res = await proxy.call(`/api/prices/ohlc/ethereum?vs_currency=eur&days=${days}&precision=full`);
    expect(res.status).toBe(200);
    expect(cg.requests[0]?.path).toBe("/coins/ethereum/ohlc");
    expect(seenQuery(cg)).toEqual({ vs_currency: "eur", days, precision: "full" });
  });

  it.each([
    ["pro", "daily"],
    ["pro", "hourly"],
    ["enterprise", "daily"],
  ] as const)("ohlc: on the %s plan, interval=%s", async (plan, interval) => {
    const { proxy, cg } = await start(plan);
    const res = await proxy.call(`/api/prices/ohlc/bitcoin?vs_currency=usd&days=7&interval=${interval}`);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual([[1_700_000_000_000, 100, 110, 90, 105]]);
    expect(seenQuery(cg)).toEqual({ vs_currency: "usd", days: "7", interval });
  });
});

function OHLC_DAYS() {
  return ["1", "7", "14", "30", "90", "180", "365", "max"];
}

describe("what the plan does not offer is a 400 before any upstream call", () => {
  it.each([
    ["demo", "/api/prices/chart/bitcoin?vs_currency=usd&days=1&interval=5m", "5m", "enterprise"],
    ["demo", "/api/prices/chart/bitcoin?vs_currency=usd&days=7&interval=hourly", "hourly", "enterprise"],
    ["pro", "/api/prices/chart/bitcoin?vs_currency=usd&days=7&interval=hourly", "hourly", "enterprise"],
    [
      "pro",
      "/api/prices/range/bitcoin?vs_currency=usd&from=2024-01-01&to=2024-01-02&interval=5m",
      "5m",
      "enterprise",
    ],
    ["demo", "/api/prices/ohlc/bitcoin?vs_currency=usd&days=7&interval=daily", "daily", "pro or enterprise"],
    [
      "demo",
      "/api/prices/ohlc/bitcoin?vs_currency=usd&days=1&interval=hourly",
      "hourly",
      "pro or enterprise",
    ],
  ] as const)("on %s: %s", async (plan, path, interval, needed) => {
    const { proxy, cg } = await start(plan);
    const res = await proxy.call(path);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual({
      code: "BAD_REQUEST",
      message: `The CoinGecko ${plan} plan this proxy uses does not offer interval=${interval}`,
      issues: [{ path: ["interval"], message: `${interval} needs CoinGecko's ${needed} plan` }],
    });
    expect(cg.requests).toHaveLength(0);
  });
});

describe("unknown and key-carrying parameters stay a 400 and are never forwarded", () => {
  it.each([
    "/api/prices/simple?ids=bitcoin&vs_currencies=usd&x_cg_pro_api_key=attacker",
    "/api/prices/simple?vs_currencies=usd",
    "/api/prices/simple?ids=bitcoin&vs_currencies=usd&include_tokens=some",
    "/api/prices/simple?names=Bit,coin,&vs_currencies=usd",
    "/api/prices/markets?vs_currency=usd&x_cg_demo_api_key=attacker",
    "/api/prices/markets?vs_currency=usd&include_rehypothecated=true",
    "/api/prices/markets?vs_currency=usd&category=Layer%201",
    "/api/prices/markets?vs_currency=usd&locale=xx",
    "/api/prices/markets?vs_currency=usd&precision=19",
    "/api/prices/chart/bitcoin?vs_currency=usd&days=7&precision=full&apikey=attacker",
    "/api/prices/range/bitcoin?vs_currency=usd&from=2024-01-01&to=2024-02-01&x_cg_pro_api_key=attacker",
    "/api/prices/range/bitcoin?vs_currency=usd&from=2024-02-01&to=2024-01-01",
    "/api/prices/range/bitcoin?vs_currency=usd&from=2024-01-01&to=2024-02-30",
    "/api/prices/range/bitcoin?vs_currency=usd&from=2024-01-01T10&to=2024-02-01",
    "/api/prices/range/bitcoin?vs_currency=usd&from=yesterday&to=2024-02-01",
    "/api/prices/range/bitcoin?vs_currency=usd&from=2024-01-01",
    "/api/prices/range/bitcoin?vs_currency=usd&from=1704067200&to=1706745600&interval=weekly",
    "/api/prices/range/Bitcoin?vs_currency=usd&from=2024-01-01&to=2024-02-01",
    "/api/prices/range/a/b?vs_currency=usd&from=2024-01-01&to=2024-02-01",
    "/api/prices/ohlc/bitcoin?vs_currency=usd&days=2",
    "/api/prices/ohlc/bitcoin?vs_currency=usd&days=7&interval=5m",
    "/api/prices/ohlc/bitcoin?vs_currency=usd&days=7&x_cg_demo_api_key=attacker",
    "/api/prices/ohlc/..%2Fx?vs_currency=usd&days=7",
  ])("%s", async (path) => {
    const { proxy, cg } = await start("pro");
    const res = await proxy.raw(path);
    expect(res.status).toBe(400);
    const body = JSON.parse(res.text);
    expect(body).toMatchObject({ code: "BAD_REQUEST" });
    expect(body.issues.length).toBeGreaterThan(0);
    expect(res.text).not.toContain("attacker");
    expect(cg.requests).toHaveLength(0);
  });
});
