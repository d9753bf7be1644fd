import type { ChatRequest } from "../schemas/chat.js";
import type {
  ChartQuery,
  ChartResponse,
  MarketsQuery,
  MarketsResponse,
  OhlcQuery,
  OhlcResponse,
  RangeQuery,
  RangeResponse,
  SimplePriceQuery,
  SimplePriceResponse,
} from "../schemas/prices.js";

/** Method and path of each proxy route; the app registers exactly these. */
export const DASHBOARD_ROUTES = {
  "prices.simple": { method: "GET", path: "/api/prices/simple" },
  "prices.markets": { method: "GET", path: "/api/prices/markets" },
  "prices.chart": { method: "GET", path: "/api/prices/chart/:id" },
  "prices.range": { method: "GET", path: "/api/prices/range/:id" },
  "prices.ohlc": { method: "GET", path: "/api/prices/ohlc/:id" },
  chat: { method: "POST", path: "/api/chat" },
} as const;

/** Route names, e.g. `"prices.simple"`. */
export type DashboardRouteName = keyof typeof DASHBOARD_ROUTES;

/**
 * What each route takes and answers, for the typed client. `query` is the wire form (strings);
 * `response` is the JSON body on 200. Chat answers with the agent's stream, not JSON.
 */
export interface DashboardRoutes {
  "prices.simple": {
    method: "GET";
    path: "/api/prices/simple";
    params: Record<never, never>;
    query: SimplePriceQuery;
    response: SimplePriceResponse;
  };
  "prices.markets": {
    method: "GET";
    path: "/api/prices/markets";
    params: Record<never, never>;
    query: MarketsQuery;
    response: MarketsResponse;
  };
  "prices.chart": {
    method: "GET";
    path: "/api/prices/chart/:id";
    params: { id: string };
    query: ChartQuery;
    response: ChartResponse;
  };
  "prices.range": {
    method: "GET";
    path: "/api/prices/range/:id";
    params: { id: string };
    query: RangeQuery;
    response: RangeResponse;
  };
  "prices.ohlc": {
    method: "GET";
    path: "/api/prices/ohlc/:id";
    params: { id: string };
    query: OhlcQuery;
    response: OhlcResponse;
  };
  chat: {
    method: "POST";
    path: "/api/chat";
    params: Record<never, never>;
    body: ChatRequest;
    response: ReadableStream<Uint8Array>;
  };
}
