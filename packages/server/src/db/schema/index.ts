// Every table drizzle knows about; drizzle-kit reads this file to generate migrations.
export { type ApiKeyRow, apiKeys } from "./api-keys.js";
export { creditJournalMarks } from "./credit-journal-marks.js";
export { type KeyCreditsRow, keyCredits } from "./key-credits.js";
export { keyEvents } from "./key-events.js";
export { keyVerifications } from "./key-verifications.js";
export { type OperatorEventRow, operatorEvents } from "./operator-events.js";
export { type OperatorTokenRow, operatorTokens } from "./operator-tokens.js";
export { type PaymentRow, payments } from "./payments.js";
export { sessions } from "./sessions.js";
export { siweNonces } from "./siwe-nonces.js";
export { usageHourly } from "./usage.js";
export { usageDaily } from "./usage-daily.js";
export { walletActiveKeys } from "./wallet-active-keys.js";
export { walletLimits } from "./wallet-limits.js";
export { type WalletRow, wallets } from "./wallets.js";
export { type WebhookDeliveryRow, webhookDeliveries } from "./webhook-deliveries.js";
export { type WebhookMessageRow, webhookMessages } from "./webhook-messages.js";
export { type WebhookRow, webhooks } from "./webhooks.js";
