import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/database.js";
import { webhookDeliveries, webhooks } from "../db/schema/index.js";
import { recordEvent } from "../events/record-event.js";
import type { ClaimedDelivery } from "./claim.js";
import { enqueueWebhookSql } from "./enqueue.js";
import { OPERATOR_OWNER } from "./owner.js";
import { retryDelayMs } from "./schedule.js";
import type { AttemptResult } from "./send.js";

/** What became of one claimed delivery's attempt. */
export type Settlement =
  | { kind: "succeeded" }
  /** It failed and is due again at `at`. */
  | { kind: "retry"; at: Date }
  /** It failed and was the last scheduled attempt: the delivery fails. */
  | { kind: "exhausted" }
  /** The endpoint answered 410 Gone: the delivery fails and the endpoint is disabled at once. */
  | { kind: "gone" };

/** 2xx succeeds; 410 disables at once; anything else retries on the schedule until it runs out. */
export function settlementOf(
  result: AttemptResult,
  attempts: number,
  now: Date,
  random: () => number,
): Settlement {
  const status = result.statusCode;
  if (status !== null && status >= 200 && status < 300) return { kind: "succeeded" };
  if (status === 410) return { kind: "gone" };
  const delay = retryDelayMs(attempts, random);
  if (delay === undefined) return { kind: "exhausted" };
  return { kind: "retry", at: new Date(now.getTime() + delay) };
}

/** A failed attempt's settlement, and whether it disabled the endpoint. */
export type FailedOutcome = "retrying" | "failed" | "disabled" | "stale";

// Only the claim that made this attempt may record it: if the lease lapsed and another instance
// claimed the row again (attempts moved on), this late answer is dropped.
const ours = (delivery: ClaimedDelivery) =>
  and(
    eq(webhookDeliveries.id, Number(delivery.id)),
    eq(webhookDeliveries.status, "pending"),
    eq(webhookDeliveries.attempts, delivery.attempts),
  );

const attemptColumns = (result: AttemptResult, at: Date) => ({
  lastAttemptAt: at,
  lastStatusCode: result.statusCode,
  lastDurationMs: result.durationMs,
  lastResponse: result.response,
});

/**
 * Records a failed attempt (a success is recorded by settle-batch.ts), in one transaction: the
 * delivery is due again or fails, the endpoint's failing streak starts (if it had none), and the
 * endpoint is disabled when it answered 410 or has been failing for `disableAfterMs` (3 days by
 * default: docs/webhooks.md, "Delivery"). Disabling records `webhook.disabled` in the wallet's audit
 * trail and sends it to the wallet's other endpoints subscribed to it (once, by whichever attempt
 * disabled it).
 */
export async function settleFailure(
  db: Db,
  delivery: ClaimedDelivery,
  result: AttemptResult,
  at: Date,
  settlement: Exclude<Settlement, { kind: "succeeded" }>,
  disableAfterMs: number,
): Promise<FailedOutcome> {
  return db.transaction(async (tx) => {
    // The endpoint's row first, as deleting an endpoint locks it before its deliveries: taking them
    // the other way round, a failure settled while its endpoint is deleted would deadlock.
    await tx
      .select({ id: webhooks.id })
      .from(webhooks)
      .where(eq(webhooks.id, delivery.webhook_id))
      .for("no key update");
    const settled = await tx
      .update(webhookDeliveries)
      .set(
        settlement.kind === "retry"
          ? { ...attemptColumns(result, at), nextAttemptAt: settlement.at }
          : { ...attemptColumns(result, at), status: "failed", nextAttemptAt: null },
      )
      .where(ours(delivery))
      .returning({ id: webhookDeliveries.id });
    if (settled.length === 0) return "stale";
    const settledOutcome = settlement.kind === "retry" ? "retrying" : "failed";
    const [streak] = await tx
      .update(webhooks)
      .set({ failingSince: sql`coalesce(${webhooks.failingSince}, ${at.toISOString()}::timestamptz)` })
      .where(and(eq(webhooks.id, delivery.webhook_id), eq(webhooks.enabled, true)))
      .returning({ failingSince: webhooks.failingSince });
    if (streak === undefined) return settledOutcome;
    const failingFor = at.getTime() - (streak.failingSince ?? at).getTime();
    const reason = settlement.kind === "gone" ? "gone" : failingFor >= disableAfterMs ? "failing" : null;
    if (reason === null) return settledOutcome;
    const disabled = await tx
      .update(webhooks)
      .set({ enabled: false, disabledReason: reason })
      .where(and(eq(webhooks.id, delivery.webhook_id), eq(webhooks.enabled, true)))
      .returning({ url: webhooks.url });
    const endpoint = disabled[0];
    if (endpoint === undefined) return settledOutcome;
    const changes = { webhookId: delivery.webhook_id, reason, url: endpoint.url };
    // The operator's endpoints show why in their disabledReason; the wallets' trails are the wallets'.
    if (delivery.wallet !== OPERATOR_OWNER)
      await recordEvent(tx, {
        wallet: delivery.wallet,
        keyId: null,
        action: "webhook.disabled",
        at,
        changes,
      });
    await tx.execute(
      enqueueWebhookSql({
        wallet: delivery.wallet,
        type: "webhook.disabled",
        keyId: null,
        at,
        data: changes,
      }),
    );
    return "disabled";
  });
}

/**
 * A delivery claimed for an endpoint that is disabled is never sent: it fails, and the claim's
 * attempt is given back since nothing went out.
 */
export async function skipDelivery(db: Db, delivery: ClaimedDelivery): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({
      status: "failed",
      nextAttemptAt: null,
      attempts: sql`${webhookDeliveries.attempts} - 1`,
      lastResponse: "endpoint disabled",
    })
    .where(ours(delivery));
}
