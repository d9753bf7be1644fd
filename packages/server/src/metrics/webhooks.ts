import { sql } from "drizzle-orm";
import { Counter, Gauge, type Registry } from "prom-client";
import type { Database } from "../db/database.js";
import { webhookDeliveries } from "../db/schema/index.js";

/**
 * How a delivery's attempt ended: answered 2xx, failed and due again later, failed for good (410,
 * or its retries ran out), not sent because its endpoint is disabled, or dropped unsent because its
 * endpoint held too many undelivered messages.
 */
export type WebhookOutcome = "succeeded" | "retrying" | "failed" | "skipped" | "dropped";

/** Metrics of webhook delivery (docs/metrics.md). */
export interface WebhookMetrics {
  /** Counts `count` deliveries (1 by default) that ended as `outcome`. */
  delivered(outcome: WebhookOutcome, count?: number): void;
}

/**
 * Creates `keyport_webhook_deliveries_total{outcome}`, and the outbox gauges read at scrape time
 * with one indexed query: `keyport_webhook_outbox_depth` (pending deliveries) and
 * `keyport_webhook_outbox_oldest_seconds` (age of the oldest pending one, 0 when none).
 */
export function createWebhookMetrics(registry: Registry, database: Database): WebhookMetrics {
  const count = new Counter({
    name: "keyport_webhook_deliveries_total",
    help: "Webhook delivery attempts by outcome (succeeded, retrying, failed, skipped, dropped)",
    labelNames: ["outcome"],
    registers: [registry],
  });
  // Both gauges are collected at once: they share one query.
  let reading: Promise<OutboxReading> | undefined;
  const read = () => {
    reading ??= readOutbox(database).finally(() => {
      reading = undefined;
    });
    return reading;
  };
  new Gauge({
    name: "keyport_webhook_outbox_depth",
    help: "Webhook deliveries pending (not yet answered 2xx nor given up)",
    registers: [registry],
    async collect() {
      const { depth } = await read();
      if (depth !== null) this.set(depth);
    },
  });
  new Gauge({
    name: "keyport_webhook_outbox_oldest_seconds",
    help: "Age in seconds of the oldest pending webhook delivery, 0 when none",
    registers: [registry],
    async collect() {
      const { depth, oldest } = await read();
      if (depth !== null)
        this.set(oldest === null ? 0 : Math.max(0, (Date.now() - oldest.getTime()) / 1_000));
    },
  });
  return { delivered: (outcome, n = 1) => count.inc({ outcome }, n) };
}

/** What one scrape read; `depth` null when the database did not answer (keyport_db_up says so; the gauges keep their last values). */
interface OutboxReading {
  depth: number | null;
  oldest: Date | null;
}

async function readOutbox(database: Database): Promise<OutboxReading> {
  const [row] = await database.db
    .select({
      depth: sql<number>`count(*)::int`.mapWith(Number),
      oldest: sql`min(${webhookDeliveries.createdAt})`.mapWith(webhookDeliveries.createdAt),
    })
    .from(webhookDeliveries)
    .where(sql`${webhookDeliveries.status} = 'pending'`)
    .catch(() => [{ depth: null, oldest: null }]);
  return { depth: row?.depth ?? 0, oldest: row?.oldest ?? null };
}
