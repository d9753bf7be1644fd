import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { answerClientError } from "@keyport/errors";
import { applyWriteTimeout, createTrustedProxies, WRITE_TIMEOUT_MS } from "@keyport/node-edge";
import type { Logger } from "pino";
import { startExpirySweep, sweepExpired } from "./auth/expiry-sweep.js";
import { checkRpcChain } from "./auth/rpc-chain.js";
import { createSiweSettings } from "./auth/siwe.js";
import type { Services } from "./context.js";
import { createDatabase, type Database } from "./db/database.js";
import { createRawQuery } from "./db/raw.js";
import type { Env } from "./env.js";
import type { FastRoute } from "./http/fast-route.js";
import { createRequestHandler } from "./http/handler.js";
import { createOpenApiDocument } from "./http/openapi.js";
import { publicUrl } from "./http/public-url.js";
import { compileRestRoutes } from "./http/rest.js";
import { createGracefulShutdown } from "./http/shutdown.js";
import { verifyRoute } from "./http/verify-route.js";
import { createLeakRoutes } from "./leaks/leak-routes.js";
import { createLogger, errorSummary } from "./logger.js";
import { createServerMetrics } from "./metrics/server-metrics.js";
import { createPaymentsCsvRoute, PAYMENTS_CSV_ROUTE } from "./operator/payments-csv-route.js";
import { createPaymentServices } from "./payments/payment-services.js";
import { loadPlansFile, preparePlans } from "./plans/prepare-plans.js";
import { createProcedureServices } from "./procedure-services.js";
import { appRouter } from "./routers/_app.js";
import { REST_ROUTES } from "./routers/rest.js";
import { createVerificationServices } from "./verify/verification-services.js";
import type { DeliverySettings } from "./webhooks/delivery-settings.js";
import { startWebhookDispatcher } from "./webhooks/dispatcher.js";
import { resolveWebhooksKey } from "./webhooks/encryption-key.js";
import { createExpiryEvents } from "./webhooks/expiry-events.js";
import { deleteOldWebhookMessages, webhookRetentionCutoff } from "./webhooks/retention.js";
import type { ResolveHost } from "./webhooks/send-address.js";

export interface CreateAppOptions {
  /** Use this database instead of opening `env.DATABASE_URL`; the app then leaves closing it to the caller. */
  database?: Database;
  logger?: Logger;
  /** Exact `"METHOD /path"` handlers dispatched before everything else (added to the app's own `POST /api-keys/verify`). */
  fastRoutes?: ReadonlyMap<string, FastRoute>;
  /** How long `close()` waits for in-flight requests before dropping connections. */
  shutdownTimeoutMs?: number;
  /** Overrides of `HTTP_TIMEOUTS` (tests use short ones). */
  httpTimeouts?: Partial<HttpTimeouts>;
  /**
   * How long a connection may hold bytes its client does not read, with no progress, before it is
   * reset (`WRITE_TIMEOUT_MS`, 20 s; tests use short ones).
   */
  writeTimeoutMs?: number;
  /** How webhook URLs' host names resolve, at create and at send (the system resolver; tests stand in for DNS). */
  webhookResolve?: ResolveHost;
  /** Overrides of the outbox's delivery settings (webhooks/delivery-settings.ts; tests slow its poll). */
  webhookDelivery?: Partial<DeliverySettings>;
}

/** node:http's timeouts, in milliseconds, as its `createServer` options name them. */
export interface HttpTimeouts {
  /** The whole header block must arrive within this (else 408 and the connection closes). */
  headersTimeout: number;
  /** The whole request, body included, must arrive within this; a long response is not cut. */
  requestTimeout: number;
  /** An idle keep-alive connection closes after this. */
  keepAliveTimeout: number;
  /** How often node checks the two above (30 s by default, which would let them run 30 s late). */
  connectionsCheckingInterval: number;
}

/**
 * The server's timeouts (docs/decisions.md#the-servers-http-edge): a client sending one byte a second cannot hold a
 * connection for Node's defaults (60 s of headers, 300 s of request).
 */
export const HTTP_TIMEOUTS: HttpTimeouts = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
  connectionsCheckingInterval: 1_000,
};

/** A built, not yet listening server. */
export interface App {
  server: Server;
  services: Services;
  /** Starts listening; resolves with the bound port (useful with port 0). */
  listen(port: number, host?: string): Promise<number>;
  /** Registers a hook that `close()` runs, in registration order, after requests drain and before the database closes. */
  onShutdown(hook: () => Promise<void> | void): void;
  /** Stops accepting, lets in-flight requests finish, runs the shutdown hooks, closes the database. Idempotent. */
  close(): Promise<void>;
}

/**
 * Builds the database (migrated), the verification services (key cache fed by LISTEN/NOTIFY, rate
 * limiter, usage buffer), the router, the node HTTP server and the sweep of expired nonces and
 * sessions (every SWEEP_INTERVAL_MS), without listening. `close()` stops HTTP (in-flight requests
 * finish), stops the sweep, flushes usage, stops listening, quits Redis, closes the database.
 * @example
 * const app = await createApp(parseEnv({ DATABASE_URL: "memory:" }));
 * const port = await app.listen(0, "127.0.0.1");
 * await app.close();
 */
export async function createApp(env: Env, options: CreateAppOptions = {}): Promise<App> {
  const logger = options.logger ?? createLogger(env.LOG_LEVEL);
  // Before anything is opened: a node on the wrong chain refuses the start (see auth/rpc-chain.ts).
  const siwe = createSiweSettings(env, logger);
  await checkRpcChain(siwe, logger);
  const webhooksKey = await resolveWebhooksKey(env);
  // A bad PLANS_FILE refuses the start before anything is opened (docs/plans.md#plans_file).
  const plansFile = await loadPlansFile(env);
  const database = options.database ?? (await createDatabase(env.DATABASE_URL, env.DATA_DIR));
  const planSettings = await preparePlans(database.db, env, plansFile).catch(async (error: unknown) => {
    if (!options.database) await database.close();
    throw error;
  });
  const rawQuery = createRawQuery(database.driver);
  const metrics = createServerMetrics(database);
  const verification = await createVerificationServices(
    env,
    database,
    rawQuery,
    logger,
    metrics,
    planSettings.defaultPlanId,
  ).catch(async (error: unknown) => {
    if (!options.database) await database.close();
    throw error;
  });
  metrics.watch({ cache: verification.cache, usage: verification.usage });
  // Known once `listen` has bound a port (port 0 picks one).
  let baseUrl: string | undefined;
  // Reconciles payments left open (a process killed mid-settlement) from now on (docs/payments.md).
  const payments = createPaymentServices({
    env,
    db: database.db,
    balances: verification.balances,
    liveCredits: verification.liveCredits,
    metrics: metrics.payments,
    logger,
  });
  const services: Services = {
    database,
    env,
    logger,
    verification,
    trustedProxies: createTrustedProxies(env.TRUSTED_PROXIES),
    webhooksKey,
    procedures: createProcedureServices(
      env,
      database,
      rawQuery,
      siwe,
      verification,
      logger,
      payments.topUps,
      metrics.leaks,
      webhooksKey,
      planSettings,
      () => baseUrl,
      options.webhookResolve,
    ),
  };
  const restRoutes = compileRestRoutes(REST_ROUTES);
  const openApiDocument = createOpenApiDocument(appRouter, REST_ROUTES, { version: "0.1.0" });
  const handler = createRequestHandler({
    router: appRouter,
    services,
    restRoutes,
    openApiDocument,
    metrics,
    fastRoutes: new Map([["POST /api-keys/verify", verifyRoute], ...(options.fastRoutes ?? [])]),
    rawRoutes: new Map([
      ...createLeakRoutes(env, services.procedures.leaks, verification, metrics.leaks, logger),
      [PAYMENTS_CSV_ROUTE, createPaymentsCsvRoute(services.procedures)],
    ]),
  });
  const server = createServer({ ...HTTP_TIMEOUTS, ...options.httpTimeouts });
  const graceful = createGracefulShutdown(server, handler);
  server.on("clientError", answerClientError);
  // Every route, assets included: a client that stops reading cannot hold the socket (docs/decisions.md).
  applyWriteTimeout(server, options.writeTimeoutMs ?? WRITE_TIMEOUT_MS);
  // Nothing else ever deletes nonces and sessions that can no longer be used.
  // Every instance sends key.expiring and key.expired; each notice exists once (expiry-events.ts).
  const expiryEvents = createExpiryEvents(database.db);
  const sweep = startExpirySweep({
    sweep: async () => {
      const now = new Date();
      const days = env.EVENTS_RETENTION_DAYS;
      const eventsBefore = days === null ? null : new Date(now.getTime() - days * 86_400_000);
      const counts = await sweepExpired(database.db, now, { eventsBefore });
      const webhookMessages = await deleteOldWebhookMessages(
        database.db,
        webhookRetentionCutoff(now, days),
        now,
      );
      return { ...counts, webhookMessages, expiryNotices: await expiryEvents.sweep(now) };
    },
    intervalMs: env.SWEEP_INTERVAL_MS,
    logger,
  });
  // Every instance delivers the webhook outbox (docs/webhooks.md, "Delivery").
  const webhookDispatcher = startWebhookDispatcher({
    db: database.background.db,
    query: createRawQuery(database.background.driver),
    key: webhooksKey,
    allowPrivate: env.WEBHOOKS_ALLOW_PRIVATE,
    logger,
    metrics: metrics.webhooks,
    ...(options.webhookResolve === undefined ? {} : { resolve: options.webhookResolve }),
    ...options.webhookDelivery,
  });
  // The sweep stops first; usage is flushed (awaited) before anything it writes through is closed.
  const hooks: (() => Promise<void> | void)[] = [
    () => sweep.stop(),
    () => webhookDispatcher.stop(),
    () => payments.stop(),
    ...verification.shutdownSteps.map((step) => step.run),
  ];
  let closing: Promise<void> | undefined;

  async function shutdown(): Promise<void> {
    if (server.listening) await graceful.close(options.shutdownTimeoutMs ?? 10_000);
    for (const hook of hooks) {
      try {
        await hook();
      } catch (error) {
        logger.error({ err: errorSummary(error) }, "shutdown hook failed");
      }
    }
    if (!options.database) await database.close();
  }

  return {
    server,
    services,
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, host, () => {
          server.off("error", reject);
          const address: AddressInfo | string | null = server.address();
          const bound = typeof address === "object" && address !== null ? address.port : port;
          baseUrl = env.PUBLIC_URL ?? publicUrl(host, bound);
          resolve(bound);
        });
      }),
    onShutdown: (hook) => {
      // Before the app's own steps, so a hook can still verify or record usage.
      hooks.splice(hooks.length - verification.shutdownSteps.length, 0, hook);
    },
    close: () => {
      closing ??= shutdown();
      return closing;
    },
  };
}
