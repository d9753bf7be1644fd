import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/database.js";
import { webhookDeliveries, webhooks } from "../db/schema/index.js";
import { recordEvent } from "../events/record-event.js";
import type { ClaimedDelivery } from "./claim.js";
import type { AttemptResult } from "./send.js";

/** What became of one claimed delivery. */
export type Settlement =
  | { kind: "succeeded" }
  | { kind: "retry"; at: Date }
  /** The delivery failed for good and its endpoint is disabled: it answered 410, or its retries ran out. */
  | { kind: "disable"; reason: "gone" | "failing" };

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
 * Records a failed attempt and its settlement (a success is recorded by settle-batch.ts). Disabling
 * is one transaction: the delivery fails, the endpoint is disabled with its reason, and the
 * wallet's audit trail gets `webhook.disabled` (once, by whichever delivery disabled it).
 */
export async function settleDelivery(
  db: Db,
  delivery: ClaimedDelivery,
  result: AttemptResult,
  at: Date,
  settlement: Exclude<Settlement, { kind: "succeeded" }>,
): Promise<void> {
  const attempt = attemptColumns(result, at);
  if (settlement.kind === "retry") {
    await db
      .update(webhookDeliveries)
      .set({ ...attempt, nextAttemptAt: settlement.at })
      .where(ours(delivery));
    return;
  }
  await db.transaction(async (tx) => {
    const failed = await tx
      .update(webhookDeliveries)
      .set({ ...attempt, status: "failed", nextAttemptAt: null })
      .where(ours(delivery))
      .returning({ id: webhookDeliveries.id });
    if (failed.length === 0) return;
    const disabled = await tx
      .update(webhooks)
      .set({ enabled: false, disabledReason: settlement.reason })
      .where(and(eq(webhooks.id, delivery.webhook_id), eq(webhooks.enabled, true)))
      .returning({ url: webhooks.url });
    const endpoint = disabled[0];
    if (endpoint === undefined) return;
    await recordEvent(tx, {
      wallet: delivery.wallet,
      keyId: null,
      action: "webhook.disabled",
      at,
      changes: { webhookId: delivery.webhook_id, reason: settlement.reason, url: endpoint.url },
    });
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
