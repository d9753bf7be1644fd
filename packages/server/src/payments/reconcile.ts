import type { Logger } from "pino";
import { errorSummary } from "../logger.js";
import type { PaymentMetrics } from "../metrics/payments.js";
import { PAYMENT_LOCK_MS, type PaymentRunner } from "./payment-runner.js";
import type { PaymentStore } from "./payment-store.js";

/** Payments one reconciler pass takes up at most. */
const BATCH = 50;

/** Payments of one pass worked on at once. */
const CONCURRENCY = 4;

/** The first back-off of a payment a reconciler turn left open; it doubles with each turn. */
const FIRST_BACKOFF_MS = PAYMENT_LOCK_MS;

/** The longest back-off: a payment the chain cannot decide yet is still tried this often. */
export const MAX_BACKOFF_MS = 10 * 60_000;

/** An open payment whose authorization expired longer ago than this is stuck (docs/metrics.md). */
export const STUCK_AFTER_EXPIRY_MS = 60_000;

/**
 * When a payment left open for the `attempts`-th time is taken up again: 15 s, doubling up to
 * MAX_BACKOFF_MS, but never later than just after its authorization expires (then it can be decided:
 * failed if unspent, else its search has an end).
 */
export function nextAttemptAt(attempts: number, now: Date, validBefore: Date): Date {
  const backoff = Math.min(FIRST_BACKOFF_MS * 2 ** Math.min(Math.max(attempts - 1, 0), 20), MAX_BACKOFF_MS);
  const next = now.getTime() + backoff;
  const afterExpiry = validBefore.getTime() + 1_000;
  return new Date(afterExpiry > now.getTime() && afterExpiry < next ? afterExpiry : next);
}

/**
 * One pass over the open payments nobody holds whose next attempt is due (a process killed between
 * settling and crediting, a request that answered 503): each is locked and moved on from its chain
 * state, so a payment whose transaction was mined is credited exactly once, and one never settled
 * before its authorization expired, or cancelled, is failed. One left open (the chain or facilitator
 * cannot decide it now, its transaction not found yet) backs off on its own, so it never holds the
 * others (docs/payments.md#recovery). Returns how many were answered.
 */
export async function reconcilePayments(
  store: PaymentStore,
  runner: PaymentRunner,
  logger?: Logger,
): Promise<number> {
  let answered = 0;
  const rows = await store.due(new Date(), BATCH);
  const turn = async (row: (typeof rows)[number]) => {
    const now = new Date();
    const taken = await store.lock(row.id, new Date(now.getTime() + PAYMENT_LOCK_MS), now);
    if (taken === undefined) return;
    let open = true;
    try {
      const outcome = await runner.withLock(taken, () => runner.resume({ row: taken }));
      open = outcome.kind === "open";
    } catch (error) {
      logger?.error({ err: errorSummary(error), payment: taken.id }, "payment reconciliation failed");
    }
    if (open) {
      const attempts = taken.attempts + 1;
      await store.deferred(taken.id, attempts, nextAttemptAt(attempts, new Date(), taken.validBefore));
    } else answered++;
  };
  // A few at a time: one payment whose node calls run into their timeouts does not hold the pass.
  const workers = Array.from({ length: Math.min(CONCURRENCY, rows.length) }, async () => {
    for (let row = rows.shift(); row !== undefined; row = rows.shift()) await turn(row);
  });
  // Every worker ends before the pass does (the next pass must not overlap it); a database error ends the pass.
  const failed = (await Promise.allSettled(workers)).find((result) => result.status === "rejected");
  if (failed !== undefined) throw failed.reason;
  return answered;
}

/**
 * Reconciles at start, then every `PAYMENT_LOCK_MS` (a lock left by a dead worker lapses within
 * that), and after each pass sets the open and stuck payment gauges. `stop()` waits for a pass under way.
 */
export function startPaymentReconciler(
  store: PaymentStore,
  runner: PaymentRunner,
  metrics: PaymentMetrics,
  logger: Logger,
) {
  let running: Promise<void> | undefined;
  let stopped = false;
  const pass = () => {
    // A pass still under way (a slow chain) is not doubled.
    if (running !== undefined) return;
    running = reconcilePayments(store, runner, logger)
      .then(async (answered) => {
        if (answered > 0) logger.info({ payments: answered }, "payments reconciled");
        const now = new Date();
        metrics.openPayments(await store.openCounts(now, new Date(now.getTime() - STUCK_AFTER_EXPIRY_MS)));
      })
      .catch((error: unknown) => logger.error({ err: errorSummary(error) }, "payment reconciliation failed"))
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
