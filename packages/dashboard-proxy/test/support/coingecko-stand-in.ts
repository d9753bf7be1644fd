import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { portOf } from "./port.js";

/** What the stand-in does with one request; tests switch it at will. */
export type Behaviour =
  | { kind: "default" }
  | { kind: "json"; body: unknown }
  | { kind: "status"; status: number; headers?: Record<string, string>; body?: string }
  | { kind: "garbage" }
  | { kind: "reset" }
  | { kind: "hang" }
  /** The default answer, held until `until` resolves. */
  | { kind: "gated"; until: Promise<void> };

/** One request the stand-in received. */
export interface SeenRequest {
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
}

/** A CoinGecko stand-in on 127.0.0.1 that counts requests and checks the key header. */
export interface CoinGeckoStandIn {
  /** Base URL to use as COINGECKO_BASE_URL (ends in /api/v3). */
  baseUrl: string;
  requests: SeenRequest[];
  /** Sets how the next requests are answered. */
  behave(behaviour: Behaviour): void;
  /** A value the default answers carry, so tests can tell one upstream answer from the next. */
  setVersion(version: number): void;
  close(): Promise<void>;
}

const PREFIX = "/api/v3";

/**
 * Starts the stand-in. Requests without `keyHeader: key` get a 401 like CoinGecko's; by default
 * `/simple/price`, `/coins/markets` and `/coins/{id}/market_chart` answer CoinGecko-shaped JSON,
 * plus the upstream-only header `x-upstream-secret` that must never pass through.
 */
export async function startCoinGecko(keyHeader: string, key: string): Promise<CoinGeckoStandIn> {
  const requests: SeenRequest[] = [];
  let behaviour: Behaviour = { kind: "default" };
  let version = 1;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://stand-in");
    requests.push({ path: url.pathname.slice(PREFIX.length), query: url.searchParams, headers: req.headers });
    if (req.headers[keyHeader] !== key) return sendJson(res, 401, { error: "missing or wrong key" });
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
      case "default":
        return sendJson(res, 200, defaultBody(url, version));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = portOf(server.address());

  return {
    baseUrl: `http://127.0.0.1:${port}${PREFIX}`,
    requests,
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

function defaultBody(url: URL, version: number): unknown {
  const path = url.pathname.slice(PREFIX.length);
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
  const chart = /^\/coins\/([^/]+)\/market_chart$/.exec(path);
  if (chart) {
    return {
      prices: [[1_700_000_000_000, version * 100]],
      market_caps: [[1_700_000_000_000, 2e12]],
      total_volumes: [[1_700_000_000_000, 3e10]],
    };
  }
  return { error: "unknown path" };
}
