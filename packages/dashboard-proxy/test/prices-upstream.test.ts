import { createServer } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type CreateAppOptions, createApp, type EnvSource, parseEnv, runStartupCheck } from "../src/index.js";
import { type CoinGeckoStandIn, startCoinGecko } from "./support/coingecko-stand-in.js";
import { COINGECKO_KEY, type RunningProxy, startProxy } from "./support/proxy.js";

// What CoinGecko really sends comes through: nulls, candles, its plan errors as a 4xx, a refused key
// or host as a 502 with an error log naming the setting; and the start-up check of key and host.

let demo: CoinGeckoStandIn;
let pro: CoinGeckoStandIn;
let proxy: RunningProxy | undefined;
const transcripts: string[] = [];

beforeAll(async () => {
  demo = await startCoinGecko("x-cg-demo-api-key", COINGECKO_KEY);
  pro = await startCoinGecko("x-cg-pro-api-key", COINGECKO_KEY);
});
afterAll(async () => {
  await Promise.all([demo.close(), pro.close()]);
  // Whatever each test did, the key never reached a response header, a body or a log line.
  expect(transcripts.join("\n")).not.toContain(COINGECKO_KEY);
});
beforeEach(() => {
  for (const cg of [demo, pro]) {
    cg.requests.length = 0;
    cg.behave({ kind: "default" });
    cg.setVersion(1);
  }
});
afterEach(async () => {
  if (proxy) transcripts.push(proxy.transcript());
  await proxy?.close();
  proxy = undefined;
});

async function start(env: EnvSource = {}, options: CreateAppOptions = {}) {
  proxy = await startProxy(
    { COINGECKO_BASE_URL: demo.baseUrl, COINGECKO_API_KEY: COINGECKO_KEY, ...env },
    options,
  );
  return proxy;
}

/** Log lines at `level` (pino's numbers: 40 warn, 50 error), parsed. */
function logsAt(lines: string[], level: number): Record<string, unknown>[] {
  return lines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry.level === level);
}

describe("real upstream data passes", () => {
  it.each([
    ["chart", "/api/prices/chart/bitcoin?vs_currency=usd&days=1"],
    ["range", "/api/prices/range/bitcoin?vs_currency=usd&from=2024-01-01&to=2024-01-02"],
  ])("a %s with [timestamp, null] points answers 200 with the nulls", async (_name, path) => {
    const proxy = await start();
    demo.behave({ kind: "nulls" });
    const res = await proxy.call(path);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({
      prices: [
        [1_700_000_000_000, 100],
        [1_700_000_300_000, null],
      ],
      market_caps: [[1_700_000_000_000, null]],
      total_volumes: [[1_700_000_000_000, 3e10]],
    });
  });

  it("OHLC candles pass as [time, open, high, low, close], nulls included", async () => {
    const proxy = await start();
    demo.behave({ kind: "nulls" });
    const res = await proxy.call("/api/prices/ohlc/bitcoin?vs_currency=usd&days=1");
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual([
      [1_700_000_000_000, 1, 2, 0.5, 1.5],
      [1_700_001_800_000, null, null, null, null],
    ]);
  });

  it("a null price passes", async () => {
    const proxy = await start();
    demo.behave({ kind: "nulls" });
    const res = await proxy.call("/api/prices/simple?ids=bitcoin&vs_currencies=usd");
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({ bitcoin: { usd: null } });
  });

  it("a candle that is not five numbers is a 502, not a relay", async () => {
    const proxy = await start();
    demo.behave({ kind: "json", body: [[1_700_000_000_000, 1, 2]] });
    const res = await proxy.call("/api/prices/ohlc/bitcoin?vs_currency=usd&days=1");
    expect(res.status).toBe(502);
  });

  it("a slow CoinGecko within UPSTREAM_TIMEOUT_MS is waited for; past it, 504", async () => {
    const proxy = await start({ UPSTREAM_TIMEOUT_MS: "1500" });
    demo.behave({ kind: "slow", delayMs: 200 });
    expect((await proxy.call("/api/prices/ohlc/bitcoin?vs_currency=usd&days=7")).status).toBe(200);
    demo.behave({ kind: "slow", delayMs: 5_000 });
    const late = await proxy.call("/api/prices/ohlc/bitcoin?vs_currency=usd&days=14");
    expect(late.status).toBe(504);
  });
});

describe("CoinGecko's plan errors are the caller's 400", () => {
  it.each([
    ["10012 (beyond the time range), nested as CoinGecko sends it", 10012, true],
    ["10005 (plan restricted)", 10005, false],
  ])("401 with %s", async (_name, errorCode, nested) => {
    const proxy = await start();
    demo.behave({ kind: "coingeckoError", status: 401, errorCode, nested });
    const res = await proxy.call("/api/prices/chart/bitcoin?vs_currency=usd&days=max");
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual({
      code: "BAD_REQUEST",
      message: "This range or interval is not available on the demo plan of the market data provider",
    });
    // Not an operator problem: no error log.
    expect(logsAt(proxy.logLines, 50)).toEqual([]);
    expect(res.text).not.toContain("CoinGecko error");
  });
});

describe("a refused key or host is a 502 and an error log naming the setting", () => {
  it("a wrong key (401, 10002) names COINGECKO_API_KEY", async () => {
    const proxy = await start({ COINGECKO_API_KEY: "CG-not-the-right-key-0000" });
    const res = await proxy.call("/api/prices/simple?ids=bitcoin&vs_currencies=usd");
    expect(res.status).toBe(502);
    expect(JSON.parse(res.text)).toEqual({
      code: "BAD_GATEWAY",
      message: "The market data provider failed to answer",
      requestId: res.headers["x-request-id"],
    });
    const [error] = logsAt(proxy.logLines, 50);
    expect(error).toMatchObject({ setting: "COINGECKO_API_KEY", detail: "HTTP 401 error_code 10002" });
    expect(String(error?.msg)).toContain("COINGECKO_API_KEY");
    expect(proxy.transcript()).not.toContain("CG-not-the-right-key-0000");
  });

  it("a 401 without an error code names COINGECKO_API_KEY", async () => {
    const proxy = await start();
    demo.behave({ kind: "status", status: 401, body: '{"error":"nope"}' });
    expect((await proxy.call("/api/prices/markets?vs_currency=usd")).status).toBe(502);
    expect(logsAt(proxy.logLines, 50)[0]).toMatchObject({ setting: "COINGECKO_API_KEY" });
  });

  it("a Pro key sent to the Demo host (10010) names COINGECKO_PLAN", async () => {
    // COINGECKO_PLAN=pro sends the key as x-cg-pro-api-key; the host is the Demo one.
    const proxy = await start({ COINGECKO_PLAN: "pro", COINGECKO_BASE_URL: demo.baseUrl });
    const res = await proxy.call("/api/prices/chart/bitcoin?vs_currency=usd&days=7");
    expect(res.status).toBe(502);
    const [error] = logsAt(proxy.logLines, 50);
    expect(error).toMatchObject({ setting: "COINGECKO_PLAN", detail: "HTTP 401 error_code 10010" });
    expect(String(error?.msg)).toContain("COINGECKO_PLAN=pro");
  });

  it("a Demo key sent to the Pro host (10011) names COINGECKO_PLAN", async () => {
    const proxy = await start({ COINGECKO_PLAN: "demo", COINGECKO_BASE_URL: pro.baseUrl });
    const res = await proxy.call("/api/prices/ohlc/bitcoin?vs_currency=usd&days=1");
    expect(res.status).toBe(502);
    const [error] = logsAt(proxy.logLines, 50);
    expect(error).toMatchObject({ setting: "COINGECKO_PLAN", detail: "HTTP 401 error_code 10011" });
    expect(String(error?.msg)).toContain("COINGECKO_PLAN=demo");
  });
});

describe("freshness follows CoinGecko's updates", () => {
  const clock = { now: 1_000_000 };
  const frozen = { cache: { now: () => clock.now } };
  const maxAge = (res: { headers: Record<string, string> }) =>
    Number(/max-age=(\d+)/.exec(res.headers["cache-control"] ?? "")?.[1]);
  const nowSeconds = () => Math.floor(Date.now() / 1_000);

  it.each([
    ["demo", "/api/prices/simple?ids=bitcoin&vs_currencies=usd", 60],
    ["demo", "/api/prices/markets?vs_currency=usd", 60],
    ["pro", "/api/prices/simple?ids=bitcoin&vs_currencies=usd", 20],
    ["enterprise", "/api/prices/markets?vs_currency=usd", 20],
    ["demo", "/api/prices/chart/bitcoin?vs_currency=usd&days=1", 300],
    ["demo", "/api/prices/chart/bitcoin?vs_currency=usd&days=30", 3_600],
    ["demo", "/api/prices/chart/bitcoin?vs_currency=usd&days=91", 21_600],
    ["demo", "/api/prices/chart/bitcoin?vs_currency=usd&days=1&interval=daily", 21_600],
    ["enterprise", "/api/prices/chart/bitcoin?vs_currency=usd&days=30&interval=5m", 300],
    ["demo", "/api/prices/range/bitcoin?vs_currency=usd&from=2024-01-01&to=2024-02-01", 86_400],
    ["demo", "/api/prices/ohlc/bitcoin?vs_currency=usd&days=7", 900],
  ] as const)("on %s, %s stays fresh %i s", async (plan, path, seconds) => {
    const cg = plan === "demo" ? demo : pro;
    const proxy = await start({ COINGECKO_PLAN: plan, COINGECKO_BASE_URL: cg.baseUrl }, frozen);
    const first = await proxy.call(path);
    expect(first.headers["x-cache"]).toBe("MISS");
    expect(maxAge(first)).toBe(seconds);
    clock.now += seconds * 1_000 - 1;
    expect((await proxy.call(path)).headers["x-cache"]).toBe("HIT");
    clock.now += 2;
    expect((await proxy.call(path)).headers["x-cache"]).toBe("STALE");
  });

  it("a range reaching to now follows its granularity: two days are hourly, so 1 h", async () => {
    const proxy = await start({}, frozen);
    const to = nowSeconds();
    const res = await proxy.call(
      `/api/prices/range/bitcoin?vs_currency=usd&from=${to - 2 * 86_400}&to=${to}`,
    );
    expect(maxAge(res)).toBe(3_600);
    const day = await proxy.call(`/api/prices/range/bitcoin?vs_currency=usd&from=${to - 3_600}&to=${to}`);
    expect(maxAge(day)).toBe(300);
  });
});

describe("the start-up check", () => {
  const appFor = (env: EnvSource) => {
    const lines: string[] = [];
    const app = createApp(
      parseEnv({
        COINGECKO_BASE_URL: demo.baseUrl,
        COINGECKO_API_KEY: COINGECKO_KEY,
        LOG_LEVEL: "info",
        ...env,
      }),
      { logDestination: { write: (line) => void lines.push(line) } },
    );
    transcripts.push(lines.join("\n"));
    return { app, lines };
  };

  it("calls /ping once with the key and logs that the key and host work", async () => {
    const { app, lines } = appFor({});
    await expect(runStartupCheck(app)).resolves.toEqual({ ok: true });
    expect(demo.requests.map((seen) => seen.path)).toEqual(["/ping"]);
    expect(demo.requests[0]?.headers["x-cg-demo-api-key"]).toBe(COINGECKO_KEY);
    expect(lines.join("\n")).toContain("start-up check passed");
    expect(lines.join("\n")).not.toContain(COINGECKO_KEY);
  });

  it("warns naming COINGECKO_API_KEY when the key is refused", async () => {
    const { app, lines } = appFor({ COINGECKO_API_KEY: "CG-wrong-key-for-the-check" });
    const result = await runStartupCheck(app);
    expect(result).toMatchObject({ ok: false, setting: "COINGECKO_API_KEY" });
    const [warning] = logsAt(lines, 40);
    expect(warning).toMatchObject({ setting: "COINGECKO_API_KEY" });
    expect(String(warning?.msg)).toContain("COINGECKO_API_KEY");
    expect(lines.join("\n")).not.toContain("CG-wrong-key-for-the-check");
  });

  it("warns naming COINGECKO_PLAN when a Demo key meets the Pro host", async () => {
    const { app, lines } = appFor({ COINGECKO_BASE_URL: pro.baseUrl });
    expect(await runStartupCheck(app)).toMatchObject({ ok: false, setting: "COINGECKO_PLAN" });
    expect(String(logsAt(lines, 40)[0]?.msg)).toContain("COINGECKO_PLAN=demo");
  });

  it("warns naming COINGECKO_BASE_URL when nothing answers there", async () => {
    const closed = await freePort();
    const { app, lines } = appFor({ COINGECKO_BASE_URL: `http://127.0.0.1:${closed}/api/v3` });
    expect(await runStartupCheck(app)).toMatchObject({ ok: false, setting: "COINGECKO_BASE_URL" });
    expect(logsAt(lines, 40)[0]).toMatchObject({ setting: "COINGECKO_BASE_URL" });
  });

  it("says CoinGecko is not reachable (DNS) when the host name does not resolve, naming no setting", async () => {
    const { app, lines } = appFor({ COINGECKO_BASE_URL: "http://keyport-nowhere.invalid/api/v3" });
    const result = await runStartupCheck(app);
    expect(result).toMatchObject({ ok: false, failure: { kind: "bad_gateway" }, setting: undefined });
    const [warning] = logsAt(lines, 40);
    expect(String(warning?.msg)).toContain("CoinGecko is not reachable (DNS");
    expect(String(warning?.msg)).not.toMatch(/COINGECKO_[A-Z_]+/);
    expect(warning).not.toHaveProperty("setting");
  });

  it("gives up after its timeout when CoinGecko is slow", async () => {
    demo.behave({ kind: "slow", delayMs: 10_000 });
    const { app } = appFor({});
    const started = performance.now();
    const result = await runStartupCheck(app, 300);
    expect(result).toMatchObject({ ok: false, failure: { kind: "timeout" } });
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("is paid from the upstream budget: with a budget of one call, the next price request is not made", async () => {
    const { app } = appFor({ COINGECKO_CALLS_PER_MINUTE: "1" });
    expect(await runStartupCheck(app)).toEqual({ ok: true });
    const res = await app.request("/api/prices/simple?ids=bitcoin&vs_currencies=usd");
    expect(res.status).toBe(429);
    expect(demo.count("/simple/price")).toBe(0);
    expect(demo.count()).toBe(1);
  });
});

/** A port nothing listens on (taken from the OS, then released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}
