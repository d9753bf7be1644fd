// The API's zod schemas and their bounds, for the server and for clients that validate before a round
// trip (the dashboard's forms). Browser-safe: these files import zod and viem only (browser-safe.test.ts).

export {
  type ApiKey,
  type ApiKeyStatus,
  apiKey,
  apiKeyStatus,
  createKeyInput,
  createKeyOutput,
  getKeyInput,
  getKeyOutput,
  listKeysInput,
  listKeysOutput,
  revokeKeyInput,
  revokeKeyOutput,
  rollKeyInput,
  rollKeyOutput,
  type UpdateKeyInput,
  updateKeyInput,
  updateKeyOutput,
} from "./api-key.js";
// Sign-in.
export {
  endOtherSessionsOutput,
  endSessionInput,
  endSessionOutput,
  logoutOutput,
  nonceOutput,
  SESSION_ID_PATTERN,
  sessionId,
  sessionOutput,
  sessionsOutput,
  verifyInput,
  verifyOutput,
  type WalletSession,
  walletSession,
} from "./auth.js";
// Common shapes.
export {
  KEY_ID_PATTERN,
  keyId,
  MAX_PAGE_LIMIT,
  nextCursor,
  noInput,
  pageCursor,
  pageLimit,
  timestamp,
  timestampInput,
  wallet,
  walletInput,
} from "./common.js";
// Errors.
export { type ErrorEnvelope, errorEnvelope } from "./error.js";
// Introspection.
export {
  type Introspection,
  type IntrospectionCredits,
  introspection,
  introspectionCredits,
  introspectionRateLimit,
  introspectKeyInput,
} from "./introspection.js";
// IP addresses and allow-list entries.
export { parseIp } from "./ip-address.js";
export { MAX_ALLOWED_IPS, normaliseIpBlock } from "./ip-block.js";
// Audit events.
export {
  KEY_EVENT_ACTIONS,
  type KeyEvent,
  type KeyEventAction,
  keyEvent,
  keyEventAction,
  listEventsInput,
  listEventsOutput,
} from "./key-event.js";
// Keys.
export { keyName, MAX_KEY_NAME_LENGTH } from "./key-name.js";
export {
  allowedIps,
  type Credits,
  type CreditsInput,
  type CreditsRefill,
  cost,
  credits,
  creditsInput,
  creditsRefill,
  ipAddress,
  jsonBytes,
  type KeyMeta,
  MAX_CREDITS,
  MAX_META_BYTES,
  MAX_PERMISSION_LENGTH,
  MAX_PERMISSIONS,
  meta,
  permission,
  permissions,
} from "./key-policy.js";
// A key's rate limits with their live use.
export {
  keyRateLimitUseInput,
  keyRateLimitUseOutput,
  type RateLimitUse,
  rateLimitUse,
} from "./key-rate-limit-use.js";
// A key's recent verifications.
export {
  keyVerificationsInput,
  keyVerificationsOutput,
  RECENT_VERIFICATIONS_KEPT,
  type RecentVerification,
  recentVerification,
} from "./key-verifications.js";
// GET /meta: what a client may know about the server before signing in.
export { type ServerMeta, serverMeta } from "./meta.js";
// Rate limits.
export {
  DEFAULT_LIMIT_NAME,
  type LimitCost,
  limitCost,
  limitName,
  MAX_LIMIT_COST,
  MAX_RATE_LIMIT,
  MAX_RATE_LIMIT_WINDOW_SECONDS,
  MAX_RATE_LIMITS,
  type NamedRateLimit,
  namedRateLimit,
  type RateLimit,
  rateLimit,
  rateLimitList,
} from "./rate-limits.js";
// Usage.
export { type Usage, type UsageCounts, type UsageInput, usage, usageCounts, usageInput } from "./usage.js";
// Verification.
export {
  MAX_VERIFY_KEY_LENGTH,
  VERIFICATION_CODES,
  type Verification,
  type VerificationCode,
  type VerifyKeyInput,
  verification,
  verificationRateLimit,
  verifyKeyInput,
} from "./verification.js";
// Wallets' limits.
export {
  getWalletLimitsInput,
  setWalletLimitsInput,
  type WalletLimits,
  walletLimits,
} from "./wallet-limits.js";
// Webhooks.
export {
  type CreateWebhookInput,
  createWebhookInput,
  deleteWebhookOutput,
  listWebhookDeliveriesOutput,
  listWebhooksInput,
  listWebhooksOutput,
  MAX_WEBHOOK_DELIVERIES_LISTED,
  MAX_WEBHOOK_DESCRIPTION_LENGTH,
  MAX_WEBHOOK_URL_LENGTH,
  MAX_WEBHOOKS_PER_WALLET,
  redeliverWebhookInput,
  type UpdateWebhookInput,
  updateWebhookInput,
  updateWebhookOutput,
  WEBHOOK_EVENT_TYPES,
  type Webhook,
  type WebhookDelivery,
  type WebhookEventType,
  webhook,
  webhookDelivery,
  webhookDeliveryId,
  webhookDeliveryOutput,
  webhookDescription,
  webhookEvents,
  webhookEventType,
  webhookId,
  webhookInput,
  webhookUrl,
  webhookWithSecret,
} from "./webhook.js";
