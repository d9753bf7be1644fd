// @keyport/dashboard-proxy: the dashboard's own server (market data and chat proxies).

// Errors
export { ERROR_STATUS, type ErrorCode, type ErrorEnvelope, type ErrorIssue } from "@keyport/errors";
// App and settings
export { type CreateAppOptions, createApp } from "./app.js";
export { type Env, EnvError, type EnvSource, parseEnv } from "./env.js";
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
  type ChartParams,
  type ChartQuery,
  type ChartResponse,
  chartParamsSchema,
  chartQuerySchema,
  chartResponseSchema,
  MARKET_ORDERS,
  type Market,
  type MarketsParams,
  type MarketsQuery,
  type MarketsResponse,
  marketSchema,
  marketsQuerySchema,
  marketsResponseSchema,
  PRICE_CHANGE_WINDOWS,
  type SimplePriceParams,
  type SimplePriceQuery,
  type SimplePriceResponse,
  simplePriceQuerySchema,
  simplePriceResponseSchema,
} from "./schemas/prices.js";
