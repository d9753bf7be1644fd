// @keyport/dashboard-proxy/schemas: the proxy's zod schemas, constants and types, without its server.
// Only zod is imported from here down, so a dashboard can load this entry without h3 or pino.

// Chat schemas and types
export {
  CHAT_EVENTS,
  type ChatMessage,
  type ChatRequest,
  chatDeltaSchema,
  chatMessageSchema,
  chatRequestSchema,
  MAX_BODY_BYTES,
} from "./chat.js";
// Coin id rule
export { COIN_ID_PATTERN, coinIdSchema } from "./common.js";
// Market data schemas and types
export {
  CHART_DAYS,
  CHART_INTERVALS,
  type ChartParams,
  type ChartQuery,
  type ChartResponse,
  chartParamsSchema,
  chartQuerySchema,
  chartResponseSchema,
  INCLUDE_TOKENS,
  MARKET_LOCALES,
  MARKET_ORDERS,
  type Market,
  type MarketsParams,
  type MarketsQuery,
  type MarketsResponse,
  marketSchema,
  marketsQuerySchema,
  marketsResponseSchema,
  OHLC_DAYS,
  OHLC_INTERVALS,
  type OhlcParams,
  type OhlcQuery,
  type OhlcResponse,
  ohlcQuerySchema,
  ohlcResponseSchema,
  PRICE_CHANGE_WINDOWS,
  type RangeParams,
  type RangeQuery,
  type RangeResponse,
  rangeQuerySchema,
  type SimplePriceParams,
  type SimplePriceQuery,
  type SimplePriceResponse,
  simplePriceQuerySchema,
  simplePriceResponseSchema,
} from "./prices.js";
