import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../db/database.js";
import { type PaymentRow, payments } from "../db/schema/index.js";
import type { StoredAnswer } from "./answer.js";

/** A payment to record before it is settled. */
export type NewPayment = Omit<
  typeof payments.$inferInsert,
  "id" | "status" | "transaction" | "answer" | "createdAt" | "updatedAt"
>;

const OPEN = ["pending", "settled"] as const;

/** The payments table as the top-up and the reconciler use it: each change one statement. */
export function createPaymentStore(db: Db) {
  return {
    /** The payment spending this authorization, if one was recorded. */
    async find(
      network: string,
      asset: string,
      payer: string,
      nonce: string,
    ): Promise<PaymentRow | undefined> {
      const [row] = await db
        .select()
        .from(payments)
        .where(
          and(
            eq(payments.network, network),
            eq(payments.asset, asset),
            eq(payments.payer, payer),
            eq(payments.nonce, nonce),
          ),
        );
      return row;
    },
    async get(id: number): Promise<PaymentRow | undefined> {
      const [row] = await db.select().from(payments).where(eq(payments.id, id));
      return row;
    },
    /** Records a payment, locked by its recorder; undefined when its authorization was recorded already. */
    async insert(payment: NewPayment): Promise<PaymentRow | undefined> {
      const [row] = await db
        .insert(payments)
        .values({ ...payment, status: "pending" })
        .onConflictDoNothing()
        .returning();
      return row;
    },
    /** Takes an open payment whose lock lapsed; undefined when it is closed or someone holds it. */
    async lock(id: number, until: Date, now: Date): Promise<PaymentRow | undefined> {
      const [row] = await db
        .update(payments)
        .set({ lockedUntil: until, updatedAt: now })
        .where(and(eq(payments.id, id), inArray(payments.status, OPEN), lt(payments.lockedUntil, now)))
        .returning();
      return row;
    },
    async extendLock(id: number, until: Date): Promise<void> {
      await db.update(payments).set({ lockedUntil: until }).where(eq(payments.id, id));
    },
    /** Lets the next replay or reconciler pass take the payment up at once. */
    async unlock(id: number): Promise<void> {
      await db
        .update(payments)
        .set({ lockedUntil: sql`now() - interval '1 second'` })
        .where(and(eq(payments.id, id), inArray(payments.status, OPEN)));
    },
    async settled(id: number, transaction: string, now: Date): Promise<void> {
      await db
        .update(payments)
        .set({ status: "settled", transaction, updatedAt: now })
        .where(and(eq(payments.id, id), inArray(payments.status, OPEN)));
    },
    async failed(id: number, answer: StoredAnswer, now: Date): Promise<void> {
      await db
        .update(payments)
        .set({ status: "failed", answer, updatedAt: now })
        .where(and(eq(payments.id, id), inArray(payments.status, OPEN)));
    },
    /** Open payments nobody holds (their worker died or gave up), oldest first. */
    async lapsed(now: Date, limit: number): Promise<PaymentRow[]> {
      return db
        .select()
        .from(payments)
        .where(and(inArray(payments.status, OPEN), lt(payments.lockedUntil, now)))
        .orderBy(payments.id)
        .limit(limit);
    },
  };
}

export type PaymentStore = ReturnType<typeof createPaymentStore>;
