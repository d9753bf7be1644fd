import { Counter, Gauge, type Registry } from "prom-client";

/** Metrics of the credits journal (with REDIS_URL): what the drainer applied, what waits. */
export interface CreditsMetrics {
  /** Counts journal entries the drainer applied to PostgreSQL. */
  drained(entries: number): void;
  /** Where the gauge reads the journal's length at scrape time (Redis); unset: 0. */
  watchJournal(pending: () => Promise<number>): void;
}

/**
 * Creates `keyport_credits_drained_total` and `keyport_credits_journal_entries` (XLEN of every
 * shard at scrape time; entries wait there for the next drain and its trim).
 */
export function createCreditsMetrics(registry: Registry): CreditsMetrics {
  let pending: (() => Promise<number>) | undefined;
  const drained = new Counter({
    name: "keyport_credits_drained_total",
    help: "Redis credits journal entries (one spend, or consecutive spends of one script call) applied to PostgreSQL by this instance's drainer",
    registers: [registry],
  });
  new Gauge({
    name: "keyport_credits_journal_entries",
    help: "Entries in the Redis credits journal, not yet drained or not yet trimmed (0 without Redis)",
    registers: [registry],
    async collect() {
      this.set(pending === undefined ? 0 : await pending().catch(() => 0));
    },
  });
  return {
    drained: (entries) => {
      if (entries > 0) drained.inc(entries);
    },
    watchJournal: (read) => {
      pending = read;
    },
  };
}
