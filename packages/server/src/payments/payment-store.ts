import { and, eq, inArray, lt, lte, sql } from "drizzle-orm";
import type { Db } from "../db/database.js";
import { type PaymentRow, payments } from "../db/schema/index.js";
import type { StoredAnswer } from "./answer.js";

/** A payment to record before it is settled. */
export type NewPayment = Omit<
  typeof payments.$inferInsert,
  | "id"
  | "status"
  | "transaction"
  | "answer"
  | "createdAt"
  | "updatedAt"
  | "searchedBlock"
  | "attempts"
  | "nextAttemptAt"
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
    /**
     * Pushes the lock forward to `until`, only for its holder: the one that set it to `heldUntil`
     * (compare-and-set in one statement). A lock taken over after it lapsed holds a later time (taken
     * only when `locked_until < now`, set to `now + 15 s`), so a worker that stalled past its lock can
     * neither extend nor release its successor's. False when the lock is no longer this holder's.
     */
    async extendLock(id: number, heldUntil: Date, until: Date): Promise<boolean> {
      const rows = await db
        .update(payments)
        .set({ lockedUntil: until })
        .where(and(eq(payments.id, id), eq(payments.lockedUntil, heldUntil), inArray(payments.status, OPEN)))
        .returning({ id: payments.id });
      return rows.length > 0;
    },
    /** Lets the next replay or reconciler pass take the payment up at once; only its holder's (see `extendLock`). */
    async unlock(id: number, heldUntil: Date): Promise<void> {
      await db
        .update(payments)
        .set({ lockedUntil: sql`now() - interval '1 second'` })
        .where(and(eq(payments.id, id), eq(payments.lockedUntil, heldUntil), inArray(payments.status, OPEN)));
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
    /** Where the search for its transaction got to: the next goes on after `block`. */
    async searched(id: number, block: number): Promise<void> {
      await db.update(payments).set({ searchedBlock: block }).where(eq(payments.id, id));
    },
    /** A reconciler turn left it open: its `attempts`-th; taken up again at `next`. */
    async deferred(id: number, attempts: number, next: Date): Promise<void> {
      await db
        .update(payments)
        .set({ attempts, nextAttemptAt: next })
        .where(and(eq(payments.id, id), inArray(payments.status, OPEN)));
    },
    /**
     * Open payments nobody holds (their worker died or gave up) whose next attempt is due, those due
     * longest first: a payment that keeps failing is pushed back by its back-off and holds no other.
     */
    async due(now: Date, limit: number): Promise<PaymentRow[]> {
      return db
        .select()
        .from(payments)
        .where(
          and(
            inArray(payments.status, OPEN),
            lt(payments.lockedUntil, now),
            lte(payments.nextAttemptAt, now),
          ),
        )
        .orderBy(payments.nextAttemptAt, payments.id)
        .limit(limit);
    },
    /**
     * How many payments are open, how many of them are stuck (their authorization expired before
     * `stuckBefore` and they are still open: recovery cannot decide them), and the age of the oldest
     * open one in seconds (0 when none is).
     */
    async openCounts(
      now: Date,
      stuckBefore: Date,
    ): Promise<{ open: number; stuck: number; oldestSeconds: number }> {
      const [row] = await db
        .select({
          open: sql<number>`count(*)::int`,
          stuck: sql<number>`(count(*) filter (where ${payments.validBefore} < ${stuckBefore.toISOString()}))::int`,
          oldest: sql<string | null>`min(${payments.createdAt})`,
        })
        .from(payments)
        .where(inArray(payments.status, OPEN));
      const oldest = row?.oldest == null ? null : new Date(row.oldest);
      return {
        open: Number(row?.open ?? 0),
        stuck: Number(row?.stuck ?? 0),
        oldestSeconds: oldest === null ? 0 : Math.max(0, (now.getTime() - oldest.getTime()) / 1000),
      };
    },
  };
}

export type PaymentStore = ReturnType<typeof createPaymentStore>;
