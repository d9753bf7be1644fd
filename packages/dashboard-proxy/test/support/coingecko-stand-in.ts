import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { portOf } from "@keyport/test-support/port";

/** What the stand-in does with one request; tests switch it at will. */
export type Behaviour =
  | { kind: "default" }
  | { kind: "json"; body: unknown }
  | { kind: "status"; status: number; headers?: Record<string, string>; body?: string }
  | { kind: "garbage" }
  | { kind: "reset" }
  | { kind: "hang" }
  /** The default answer, held until `until` resolves. */
  | { kind: "gated"; until: Promise<void> }
  /** The default answer, sent `delayMs` after the request arrived. */
  | { kind: "slow"; delayMs: number }
  /** The default answer with `null` where CoinGecko sends them (series points, candles, prices). */
  | { kind: "nulls" }
  /**
   * CoinGecko's own error body: `{ "status": { "error_code", "error_message" } }`, or wrapped in
   * `{ "error": ... }` when `nested` (as its 10012 answers are).
   */
  | { kind: "coingeckoError"; status: number; errorCode: number; message?: string; nested?: boolean };

/** One request the stand-in received. */
export interface SeenRequest {
  path: string;
  query: URLSearchParams;
  /** The query string byte for byte as it arrived, without the `?`. */
  rawQuery: string;
  headers: IncomingMessage["headers"];
}

/** A CoinGecko stand-in on 127.0.0.1 that counts requests and checks the key header. */
export interface CoinGeckoStandIn {
  /** Base URL to use as COINGECKO_BASE_URL (ends in /api/v3). */
  baseUrl: string;
  requests: SeenRequest[];
  /** Requests received so far, or those whose path matches `path` (exact string or pattern). */
  count(path?: string | RegExp): number;
  /** Sets how the next requests are answered. */
  behave(behaviour: Behaviour): void;
  /** A value the default answers carry, so tests can tell one upstream answer from the next. */
  setVersion(version: number): void;
  close(): Promise<void>;
}

const PREFIX = "/api/v3";

const DEMO_HEADER = "x-cg-demo-api-key";
const PRO_HEADER = "x-cg-pro-api-key";

/**
 * Starts the stand-in. Requests without `keyHeader: key` get a 401 like CoinGecko's: error 10010 for
 * a Pro key on the Demo host, 10011 for a Demo key on the Pro host, 10002 otherwise. By default
 * `/ping`, `/simple/price`, `/coins/markets`, `/coins/{id}/market_chart`, `.../market_chart/range` and
 * `/coins/{id}/ohlc` answer CoinGecko-shaped JSON (a coin id starting `no-such-` is CoinGecko's 404), plus the upstream-only header `x-upstream-secret`
 * that must never pass through.
 */
export async function startCoinGecko(keyHeader: string, key: string): Promise<CoinGeckoStandIn> {
  const requests: SeenRequest[] = [];
  let behaviour: Behaviour = { kind: "default" };
  let version = 1;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://stand-in");
    const rawQuery = (req.url ?? "").split("?")[1] ?? "";
    requests.push({
      path: url.pathname.slice(PREFIX.length),
      query: url.searchParams,
      rawQuery,
      headers: req.headers,
    });
    if (req.headers[keyHeader] !== key) return sendJson(res, 401, keyRefusal(keyHeader, req.headers));
    switch (behaviour.kind) {
      case "json":
        return sendJson(res, 200, behaviour.body);
      case "status":
        res.writeHead(behaviour.status, { "content-type": "application/json", ...behaviour.headers });
        return res.end(behaviour.body ?? '{"status":{"error_message":"upstream trouble"}}');
      case "garbage":
        res.writeHead(200, { "content-type": "application/json" });
        return res.end("<html>definitely not json");
      case "reset":
        return req.socket.destroy();
      case "hang":
        return; // never answers; closeAllConnections() ends it
      case "gated": {
        const body = defaultBody(url, version);
        return void behaviour.until.then(() => sendJson(res, 200, body));
      }
      case "slow": {
        const body = defaultBody(url, version);
        const timer = setTimeout(() => sendJson(res, 200, body), behaviour.delayMs);
        res.on("close", () => clearTimeout(timer));
        return;
      }
      case "nulls":
        return sendJson(res, 200, nullBody(url, version));
      case "coingeckoError": {
        const status = {
          error_code: behaviour.errorCode,
          error_message: behaviour.message ?? `CoinGecko error ${behaviour.errorCode}`,
        };
        return sendJson(res, behaviour.status, behaviour.nested ? { error: { status } } : { status });
      }
      case "default":
        // CoinGecko's answer for a coin id it does not know (what an attacker's made-up ids get).
        if (UNKNOWN_COIN.test(url.pathname.slice(PREFIX.length))) {
          return sendJson(res, 404, { error: "coin not found" });
        }
        return sendJson(res, 200, defaultBody(url, version));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = portOf(server.address());

  return {
    baseUrl: `http://127.0.0.1:${port}${PREFIX}`,
    requests,
    count: (path) =>
      path === undefined
        ? requests.length
        : requests.filter((seen) => (typeof path === "string" ? seen.path === path : path.test(seen.path)))
            .length,
    behave(next) {
      behaviour = next;
    },
    setVersion(next) {
      version = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json", "x-upstream-secret": "upstream-only" });
  res.end(JSON.stringify(body));
}

/** CoinGecko's 401 for a request without the key this host expects. */
function keyRefusal(keyHeader: string, headers: IncomingMessage["headers"]): unknown {
  const error = (error_code: number, error_message: string) => ({ status: { error_code, error_message } });
  if (keyHeader === DEMO_HEADER && headers[PRO_HEADER] !== undefined) {
    return error(10010, "If you are using Pro API key, please change your root URL to pro-api.coingecko.com");
  }
  if (keyHeader === PRO_HEADER && headers[DEMO_HEADER] !== undefined) {
    return error(10011, "If you are using Demo API key, please change your root URL to api.coingecko.com");
  }
  return error(10002, "You have provided incorrect API key credentials");
}

const T0 = 1_700_000_000_000;

/** The default answers, with CoinGecko's `null`s in them. */
function nullBody(url: URL, version: number): unknown {
  const path = url.pathname.slice(PREFIX.length);
  if (/^\/coins\/[^/]+\/(market_chart|market_chart\/range)$/.test(path)) {
    return {
      prices: [
        [T0, version * 100],
        [T0 + 300_000, null],
      ],
      market_caps: [[T0, null]],
      total_volumes: [[T0, 3e10]],
    };
  }
  if (/^\/coins\/[^/]+\/ohlc$/.test(path)) {
    return [
      [T0, 1, 2, 0.5, 1.5],
      [T0 + 1_800_000, null, null, null, null],
    ];
  }
  if (path === "/simple/price") {
    const ids = (url.searchParams.get("ids") ?? "").split(",");
    return Object.fromEntries(ids.map((id) => [id, { usd: null }]));
  }
  return defaultBody(url, version);
}

/** Coin ids the stand-in does not know: `no-such-…` (every other id answers a chart). */
const UNKNOWN_COIN = /^\/coins\/no-such-[^/]*\//;

function defaultBody(url: URL, version: number): unknown {
  const path = url.pathname.slice(PREFIX.length);
  if (path === "/ping") return { gecko_says: "(V3) To the Moon!" };
  if (/^\/coins\/[^/]+\/ohlc$/.test(path)) {
    return [[T0, version * 100, version * 110, version * 90, version * 105]];
  }
  if (path === "/simple/price") {
    const ids = (url.searchParams.get("ids") ?? "").split(",");
    const currencies = (url.searchParams.get("vs_currencies") ?? "").split(",");
    return Object.fromEntries(
      ids.map((id) => [id, Object.fromEntries(currencies.map((currency) => [currency, version * 100]))]),
    );
  }
  if (path === "/coins/markets") {
    return [
      {
        id: "bitcoin",
        symbol: "btc",
        name: "Bitcoin",
        image: "https://example.test/btc.png",
        current_price: version * 100,
        market_cap: 2e12,
        market_cap_rank: 1,
        roi: null,
        max_supply: 21e6,
        last_updated: "2026-11-22T14:00:00.000Z",
        some_future_field: { nested: true },
      },
    ];
  }
  const chart = /^\/coins\/([^/]+)\/market_chart(\/range)?$/.exec(path);
  if (chart) {
    return {
      prices: [[1_700_000_000_000, version * 100]],
      market_caps: [[1_700_000_000_000, 2e12]],
      total_volumes: [[1_700_000_000_000, 3e10]],
    };
  }
  return { error: "unknown path" };
}
