import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "./routers/_app.js";

// Types for clients (import with `import type`).
export type { AppRouter } from "./routers/_app.js";
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;

// Running the server in-process.
export { type App, type CreateAppOptions, createApp } from "./app.js";
// What createApp's options take, for tests that open the database or capture the log themselves.
export { createDatabase, type Database } from "./db/database.js";
export { type Env, parseEnv } from "./env.js";
export { createLogger } from "./logger.js";
// The router itself, for checks that walk its procedures (the proxy's forward table).
export { appRouter } from "./routers/_app.js";
export type { AppProcedurePath } from "./routers/procedure-paths.js";
// Schemas: the single source of the API's shapes.
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
} from "./schemas/api-key.js";
export { nonceOutput, verifyInput, verifyOutput } from "./schemas/auth.js";
export { keyId, wallet, walletInput } from "./schemas/common.js";
export { type ErrorEnvelope, errorEnvelope } from "./schemas/error.js";
export {
  type LimitCost,
  limitCost,
  type NamedRateLimit,
  namedRateLimit,
  type RateLimit,
  rateLimit,
  rateLimitList,
} from "./schemas/rate-limits.js";
export { type Usage, type UsageInput, usage, usageCounts, usageInput } from "./schemas/usage.js";
export {
  type Verification,
  type VerifyKeyInput,
  verification,
  verificationRateLimit,
  verifyKeyInput,
} from "./schemas/verification.js";
