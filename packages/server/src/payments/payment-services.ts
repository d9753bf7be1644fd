import type { Logger } from "pino";
import type { BalanceWriter } from "../credits/balance-writer.js";
import type { LiveCredits } from "../credits/overlay-live.js";
import type { Db } from "../db/database.js";
import type { Env } from "../env.js";
import { errorSummary } from "../logger.js";
import type { PaymentMetrics } from "../metrics/payments.js";
import { createPaymentChain } from "./chain.js";
import { createSettlerSigner } from "./evm-signer.js";
import { createPaymentRunner } from "./payment-runner.js";
import { createPaymentStore } from "./payment-store.js";
import { startPaymentReconciler } from "./reconcile.js";
import { MAX_TIMEOUT_SECONDS, paymentSettingsOf } from "./settings.js";
import type { Settler } from "./settler.js";
import { createInProcessSettler } from "./settler-in-process.js";
import { createUrlSettler } from "./settler-url.js";
import { createTopUps } from "./top-up.js";
import { createTopUpService, type TopUpService } from "./top-up-service.js";

export interface PaymentServicesOptions {
  env: Env;
  db: Db;
  balances: BalanceWriter;
  liveCredits: LiveCredits | undefined;
  metrics: PaymentMetrics;
  logger: Logger;
}

/**
 * The top-up service, and when payments are on (PAYMENTS_NETWORK) the reconciler of open payments,
 * started now: call `stop()` at shutdown.
 */
export function createPaymentServices(options: PaymentServicesOptions): {
  topUps: TopUpService;
  stop(): Promise<void>;
} {
  const { env, db, balances, liveCredits, metrics, logger } = options;
  const settings = paymentSettingsOf(env);
  if (settings === null) {
    return { topUps: createTopUpService(db, null, liveCredits), stop: async () => undefined };
  }
  const settler: Settler =
    settings.settlement.kind === "url"
      ? createUrlSettler(settings.settlement.url)
      : createInProcessSettler(
          settings,
          createSettlerSigner({
            privateKey: settings.settlement.privateKey,
            rpcUrl: settings.rpcUrl,
            chainId: settings.chainId,
            // A receipt is polled for a few times a block on a local chain, once a block on Base.
            pollingIntervalMs: 250,
            confirmationTimeoutMs: MAX_TIMEOUT_SECONDS * 1000,
          }),
        );
  const store = createPaymentStore(db);
  const chain = createPaymentChain(settings);
  const runner = createPaymentRunner({ db, balances, store, chain, settler });
  const topUps = createTopUps({
    settings,
    store,
    chain,
    settler,
    runner,
    metrics,
    // The payment stays open: the reconciler takes it up once its lock lapses.
    onLateError: (error) => logger.warn({ err: errorSummary(error) }, "top-up failed after its answer"),
  });
  const reconciler = startPaymentReconciler(store, runner, metrics, logger);
  return { topUps: createTopUpService(db, topUps, liveCredits), stop: () => reconciler.stop() };
}
