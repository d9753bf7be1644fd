import type { PaymentRequirements } from "@x402/core/types";
import { type Address, type Hex, isAddress, isHex } from "viem";
import type { BalanceWriter } from "../credits/balance-writer.js";
import type { Db } from "../db/database.js";
import type { PaymentRow } from "../db/schema/index.js";
import { readAnswer, type StoredAnswer } from "./answer.js";
import type { LogSearch, PaymentChain } from "./chain.js";
import { creditPayment } from "./credit-payment.js";
import type { DecodedPayment } from "./payment-payload.js";
import type { PaymentStore } from "./payment-store.js";
import { MAX_TIMEOUT_SECONDS } from "./settings.js";
import { SettlementUnavailableError, type Settler } from "./settler.js";

/** How long a worker's lock on a payment holds without being renewed (it renews every third of it). */
export const PAYMENT_LOCK_MS = 15_000;

/** Where a payment stands after a worker's turn: answered (credited or refused), or still open. */
export type RunOutcome = { kind: "answered"; answer: StoredAnswer } | { kind: "open" };

/** A payment being worked on, and what the worker has to settle it with (a replay brings the payment again). */
export interface PaymentWork {
  row: PaymentRow;
  payment?: { decoded: DecodedPayment; requirement: PaymentRequirements };
}

export interface PaymentRunnerOptions {
  db: Db;
  balances: BalanceWriter;
  store: PaymentStore;
  chain: PaymentChain;
  settler: Settler;
}

/**
 * Moves a recorded payment on as far as it can go (docs/payments.md, exactly once): settle it,
 * wait for its confirmations, credit it. Whatever fails midway, the chain decides: an authorization
 * spent on chain is credited (from its transaction), one unspent after a refusal or after its expiry
 * is failed, and one that cannot be decided now (facilitator or chain unreachable) stays open for
 * the next replay or reconciler pass. The caller holds the payment's lock (see `withLock`).
 */
export function createPaymentRunner(options: PaymentRunnerOptions) {
  const { db, balances, store, chain, settler } = options;

  async function close(row: PaymentRow, answer: StoredAnswer): Promise<RunOutcome> {
    await store.failed(row.id, answer, new Date());
    // A concurrent worker may have closed it first: its answer wins.
    const stored = readAnswer((await store.get(row.id))?.answer);
    return { kind: "answered", answer: stored ?? answer };
  }

  async function confirmAndCredit(row: PaymentRow, transaction: Hex): Promise<RunOutcome> {
    let confirmed: Awaited<ReturnType<PaymentChain["confirm"]>>;
    try {
      confirmed = await chain.confirm(transaction, payerOf(row), nonceOf(row), MAX_TIMEOUT_SECONDS * 1000);
    } catch {
      return { kind: "open" };
    }
    // The authorization may still be spent by another transaction (a facilitator's retry): never this one again.
    if (!confirmed.ok)
      return fromChain(row, `The settlement failed: ${confirmed.reason}`, undefined, transaction);
    return { kind: "answered", answer: await creditPayment(db, balances, row, transaction, new Date()) };
  }

  /** Asks the chain whether the authorization was spent, and acts on it. */
  async function fromChain(
    row: PaymentRow,
    refusal?: string,
    work?: PaymentWork["payment"],
    failedTransaction?: Hex,
  ): Promise<RunOutcome> {
    let state: Awaited<ReturnType<PaymentChain["authorization"]>>;
    try {
      state = await chain.authorization(payerOf(row), nonceOf(row), await searchOf(row));
    } catch {
      return { kind: "open" };
    }
    if (state.state === "searching") {
      await store.searched(row.id, Number(state.searchedTo));
      return { kind: "open" };
    }
    if (state.state === "cancelled") {
      return close(row, { kind: "refused", message: "The payment authorization was cancelled on chain" });
    }
    if (state.state === "used") {
      if (state.transaction === failedTransaction) {
        return close(row, { kind: "refused", message: refusal ?? "The settlement failed" });
      }
      await store.settled(row.id, state.transaction, new Date());
      return confirmAndCredit(row, state.transaction);
    }
    if (refusal !== undefined) return close(row, { kind: "refused", message: refusal });
    if (row.validBefore.getTime() <= Date.now()) {
      return close(row, {
        kind: "refused",
        message: "The payment authorization expired before it was settled",
      });
    }
    return work === undefined ? { kind: "open" } : settle(row, work);
  }

  /**
   * Where the search for the payment's transaction goes on: after the last block searched, else from the
   * block recorded with it, else (a payment recorded before blocks were, or while the node was down)
   * from the block of a minute before it was recorded.
   */
  async function searchOf(row: PaymentRow): Promise<LogSearch> {
    const fromBlock =
      row.searchedBlock !== null
        ? BigInt(row.searchedBlock) + 1n
        : row.fromBlock !== null
          ? BigInt(row.fromBlock)
          : await chain.blockAt(new Date(row.createdAt.getTime() - 60_000));
    return { fromBlock, validBefore: row.validBefore };
  }

  async function settle(row: PaymentRow, work: NonNullable<PaymentWork["payment"]>): Promise<RunOutcome> {
    let outcome: Awaited<ReturnType<Settler["settle"]>>;
    try {
      outcome = await settler.settle(work.decoded.payload, work.requirement);
    } catch (error) {
      if (!(error instanceof SettlementUnavailableError)) throw error;
      // It may have gone through: only the chain can say. Never settled twice: `work` is not passed on.
      return fromChain(row);
    }
    if (!outcome.ok) return fromChain(row, `The payment was refused: ${outcome.reason}`);
    const transaction = asHex(outcome.transaction);
    if (transaction === null) return fromChain(row);
    await store.settled(row.id, transaction, new Date());
    return confirmAndCredit(row, transaction);
  }

  return {
    /** A payment just recorded after its verification: settle it. */
    settleNew: (work: Required<PaymentWork>) => settle(work.row, work.payment),
    /** A payment taken up again (a replay, the reconciler): go on from where it stands. */
    resume(work: PaymentWork): Promise<RunOutcome> {
      const { row } = work;
      const transaction = row.transaction === null ? null : asHex(row.transaction);
      if (row.status === "settled" && transaction !== null) return confirmAndCredit(row, transaction);
      return fromChain(row, undefined, work.payment);
    },
    /**
     * Runs `work` while renewing the lock this worker holds on payment `lock.id` (its `lockedUntil` as
     * this worker set it); an outcome still open unlocks it, so the next replay or reconciler pass
     * takes it up at once. Once the lock is found taken over, it is neither renewed nor released.
     */
    async withLock(
      lock: Pick<PaymentRow, "id" | "lockedUntil">,
      work: () => Promise<RunOutcome>,
    ): Promise<RunOutcome> {
      const { id } = lock;
      let held: Date | null = lock.lockedUntil;
      let renewing: Promise<void> = Promise.resolve();
      const timer = setInterval(() => {
        renewing = renewing.then(async () => {
          if (held === null) return;
          const until = new Date(Date.now() + PAYMENT_LOCK_MS);
          const kept = await store.extendLock(id, held, until).catch(() => undefined);
          // undefined: the database did not answer; the lock stays as it was and may lapse.
          if (kept === true) held = until;
          else if (kept === false) held = null;
        });
      }, PAYMENT_LOCK_MS / 3);
      const release = async () => {
        clearInterval(timer);
        await renewing;
        if (held !== null) await store.unlock(id, held).catch(() => undefined);
      };
      try {
        const outcome = await work();
        if (outcome.kind === "open") await release();
        return outcome;
      } catch (error) {
        await release();
        throw error;
      } finally {
        clearInterval(timer);
      }
    },
  };
}

export type PaymentRunner = ReturnType<typeof createPaymentRunner>;

/** A 32-byte hash (a transaction's, a nonce), lowercase; null for anything else. */
function asHex(value: string): Hex | null {
  const lower = value.toLowerCase();
  return /^0x[0-9a-f]{64}$/.test(lower) && isHex(lower) ? lower : null;
}

function payerOf(row: PaymentRow): Address {
  if (!isAddress(row.payer, { strict: false })) throw new Error("payment row without a payer address");
  return row.payer;
}

function nonceOf(row: PaymentRow): Hex {
  const nonce = asHex(row.nonce);
  if (nonce === null) throw new Error("payment row without an EIP-3009 nonce");
  return nonce;
}
