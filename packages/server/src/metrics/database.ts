import { Gauge, type Registry } from "prom-client";
import type { Database } from "../db/database.js";

/** How long a scrape waits for the database's `select 1` before reporting it down. */
const PING_TIMEOUT_MS = 1_000;

/**
 * Creates the database gauges from what the drivers expose publicly: `keyport_db_up` (a
 * `select 1` at scrape time answered within a second), `keyport_db_ping_seconds`, and
 * `keyport_db_pool_max_connections` with the driver as a label. postgres.js publishes no count
 * of open or busy connections, only its `max`; PGlite is one in-process backend that runs one
 * query at a time, so its "pool" is 1.
 */
export function createDatabaseMetrics(registry: Registry, database: Database): void {
  // Both gauges are collected at once (prom-client collects in parallel): they share one ping.
  let pinging: Promise<{ up: boolean; seconds: number }> | undefined;
  const ping = () => {
    pinging ??= timePing(database).finally(() => {
      pinging = undefined;
    });
    return pinging;
  };
  new Gauge({
    name: "keyport_db_up",
    help: "1 when the database answered select 1 within a second at scrape time, else 0",
    registers: [registry],
    async collect() {
      this.set((await ping()).up ? 1 : 0);
    },
  });
  new Gauge({
    name: "keyport_db_ping_seconds",
    help: "How long the scrape's select 1 took (capped by its one-second wait)",
    registers: [registry],
    async collect() {
      this.set((await ping()).seconds);
    },
  });
  const driver = database.driver;
  new Gauge({
    name: "keyport_db_pool_max_connections",
    help: "Most connections the driver opens (PGlite: one in-process backend)",
    labelNames: ["driver"],
    registers: [registry],
  }).set({ driver: driver.kind }, driver.kind === "postgres" ? driver.client.options.max : 1);
}

async function timePing(database: Database): Promise<{ up: boolean; seconds: number }> {
  const started = performance.now();
  const up = await pingWithin(database, PING_TIMEOUT_MS);
  return { up, seconds: (performance.now() - started) / 1_000 };
}

function pingWithin(database: Database, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    timer.unref();
    database.ping().then(
      () => {
        clearTimeout(timer);
        resolve(true);
      },
      () => {
        clearTimeout(timer);
        resolve(false);
      },
    );
  });
}
