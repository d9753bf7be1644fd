import { createHttpMetrics, type HttpMetrics, registerProcessFaultMetrics } from "@keyport/node-edge";
import { collectDefaultMetrics, Registry } from "prom-client";
import type { Database } from "../db/database.js";
import type { KeyCache } from "../verify/cache.js";
import { type CreditsMetrics, createCreditsMetrics } from "./credits.js";
import { createDatabaseMetrics } from "./database.js";
import { createLeakMetrics, type LeakMetrics } from "./leaks.js";
import { createPaymentMetrics, type PaymentMetrics } from "./payments.js";
import { createUsageMetrics, type UsageMetrics } from "./usage.js";
import { createVerifierMetrics, type VerifierMetrics } from "./verification.js";
import { createWebhookMetrics, type WebhookMetrics } from "./webhooks.js";

/** Seconds; from a cached verification (about 0.1 ms) to a slow database call. */
const HTTP_BUCKETS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

/** What the gauges read at scrape time, known once the verification services exist. */
export interface WatchedSources {
  cache: KeyCache;
  usage: { readonly pendingRows: number };
}

/** One app's metrics: its own registry (tests run several apps in one process). */
export interface ServerMetrics {
  registry: Registry;
  http: HttpMetrics;
  verifier: VerifierMetrics;
  usage: UsageMetrics;
  credits: CreditsMetrics;
  payments: PaymentMetrics;
  leaks: LeakMetrics;
  webhooks: WebhookMetrics;
  /** Points the key cache and usage buffer gauges at the app's instances. */
  watch(sources: WatchedSources): void;
}

/**
 * Creates a registry holding the process defaults (`collectDefaultMetrics`: CPU, memory, event
 * loop lag, GC, handles), unhandled rejections, HTTP, verification, key cache, usage buffer, credits journal, leak report, webhook delivery and database metrics.
 * @example const metrics = createServerMetrics(database); await metrics.registry.metrics();
 */
export function createServerMetrics(database: Database): ServerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  registerProcessFaultMetrics(registry);
  let sources: WatchedSources | undefined;
  createDatabaseMetrics(registry, database);
  return {
    registry,
    http: createHttpMetrics(registry, {
      prefix: "keyport_http",
      buckets: HTTP_BUCKETS,
      durationHelp: "Time from receiving a request to ending its response, by method and route template",
    }),
    verifier: createVerifierMetrics(registry, () => sources?.cache),
    usage: createUsageMetrics(registry, () => sources?.usage.pendingRows ?? 0),
    credits: createCreditsMetrics(registry),
    payments: createPaymentMetrics(registry),
    leaks: createLeakMetrics(registry),
    webhooks: createWebhookMetrics(registry, database),
    watch: (watched) => {
      sources = watched;
    },
  };
}
