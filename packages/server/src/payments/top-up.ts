import { TOP_UP_SERVER_MS } from "@keyport/node-edge";
import type { PaymentRequirements } from "@x402/core/types";
import type { PaymentRow } from "../db/schema/index.js";
import type { PaymentMetrics } from "../metrics/payments.js";
import { creditsFor, toBaseUnits } from "./amount.js";
import { readAnswer, type StoredAnswer } from "./answer.js";
import { FROM_BLOCK_MARGIN, type PaymentChain } from "./chain.js";
import { raceDeadline } from "./deadline-race.js";
import { type DecodedPayment, decodePayment, mismatchOf } from "./payment-payload.js";
import { PAYMENT_LOCK_MS, type PaymentRunner, type RunOutcome } from "./payment-runner.js";
import type { PaymentStore } from "./payment-store.js";
import { paymentRequired, topUpRequirement } from "./requirement.js";
import type { PaymentSettings } from "./settings.js";
import { SettlementUnavailableError, type Settler } from "./settler.js";

/** The key a top-up credits: its id, its balance, its owner. */
export interface TopUpKey {
  id: string;
  creditsId: string;
  wallet: string;
}

/** An amount checked against the bounds, and the requirement that pays it. */
export type Quote =
  | { ok: true; amount: string; baseUnits: bigint; credits: number; requirement: PaymentRequirements }
  | { ok: false; message: string };

/** How a top-up request ends. */
export type TopUpResult =
  | { kind: "payment_required"; message: string; header: string }
  | { kind: "credited"; answer: Extract<StoredAnswer, { kind: "credited" }> }
  /**
   * The facilitator or the chain did not answer. `recorded` false: before the payment was recorded,
   * so nothing was settled. `recorded` true: it may have been settled; the payment stays open for
   * the same payment sent again and for the reconciler.
   */
  | { kind: "unavailable"; recorded: boolean };

export interface TopUpsOptions {
  settings: PaymentSettings;
  store: PaymentStore;
  chain: PaymentChain;
  settler: Settler;
  runner: PaymentRunner;
  metrics: PaymentMetrics;
  /** Where an error of a top-up's work that outlived its request goes (the log). */
  onLateError?: (error: unknown) => void;
}

/**
 * One request's share of the top-up's time budget (@keyport/node-edge's TOP_UP_SERVER_MS): when it
 * ends, and whether the payment was recorded by then (so it may be settled).
 */
interface Budget {
  deadline: number;
  recorded: boolean;
}

const POLL_MS = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Top-ups (docs/payments.md): quotes an amount, and takes a payment for it exactly once. A payment
 * is verified, recorded (unique on its authorization) and only then settled; a request that finds
 * its payment recorded answers that payment's answer, waiting for it while another request holds it.
 */
export function createTopUps(options: TopUpsOptions) {
  const { settings, store, chain, settler, runner, metrics } = options;
  const onLateError = options.onLateError ?? (() => undefined);

  function quote(amount: string): Quote {
    const baseUnits = toBaseUnits(amount, settings.decimals);
    if (baseUnits === null) {
      return {
        ok: false,
        message: `amount must be a decimal number of whole tokens with at most ${settings.decimals} places`,
      };
    }
    if (baseUnits < settings.min || baseUnits > settings.max) {
      return { ok: false, message: `amount must be between ${settings.minText} and ${settings.maxText}` };
    }
    const credits = Number(creditsFor(baseUnits, settings.decimals, settings.creditsPerToken));
    return { ok: true, amount, baseUnits, credits, requirement: topUpRequirement(settings, baseUnits) };
  }

  function required(resource: string, requirement: PaymentRequirements, message: string): TopUpResult {
    return {
      kind: "payment_required",
      message,
      header: paymentRequired(resource, requirement, message).header,
    };
  }

  function fromAnswer(resource: string, requirement: PaymentRequirements, answer: StoredAnswer): TopUpResult {
    return answer.kind === "credited"
      ? { kind: "credited", answer }
      : required(resource, requirement, answer.message);
  }

  /** Waits for the payment another request holds; takes it up when that request's lock lapses. */
  async function awaitPayment(
    id: number,
    payment: DecodedPayment,
    requirement: PaymentRequirements,
    until: number,
  ) {
    while (Date.now() < until) {
      const row = await store.get(id);
      const answer = readAnswer(row?.answer);
      if (answer !== undefined) return { kind: "answered" as const, answer };
      if (row === undefined) return { kind: "open" as const };
      const now = new Date();
      if (row.lockedUntil < now) {
        const taken = await store.lock(id, new Date(now.getTime() + PAYMENT_LOCK_MS), now);
        if (taken !== undefined) {
          return runner.withLock(taken, () =>
            runner.resume({ row: taken, payment: { decoded: payment, requirement } }),
          );
        }
      }
      await sleep(POLL_MS);
    }
    return { kind: "open" as const };
  }

  async function pay(
    key: TopUpKey,
    priced: Extract<Quote, { ok: true }>,
    header: string,
    resource: string,
    budget: Budget,
  ): Promise<{ result: TopUpResult; replayed: boolean }> {
    const { requirement } = priced;
    const payment = decodePayment(header);
    if (payment === null) {
      return {
        result: required(resource, requirement, "PAYMENT-SIGNATURE is not an x402 v2 exact EIP-3009 payment"),
        replayed: false,
      };
    }
    const { from, nonce } = payment.authorization;
    const payer = from.toLowerCase();
    const recorded = () =>
      store.find(settings.network, settings.asset.toLowerCase(), payer, nonce.toLowerCase());
    /** The answer of the recorded payment spending this authorization: its result, or a refusal when it is another's. */
    const answerRecorded = async (existing: PaymentRow) => {
      if (existing.signatureHash !== payment.signatureHash || existing.keyId !== key.id) {
        return {
          result: required(resource, requirement, "This payment authorization was already used"),
          replayed: false,
        };
      }
      budget.recorded = true;
      const outcome = await awaitPayment(existing.id, payment, requirement, budget.deadline);
      return { result: toResult(resource, requirement, outcome), replayed: true };
    };
    /**
     * Refuses with `message`, unless the same payment was recorded meanwhile (sent at once to another
     * instance, whose settlement spent the nonce this verification found used): then its result.
     */
    const refuse = async (message: string) => {
      const existing = await recorded();
      if (existing !== undefined) return answerRecorded(existing);
      return { result: required(resource, requirement, message), replayed: false };
    };
    const existing = await recorded();
    if (existing !== undefined) return answerRecorded(existing);
    const mismatch = mismatchOf(payment, requirement, Date.now());
    if (mismatch !== null) return refuse(mismatch);
    // Where the search for its transaction starts should it go unrecorded, read beside the
    // verification (so before any settlement); without it (the node did not answer) the search
    // starts at the block of the payment's time (docs/payments.md#recovery).
    const height = chain.blockNumber().catch(() => null);
    const verified = await settler.verify(payment.payload, requirement);
    if (!verified.ok) {
      // A facilitator that could not read the chain says so as a refusal: a chain that does not answer is a 503.
      if (!(await chain.reachable())) throw new SettlementUnavailableError(verified.reason);
      return refuse(`The payment was refused: ${verified.reason}`);
    }
    const recordedAt = await height;
    const fromBlock =
      recordedAt === null
        ? null
        : Number(recordedAt > FROM_BLOCK_MARGIN ? recordedAt - FROM_BLOCK_MARGIN : 0n);
    // Out of time before recording: stop here, so the 503 already sent ("nothing was charged") holds.
    if (Date.now() >= budget.deadline)
      throw new SettlementUnavailableError("the top-up's time budget ran out");
    budget.recorded = true;
    const now = new Date();
    const row = await store.insert({
      fromBlock,
      network: settings.network,
      asset: settings.asset.toLowerCase(),
      payer,
      nonce: nonce.toLowerCase(),
      signatureHash: payment.signatureHash,
      keyId: key.id,
      creditsId: key.creditsId,
      wallet: key.wallet,
      amount: priced.amount,
      baseUnits: priced.baseUnits.toString(),
      credits: priced.credits,
      validBefore: new Date(Number(payment.authorization.validBefore) * 1000),
      lockedUntil: new Date(now.getTime() + PAYMENT_LOCK_MS),
    });
    if (row === undefined) return pay(key, priced, header, resource, budget);
    const work = { row, payment: { decoded: payment, requirement } };
    const outcome = await runner.withLock(row, () => runner.settleNew(work));
    return { result: toResult(resource, requirement, outcome), replayed: false };
  }

  function toResult(resource: string, requirement: PaymentRequirements, outcome: RunOutcome): TopUpResult {
    return outcome.kind === "open"
      ? { kind: "unavailable", recorded: true }
      : fromAnswer(resource, requirement, outcome.answer);
  }

  return {
    settings,
    quote,
    /** The 402 answer for a request without a payment. */
    unpaid: (resource: string, requirement: PaymentRequirements) =>
      required(resource, requirement, "PAYMENT-SIGNATURE is required: pay the amount in PAYMENT-REQUIRED"),
    /**
     * Takes `header` (a PAYMENT-SIGNATURE) for `priced` on `key`. Goes on when the caller leaves: its
     * credits arrive all the same, exactly once.
     */
    async topUp(key: TopUpKey, priced: Extract<Quote, { ok: true }>, header: string, resource: string) {
      const budget: Budget = { deadline: Date.now() + TOP_UP_SERVER_MS, recorded: false };
      const work = pay(key, priced, header, resource, budget).catch((error: unknown) => {
        if (!(error instanceof SettlementUnavailableError)) throw error;
        // Thrown only before the payment is recorded (the runner keeps its own failures as "open").
        return { result: { kind: "unavailable", recorded: false } as const, replayed: false };
      });
      // At the deadline the request is answered and the work goes on (docs/payments.md#one-time-budget).
      const outcome: { result: TopUpResult; replayed: boolean } = await raceDeadline(
        work,
        budget.deadline,
        () => ({ result: { kind: "unavailable", recorded: budget.recorded }, replayed: false }),
        onLateError,
      );
      const { result, replayed } = outcome;
      const label =
        result.kind === "credited"
          ? replayed
            ? "replayed"
            : "credited"
          : result.kind === "unavailable"
            ? "unavailable"
            : "refused";
      metrics.topUp(label, priced.baseUnits);
      return result;
    },
  };
}

export type TopUps = ReturnType<typeof createTopUps>;
