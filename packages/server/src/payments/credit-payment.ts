import { encodePaymentResponseHeader } from "@x402/core/http";
import { eq } from "drizzle-orm";
import type { BalanceWriter, WrittenBalance } from "../credits/balance-writer.js";
import type { Db } from "../db/database.js";
import { apiKeys, type PaymentRow, payments } from "../db/schema/index.js";
import { keyToppedUpChanges } from "../events/changes.js";
import { toApiKey } from "../keys/status.js";
import { paymentView } from "../operator/payment-ledger.js";
import type { ApiKey } from "../schemas/api-key.js";
import { enqueueWebhookSql } from "../webhooks/enqueue.js";
import { recordEventWithWebhook } from "../webhooks/key-event.js";
import { readAnswer, type StoredAnswer } from "./answer.js";

/**
 * Credits a settled, confirmed payment exactly once: in one transaction, under the payment row's
 * lock, adds its credits to the key's balance (through the BalanceWriter, so Redis balances are
 * fenced and reinstalled), marks it credited with the answer replays get, and records
 * `key.topped_up` with its `credits.topped_up` webhook and the operator's `payment.settled` (never the signature). A payment already credited returns its stored answer.
 */
export async function creditPayment(
  db: Db,
  balances: BalanceWriter,
  payment: PaymentRow,
  transaction: string,
  now: Date,
): Promise<StoredAnswer> {
  let written: WrittenBalance | undefined;
  try {
    const answer = await db.transaction(async (tx) => {
      const [row] = await tx.select().from(payments).where(eq(payments.id, payment.id)).for("update");
      const stored = readAnswer(row?.answer);
      if (row === undefined || row.status === "credited" || row.status === "failed") {
        if (stored !== undefined) return stored;
        throw new Error("payment closed without an answer");
      }
      // A plan payment (no key) is the plans' to credit; this version only credits top-ups, and
      // leaves any other payment open for a version that knows it (docs/payments.md#recovery).
      const keyId = row.keyId;
      if (row.kind !== "top_up" || keyId === null) throw new Error("not a top-up payment");
      written = await balances.write(tx, row.creditsId, { kind: "add", amount: row.credits }, now);
      const topUp = {
        amount: row.amount,
        credits: row.credits,
        payer: row.payer,
        transaction,
        network: row.network,
      };
      const paymentResponse = encodePaymentResponseHeader({
        success: true,
        transaction,
        network: `eip155:${row.network.slice("eip155:".length)}`,
        payer: row.payer,
        amount: row.baseUnits,
      });
      const answered: StoredAnswer = { kind: "credited", topUp, paymentResponse };
      const [credited] = await tx
        .update(payments)
        .set({ status: "credited", transaction, answer: answered, updatedAt: now })
        .where(eq(payments.id, row.id))
        .returning();
      if (credited === undefined) throw new Error("the payment row vanished under its lock");
      // The operator's deployment-wide event (docs/operator.md#webhooks): the payment as the ledger shows it.
      await tx.execute(
        enqueueWebhookSql({
          wallet: row.wallet,
          type: "payment.settled",
          keyId,
          at: now,
          data: { payment: paymentView(credited) },
          dedupeKey: `payment.settled:${row.id}`,
        }),
      );
      const changes = keyToppedUpChanges(topUp);
      const event = {
        wallet: row.wallet,
        keyId,
        action: "key.topped_up" as const,
        at: now,
        changes,
      };
      const [key] = await tx.select().from(apiKeys).where(eq(apiKeys.id, keyId));
      if (key === undefined) throw new Error("payment for a key that does not exist");
      await recordEventWithWebhook(tx, event, {
        type: "credits.topped_up",
        keyId,
        data: toppedUpData(toApiKey(key, now, written.row), topUp),
      });
      await written.beforeCommit();
      return answered;
    });
    await written?.settle(true);
    return answer;
  } catch (error) {
    await written?.settle(false);
    throw error;
  }
}

/**
 * `credits.topped_up`'s data (docs/webhooks.md): the key, its balance after the top-up, and what
 * was paid (whole tokens), credited, by whom, in which transaction.
 */
function toppedUpData(
  key: ApiKey,
  topUp: { amount: string; credits: number; payer: string; transaction: string },
): Record<string, unknown> {
  return {
    key,
    credits: { remaining: key.credits?.remaining ?? 0, purchased: key.credits?.purchased ?? 0 },
    amount: topUp.amount,
    credited: topUp.credits,
    payer: topUp.payer,
    transaction: topUp.transaction,
  };
}
