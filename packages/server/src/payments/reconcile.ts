import type { Logger } from "pino";
import { errorSummary } from "../logger.js";
import { PAYMENT_LOCK_MS, type PaymentRunner } from "./payment-runner.js";
import type { PaymentStore } from "./payment-store.js";

/** Payments one reconciler pass takes up at most. */
const BATCH = 50;

/**
 * One pass over the open payments nobody holds (a process killed between settling and crediting,
 * a request that answered 503): each is locked and moved on from its chain state, so a payment
 * whose transaction was mined is credited exactly once, and one never settled before its
 * authorization expired is failed. Returns how many were answered.
 */
export async function reconcilePayments(store: PaymentStore, runner: PaymentRunner): Promise<number> {
  let answered = 0;
  for (const row of await store.lapsed(new Date(), BATCH)) {
    const now = new Date();
    const taken = await store.lock(row.id, new Date(now.getTime() + PAYMENT_LOCK_MS), now);
    if (taken === undefined) continue;
    const outcome = await runner.withLock(taken, () => runner.resume({ row: taken }));
    if (outcome.kind === "answered") answered++;
  }
  return answered;
}

/**
 * Reconciles at start, then every `PAYMENT_LOCK_MS` (a lock left by a dead worker lapses within
 * that). `stop()` waits for a pass under way.
 */
export function startPaymentReconciler(store: PaymentStore, runner: PaymentRunner, logger: Logger) {
  let running: Promise<void> | undefined;
  let stopped = false;
  const pass = () => {
    // A pass still under way (a slow chain) is not doubled.
    if (running !== undefined) return;
    running = reconcilePayments(store, runner)
      .then(
        (answered) => {
          if (answered > 0) logger.info({ payments: answered }, "payments reconciled");
        },
        (error: unknown) => logger.error({ err: errorSummary(error) }, "payment reconciliation failed"),
      )
      .finally(() => {
        running = undefined;
      });
  };
  pass();
  const timer = setInterval(() => {
    if (!stopped) pass();
  }, PAYMENT_LOCK_MS);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
