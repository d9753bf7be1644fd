import { createMemoryRateLimiter } from "@keyport/node-edge";
import type { Logger } from "pino";
import { createNonceLimiter } from "./auth/nonce-limit.js";
import { sessionMemoFor } from "./auth/session-memo.js";
import { createSignInLog } from "./auth/sign-in-log.js";
import { createSignInRefusals } from "./auth/sign-in-refusals.js";
import type { SiweSettings } from "./auth/siwe.js";
import { createNonceStore, createSessionStore, createSiweChecker } from "./auth/stores.js";
import type { ProcedureServices } from "./context.js";
import type { Database } from "./db/database.js";
import type { RawQuery } from "./db/raw.js";
import type { Env } from "./env.js";
import { createEventStore } from "./events/event-store.js";
import { createIntrospectionLimit } from "./introspection/client-limit.js";
import { createKeyIntrospection } from "./introspection/introspect.js";
import { topUpUrl } from "./introspection/top-up-url.js";
import { createKeyStore } from "./keys/key-store.js";
import { loadKeyByHash } from "./keys/load-key-by-hash.js";
import { hashKey, isWellFormedKey } from "./keys/secret.js";
import { createLeakService } from "./leaks/leak-service.js";
import { createSelfReportLimit } from "./leaks/self-report-limit.js";
import { createWalletLimitStore } from "./limits/wallet-limit-store.js";
import { errorSummary } from "./logger.js";
import { serverMetaOf } from "./meta/server-meta.js";
import type { LeakMetrics } from "./metrics/leaks.js";
import { createOperatorService } from "./operator/operator-service.js";
import type { TopUpService } from "./payments/top-up-service.js";
import type { PlanSettings } from "./plans/plan-rows.js";
import { createPlanStore } from "./plans/plan-store.js";
import { createUsageReader } from "./usage/read.js";
import { createKeyChanges } from "./verify/announce-key-changes.js";
import type { VerificationServices } from "./verify/verification-services.js";
import { createWalletSuspensions } from "./wallets/suspension.js";
import type { LookupAddresses } from "./webhooks/target.js";
import { createWebhookService } from "./webhooks/webhook-service.js";

/**
 * Builds the services procedures see, over the database and the verification services. `baseUrl`
 * is the server's own URL once it listens (http/public-url.ts), for the URLs answers name.
 */
export function createProcedureServices(
  env: Env,
  database: Database,
  rawQuery: RawQuery,
  siwe: SiweSettings,
  verification: VerificationServices,
  logger: Logger,
  topUps: TopUpService,
  leakMetrics: LeakMetrics,
  webhooksKey: Buffer,
  planSettings: PlanSettings,
  baseUrl: () => string | undefined = () => undefined,
  webhookLookup?: LookupAddresses,
): ProcedureServices {
  const { db } = database;
  const payments = env.PAYMENTS_NETWORK !== undefined;
  // Per-client limits draw on the shared Redis counters when there are some, else on a limiter of their own.
  const perClient = () =>
    env.REDIS_URL === undefined ? createMemoryRateLimiter() : verification.rateLimiter;
  return {
    keys: createKeyStore({
      db,
      driver: database.driver,
      changes: createKeyChanges(verification.cache),
      prefix: env.KEY_PREFIX,
      maxActiveKeys: env.MAX_ACTIVE_KEYS_PER_WALLET,
      balances: verification.balances,
      liveCredits: verification.liveCredits,
    }),
    events: createEventStore(db),
    limits: createWalletLimitStore({ db, changes: createKeyChanges(verification.cache) }),
    sessions: createSessionStore(db, env.SESSION_TTL_SECONDS, sessionMemoFor(database)),
    // Nonces draw on the shared Redis counters when there are some; in-process, on a limiter of their
    // own, so a flood of client addresses can never push verification's key windows out of its map.
    nonces: createNonceStore(
      db,
      createNonceLimiter(
        env.REDIS_URL === undefined ? createMemoryRateLimiter() : verification.rateLimiter,
        env.NONCE_RATE_LIMIT,
      ),
    ),
    siwe: createSiweChecker(siwe),
    signInLog: createSignInLog(logger),
    // Like nonces: the shared Redis counters, or a limiter of their own in this process.
    signInRefusals: createSignInRefusals(
      env.REDIS_URL === undefined ? createMemoryRateLimiter() : verification.rateLimiter,
      env.NONCE_RATE_LIMIT,
    ),
    usage: createUsageReader(db, rawQuery),
    // Verification's windows and balances, read only; its own per-client budget, like nonces.
    introspection: createKeyIntrospection({
      isWellFormed: (key) => isWellFormedKey(key, env.KEY_PREFIX),
      hashKey,
      loadKeyByHash: (hash) => loadKeyByHash(db, hash, planSettings.defaultPlanId),
      limits: verification.limits,
      credits: verification.credits,
      limit: createIntrospectionLimit(perClient(), env.NONCE_RATE_LIMIT),
      topUpUrl: (keyId, canBeToppedUp) =>
        topUpUrl({ paymentsEnabled: payments, baseUrl: baseUrl(), keyId, canBeToppedUp }),
    }),
    leaks: createLeakService({
      db,
      changes: createKeyChanges(verification.cache),
      prefix: env.KEY_PREFIX,
      selfReportLimit: createSelfReportLimit(perClient(), env.NONCE_RATE_LIMIT),
      metrics: leakMetrics,
    }),
    verifier: verification.verifier,
    limitWindows: verification.limits,
    topUps,
    publicUrl: () => baseUrl() ?? env.PUBLIC_URL ?? `http://localhost:${env.PORT}`,
    webhooks: createWebhookService({
      db,
      key: webhooksKey,
      allowPrivate: env.WEBHOOKS_ALLOW_PRIVATE,
      ...(webhookLookup === undefined ? {} : { lookup: webhookLookup }),
    }),
    operators: createOperatorService({
      db,
      keyPrefix: env.KEY_PREFIX,
      operatorWallets: env.OPERATOR_WALLETS,
      onBackgroundError: (error) =>
        logger.warn({ err: errorSummary(error) }, "operator token last use not recorded"),
    }),
    suspensions: createWalletSuspensions({
      db,
      changes: createKeyChanges(verification.cache),
      memo: sessionMemoFor(database),
    }),
    meta: serverMetaOf(env),
    plans: createPlanStore({
      db,
      settings: planSettings,
      changes: createKeyChanges(verification.cache),
      cache: verification.cache,
    }),
  };
}
