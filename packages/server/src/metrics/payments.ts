import { Counter, Gauge, type Registry } from "prom-client";

/** How a top-up request ended: credited now, a replay of an answered payment, refused (402), or unavailable (503). */
export type TopUpOutcome = "credited" | "replayed" | "refused" | "unavailable";

/** Metrics of top-ups (docs/metrics.md). */
export interface PaymentMetrics {
  /** Counts one top-up request that carried a payment, and its amount in the token's base units. */
  topUp(outcome: TopUpOutcome, baseUnits: bigint): void;
  /** What the reconciler's last pass found open (the whole deployment's payments, not this instance's). */
  openPayments(counts: { open: number; stuck: number; oldestSeconds: number }): void;
}

/**
 * Creates `keyport_top_ups_total` and `keyport_top_up_base_units_total`, both by `outcome`, and the
 * gauges `keyport_payments_open`, `keyport_payments_stuck` and `keyport_payments_oldest_open_seconds`.
 */
export function createPaymentMetrics(registry: Registry): PaymentMetrics {
  const count = new Counter({
    name: "keyport_top_ups_total",
    help: "Top-up requests that carried a payment, by outcome (credited, replayed, refused, unavailable)",
    labelNames: ["outcome"],
    registers: [registry],
  });
  const amount = new Counter({
    name: "keyport_top_up_base_units_total",
    help: "Amounts of those top-ups in the token's base units (USDC: millionths), by outcome",
    labelNames: ["outcome"],
    registers: [registry],
  });
  const open = new Gauge({
    name: "keyport_payments_open",
    help: "Top-up payments recorded and not yet credited or failed (the reconciler's last pass)",
    registers: [registry],
  });
  const stuck = new Gauge({
    name: "keyport_payments_stuck",
    help: "Open payments whose authorization expired over a minute ago: recovery cannot decide them (the chain or its logs do not answer)",
    registers: [registry],
  });
  const oldest = new Gauge({
    name: "keyport_payments_oldest_open_seconds",
    help: "Age of the oldest open payment in seconds, 0 when none is open",
    registers: [registry],
  });
  return {
    topUp(outcome, baseUnits) {
      count.inc({ outcome });
      amount.inc({ outcome }, Number(baseUnits));
    },
    openPayments(counts) {
      open.set(counts.open);
      stuck.set(counts.stuck);
      oldest.set(Math.round(counts.oldestSeconds));
    },
  };
}
