import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { portOf } from "@keyport/test-support/port";

/** A CoinGecko stand-in on 127.0.0.1 with a few coins, 7-day sparklines and price charts. */
export interface MarketStandIn {
  /** COINGECKO_BASE_URL for the proxy (ends in /api/v3). */
  baseUrl: string;
  /** Paths and queries asked for, e.g. `/coins/markets?vs_currency=usd`, in order. */
  requests: string[];
  close(): Promise<void>;
}

const COINS = [
  { id: "bitcoin", symbol: "btc", name: "Bitcoin", price: 97_250.12, cap: 1.93e12, change: 1.84 },
  { id: "ethereum", symbol: "eth", name: "Ethereum", price: 3_412.5, cap: 4.11e11, change: -0.92 },
  { id: "solana", symbol: "sol", name: "Solana", price: 241.08, cap: 1.15e11, change: 4.31 },
  { id: "dogecoin", symbol: "doge", name: "Dogecoin", price: 0.3811, cap: 5.6e10, change: -2.7 },
  { id: "shiba-inu", symbol: "shib", name: "Shiba Inu", price: 0.00002431, cap: 1.43e10, change: 0.05 },
] as const;

const HOUR_MS = 3_600_000;

// A smooth, deterministic walk around `price`: the same picture on every run (screenshots).
function walk(price: number, points: number, seed: number): number[] {
  return Array.from(
    { length: points },
    (_, index) => price * (1 + 0.04 * Math.sin((index + seed * 7) / 9) + 0.015 * Math.cos(index / 3 + seed)),
  );
}

function markets(url: URL): unknown {
  const ids = url.searchParams.get("ids")?.split(",");
  const sparkline = url.searchParams.get("sparkline") === "true";
  return COINS.filter((coin) => ids === undefined || ids.includes(coin.id)).map((coin, rank) => ({
    id: coin.id,
    symbol: coin.symbol,
    name: coin.name,
    current_price: coin.price,
    market_cap: coin.cap,
    market_cap_rank: rank + 1,
    price_change_percentage_24h: coin.change,
    last_updated: "2026-11-22T14:00:00.000Z",
    ...(sparkline ? { sparkline_in_7d: { price: walk(coin.price, 168, rank) } } : {}),
  }));
}

function chart(id: string, url: URL): unknown {
  const coin = COINS.find((candidate) => candidate.id === id);
  if (coin === undefined) return undefined;
  const days = url.searchParams.get("days") === "max" ? 3_650 : Number(url.searchParams.get("days") ?? "1");
  const points = Math.min(365, Math.max(24, days));
  const step = (days * 24 * HOUR_MS) / points;
  const end = Date.UTC(2026, 10, 22, 14);
  const prices = walk(coin.price, points, days).map((price, index) => [
    end - (points - 1 - index) * step,
    price,
  ]);
  return {
    prices,
    market_caps: prices.map(([time]) => [time, coin.cap]),
    total_volumes: prices.map(([time]) => [time, coin.cap / 40]),
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** Starts the stand-in; it answers `/coins/markets`, `/coins/{id}/market_chart` and `/ping`. */
export async function startMarketStandIn(): Promise<MarketStandIn> {
  const requests: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://stand-in");
    const path = url.pathname.replace(/^\/api\/v3/, "");
    requests.push(`${path}${url.search}`);
    if (path === "/ping") return send(res, 200, { gecko_says: "(V3) To the Moon!" });
    if (path === "/coins/markets") return send(res, 200, markets(url));
    const id = /^\/coins\/([^/]+)\/market_chart$/.exec(path)?.[1];
    const body = id === undefined ? undefined : chart(id, url);
    if (body === undefined) return send(res, 404, { error: "coin not found" });
    return send(res, 200, body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = portOf(server.address());
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v3`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
