// @keyport/client: typed clients of the Keyport server and the dashboard proxy.

// Proxy request and response types
export type {
  ChartQuery,
  ChartResponse,
  ChatMessage,
  ChatRequest,
  Market,
  MarketsQuery,
  MarketsResponse,
  OhlcQuery,
  OhlcResponse,
  RangeQuery,
  RangeResponse,
  SimplePriceQuery,
  SimplePriceResponse,
} from "@keyport/dashboard-proxy/schemas";
// Errors (@keyport/errors, bundled into this package's build)
export {
  type ErrorIssue as KeyportErrorIssue,
  KeyportError,
  type KeyportErrorCode,
  type KeyportErrorInit,
} from "@keyport/errors";
// Dashboard proxy
export {
  type ChatStreamOptions,
  createDashboardClient,
  type DashboardClient,
  type DashboardClientOptions,
} from "./dashboard-client.js";
// Keyport server (tRPC): tRPC's own client plus signIn, and the parts to build one by hand
export {
  createKeyportClient,
  type KeyportClient,
  type KeyportClientOptions,
  type KeyportSignInMethod,
} from "./keyport-client.js";
export {
  type KeyportLinkOptions,
  keyportLinks,
  MAX_BATCH_ITEMS,
  type TokenResult,
  transformer,
} from "./links.js";
export { type KeyportSession, type SignInOptions, type SiweSigner, signIn } from "./sign-in.js";
export { toKeyportError } from "./trpc-error.js";
// Server types
export type {
  ApiKey,
  AppRouter,
  Introspection,
  KeyEvent,
  Plan,
  RateLimitUse,
  RecentVerification,
  RouterInputs,
  RouterOutputs,
  Usage,
  Verification,
  WalletAccount,
} from "./types.js";
