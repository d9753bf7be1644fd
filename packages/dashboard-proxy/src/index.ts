// @keyport/dashboard-proxy: the dashboard's own server (market data and chat proxies).

// Errors
export { ERROR_STATUS, type ErrorCode, type ErrorEnvelope, type ErrorIssue } from "@keyport/errors";
// App and settings
export { type CreateAppOptions, closeApp, createApp } from "./app.js";
export { type Env, EnvError, type EnvSource, parseEnv } from "./env.js";
export { type ServeOptions, serveApp } from "./http/serve.js";
// Routes, for the typed client
export { DASHBOARD_ROUTES, type DashboardRouteName, type DashboardRoutes } from "./routes/table.js";
// Chat schemas and types
export {
  CHAT_EVENTS,
  type ChatMessage,
  type ChatRequest,
  chatDeltaSchema,
  chatMessageSchema,
  chatRequestSchema,
  MAX_BODY_BYTES,
} from "./schemas/chat.js";
// Coin id rule
export { COIN_ID_PATTERN, coinIdSchema } from "./schemas/common.js";
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
} from "./schemas/prices.js";
// The start-up check of CoinGecko's key and host (run after listening)
export { runStartupCheck, type StartupCheckResult } from "./upstream/startup-check.js";
