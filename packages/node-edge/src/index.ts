// @keyport/node-edge: what Keyport's two Node servers (packages/server and packages/dashboard-proxy)
// share at their HTTP edge and in Redis.

// The client's address behind trusted proxies (TRUSTED_PROXIES)
export {
  clientAddress,
  createTrustedProxies,
  isTrustedProxyEntry,
  requestClientAddress,
  type TrustedProxies,
} from "./client-ip.js";
export { clientLimitKey } from "./client-key.js";
// IPv4 inside IPv6: the one rule for every embedding form
export {
  type EmbeddedIpv4,
  type EmbeddingForm,
  embeddedIpv4,
  ipv6Groups,
  unmappedIpv4,
} from "./embedded-ipv4.js";
// Rate limits: fixed windows aligned to the epoch, in this process or shared through Redis
export { createFallbackRateLimiter } from "./fallback-rate-limiter.js";
// Metrics: HTTP requests and who may read /metrics
export { createHttpMetrics, type HttpMetrics, type HttpMetricsOptions } from "./http-metrics.js";
// JSON bodies: how deep they may nest
export { JSON_TOO_DEEP, jsonDeeperThan, MAX_JSON_DEPTH } from "./json-depth.js";
// Logs
export { errorSummary, logHooks, logRedaction, redactLogValue } from "./log-redaction.js";
export {
  createMemoryRateLimiter,
  type MemoryRateLimiter,
  type MemoryRateLimiterOptions,
} from "./memory-rate-limiter.js";
export {
  createMetricsAccess,
  isLoopback,
  type MetricsAccess,
  type MetricsRequest,
} from "./metrics-access.js";
// The process's handlers of unhandled rejections and uncaught exceptions
export {
  type FaultLogger,
  installProcessFaultHandlers,
  type ProcessFaultOptions,
  registerProcessFaultMetrics,
} from "./process-faults.js";
export type { RateLimiter, RateLimitResult } from "./rate-limiter.js";
export { redactText, redactUrl } from "./redact-url.js";
export { createRedisRateLimiter, type RedisRateLimiterOptions } from "./redis-rate-limiter.js";
// Redis Lua scripts
export { defineScript, integerReply, type RedisScript, runScript } from "./redis-script.js";
// A paid top-up's one time budget, shared by the server and the proxy
export {
  TOP_UP_BUDGET_MS,
  TOP_UP_FORWARD_MS,
  TOP_UP_MARGIN_MS,
  TOP_UP_SERVER_MS,
  TOP_UP_TIMEOUT_MESSAGE,
} from "./top-up-budget.js";
export { windowStart } from "./window.js";
export {
  createWindowLimit,
  type LimitVerdict,
  type WindowLimit,
  type WindowLimitOptions,
} from "./window-limit.js";
// Connections holding bytes their client does not read
export { applyWriteTimeout, WRITE_TIMEOUT_MS } from "./write-timeout.js";
