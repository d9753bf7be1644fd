import { Counter, type Registry } from "prom-client";

/** How a top-up request ended: credited now, a replay of an answered payment, refused (402), or unavailable (503). */
export type TopUpOutcome = "credited" | "replayed" | "refused" | "unavailable";

/** Metrics of top-ups (docs/metrics.md). */
export interface PaymentMetrics {
  /** Counts one top-up request that carried a payment, and its amount in the token's base units. */
  topUp(outcome: TopUpOutcome, baseUnits: bigint): void;
}

/** Creates `keyport_top_ups_total` and `keyport_top_up_base_units_total`, both by `outcome`. */
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
  return {
    topUp(outcome, baseUnits) {
      count.inc({ outcome });
      amount.inc({ outcome }, Number(baseUnits));
    },
  };
}
