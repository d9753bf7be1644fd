import { installProcessFaultHandlers, redactText } from "@keyport/node-edge";
import { type App, createApp } from "./app.js";
import { initialisePgliteFolder } from "./db/pglite-init.js";
import { EnvError, loadEnv } from "./env.js";
import { limitHeapGrowth } from "./heap-growth.js";
import { publicUrl } from "./http/public-url.js";
import { createLogger, errorSummary } from "./logger.js";
import { paymentSettingsOf } from "./payments/settings.js";

// Entry point: `node dist/main.js` (or `tsx src/main.ts`). Exits 1 on bad settings, 0 after a graceful
// SIGTERM/SIGINT.
async function main(): Promise<void> {
  limitHeapGrowth();
  let env: ReturnType<typeof loadEnv>;
  try {
    env = loadEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(env.LOG_LEVEL);
  // From here on a rejection nothing handled is logged and counted, and the server keeps serving; an
  // uncaught exception drains and exits 1 (docs/decisions.md, "Process faults").
  let running: App | undefined;
  installProcessFaultHandlers({ logger, drain: () => running?.close() ?? Promise.resolve() });
  if (env.DATABASE_URL === undefined) {
    const started = performance.now();
    const initialised = await initialisePgliteFolder(env.DATA_DIR, {
      onStart: (folder) =>
        logger.info({ folder }, `initialising the embedded database in ${folder} (first start only)...`),
    });
    if (initialised) {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      logger.info(`embedded database initialised in ${seconds} s`);
    }
  }
  const app = await createApp(env, { logger }).catch((error: unknown) => {
    // A setting only the start can check (PLANS_FILE, DEFAULT_PLAN): one line per problem, exit 1.
    if (!(error instanceof EnvError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  });
  running = app;
  const port = await app.listen(env.PORT, env.HOST);
  const url = publicUrl(env.HOST, port);
  logger.info(
    { port, database: app.services.database.kind, url },
    // The docs' path stands alone: every URL in a log line is cut to scheme and host (docs/security.md).
    `keyport server listening on ${url} (API docs at /docs)`,
  );
  if (env.OPERATOR_WALLETS.length === 0)
    logger.info("no operator wallet: set OPERATOR_WALLETS=0x... to name one (docs/operator.md)");
  else logger.info({ operators: env.OPERATOR_WALLETS.length }, "operator wallets set (docs/operator.md)");
  const payments = paymentSettingsOf(env);
  if (payments === null) {
    logger.info({ payments: "off" }, "payments off (PAYMENTS_NETWORK is unset): top-ups answer 501");
  } else {
    logger.info(
      { payments: "on", network: payments.network, asset: payments.asset },
      `payments on, network ${payments.network}, asset ${payments.asset}`,
    );
  }

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    app.close().then(
      () => {
        logger.info("stopped");
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: errorSummary(error) }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

main().catch((error: unknown) => {
  process.stderr.write(
    // A driver's message may name the URL it could not reach: scheme and host only.
    `keyport server failed to start: ${redactText(error instanceof Error ? error.message : String(error))}\n`,
  );
  process.exit(1);
});
